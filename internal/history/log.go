package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/lessongen/lessongen/internal/atomicfile"
	"github.com/lessongen/lessongen/internal/lock"
	"github.com/lessongen/lessongen/internal/statedir"
	"github.com/lessongen/lessongen/llm"
)

// Log is one lesson's saved conversations: statedir.HistoryLog in its
// state folder, append-only, one line per record, every line naming the
// node and level it belongs to. A Header line begins (or begins again)
// its conversation; the last one wins. One file for the whole run is
// one open and one fsync per checkpoint interval, where a file per
// conversation cost a folder walk, an open and an fsync each — most of
// a run's own CPU.
//
// Open reads the log once; Load answers from what it read (and from
// the earlier layout, legacy.go). Every record is written before Append
// returns, so a killed process (kill -9) loses nothing appended. The
// file is fsync'd when a model turn is appended and SyncEvery has passed
// since the last fsync, at Sync (each checkpoint) and at Close: a crash
// of the machine loses at most what the run's checkpoints lose, and a
// conversation that lost its tail is not continued, as its node no
// longer reads as it says.
type Log struct {
	dir    string
	path   string // dir/HistoryLog, for messages
	redact func(string) string

	mu    sync.Mutex
	convs map[string]*stored // by key(node, level)
	lines int                // complete lines in the file
	size  int64              // their bytes
	read  int64              // the file's size when it was read
	torn  bool               // bytes after them: a write a kill cut short
	// broken is why the file as a whole could not be read (a line that
	// names no conversation); nothing is written until SetAsideLog.
	broken *CorruptError
	f      *os.File
	dirty  bool // written since the last fsync
	syncs  int  // fsyncs made, for tests
	every  time.Duration
	synced time.Time
}

// stored is one conversation as the log holds it: its header line and
// the records after it.
type stored struct {
	header Header
	head   numbered
	recs   []numbered
	// aside is the tombstone line of a conversation set aside (SetAside):
	// none is loaded, not even the earlier layout's.
	aside *numbered
}

// entry is what every line of the log says of itself.
type entry struct {
	Format   int    `json:"format,omitempty"`
	Node     string `json:"node"`
	Level    string `json:"level"`
	SetAside string `json:"set_aside,omitempty"`
}

// line is a record as the log stores it.
type line struct {
	Node  string `json:"node"`
	Level string `json:"level"`
	Record
}

func key(node, level string) string { return node + "\x00" + level }

// compactAt is the size from which a log mostly of superseded
// conversations is rewritten with the live ones alone.
const compactAt = 1 << 20

// Compact reports whether an append-only log of size bytes, of which live
// are still read, is due to be rewritten with the live lines alone: once
// it is past compactAt and mostly dead. Every append-only state file
// (this log, orchestrate's record of what was generated) follows this
// one rule, so each is written in bytes at most about twice what it
// holds, however often its lines are superseded.
func Compact(size, live int64) bool { return size >= compactAt && 2*live < size }

// Syncs is how many fsyncs history logs had in this process: what a
// test of the run's durability counts (atomicfile.Syncs, the one counter,
// by file).
func Syncs() int64 {
	var n int64
	for path, c := range atomicfile.Syncs() {
		if filepath.Base(path) == statedir.HistoryLog {
			n += c
		}
	}
	return n
}

// Open reads the log in state folder dir; redact, when set, is applied
// to every string stored. A log that cannot be read as a whole returns
// a *CorruptError with a usable, empty Log: the caller warns, and sets
// it aside (SetAsideLog) before anything is written.
func Open(dir string, redact func(string) string) (*Log, error) {
	l := &Log{dir: dir, path: filepath.Join(dir, statedir.HistoryLog), redact: redact, convs: map[string]*stored{}, synced: time.Now()}
	fi, err := os.Stat(l.path)
	if errors.Is(err, fs.ErrNotExist) {
		return l, nil
	}
	if err == nil && fi.IsDir() {
		// Nothing to read: a run that writes is refused before it starts
		// (statedir.Check); one that only reads goes on without.
		l.broken = &CorruptError{Path: l.path, Err: errors.New("a folder, where lessongen keeps the history log")}
		return l, l.broken
	}
	data, err := statedir.ReadFile(dir, statedir.HistoryLog)
	if errors.Is(err, fs.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	l.read = int64(len(data))
	if err := l.index(data); err != nil {
		l.convs, l.broken = map[string]*stored{}, err
		return l, err
	}
	return l, nil
}

// index reads the log's lines into l.convs.
func (l *Log) index(data []byte) *CorruptError {
	all := lines(data, 1)
	l.lines, l.size = len(all), 0
	for _, ln := range all {
		l.size += int64(len(ln.data)) + 1
		var e entry
		err := json.Unmarshal(ln.data, &e)
		if err == nil && (e.Node == "" || e.Level == "") {
			err = errors.New("the line names no node and level")
		}
		if err != nil {
			return &CorruptError{Path: l.path, Line: ln.no, Err: fmt.Errorf("history: %w", err)}
		}
		k := key(e.Node, e.Level)
		switch {
		case e.SetAside != "":
			l.convs[k] = &stored{aside: &ln}
		case e.Format != 0:
			c := &stored{head: ln}
			if err := json.Unmarshal(ln.data, &c.header); err != nil {
				return &CorruptError{Path: l.path, Line: ln.no, Err: fmt.Errorf("history header: %w", err)}
			}
			l.convs[k] = c
		case l.convs[k] == nil || l.convs[k].aside != nil:
			return &CorruptError{Path: l.path, Line: ln.no, Err: fmt.Errorf("a record of %s (%s) before its conversation's header", e.Node, e.Level)}
		default:
			l.convs[k].recs = append(l.convs[k].recs, ln)
		}
	}
	l.torn = int64(len(data)) > l.size
	return nil
}

// Load reads the conversation of node at level. It returns ErrNone when
// there is none, and a *CorruptError when it cannot be read as one. Every
// call without a result gets the Interrupted result, placed where the
// result belongs, so Messages is always a well-formed Chat Completions
// history.
func (l *Log) Load(node, level string) (Conversation, error) {
	if err := safeName(node, level); err != nil {
		return Conversation{}, err
	}
	l.mu.Lock()
	c, ok := l.convs[key(node, level)]
	var head Header
	var recs []numbered
	if ok {
		// Copied under the lock: a writer may be appending to another's.
		head, recs = c.header, c.recs[:len(c.recs):len(c.recs)]
	}
	l.mu.Unlock()
	switch {
	case !ok:
		conv, _, _, err := loadLegacy(l.dir, node, level)
		return conv, err
	case c.aside != nil:
		return Conversation{}, ErrNone
	case head.Format != FormatVersion:
		return Conversation{}, &CorruptError{Path: l.path, Line: c.head.no, Err: fmt.Errorf("history format %d; this lessongen reads format %d", head.Format, FormatVersion)}
	}
	return build(l.path, head, recs)
}

// Create starts the conversation of h's node and level afresh: a later
// Load reads this one, not any before.
func (l *Log) Create(h Header) (*Writer, error) {
	if err := safeName(h.Node, h.Level); err != nil {
		return nil, err
	}
	h.Format = FormatVersion
	l.mu.Lock()
	defer l.mu.Unlock()
	// Durable with the first turn: a conversation with no model turn yet
	// is the turn in flight.
	ln, err := l.write(h, notYet)
	if err != nil {
		return nil, err
	}
	l.convs[key(h.Node, h.Level)] = &stored{header: h, head: ln}
	return &Writer{log: l, node: h.Node, level: h.Level}, nil
}

// Reopen continues the saved conversation of node at level. One of the
// earlier layout is copied into the log first, so the log holds it whole.
func (l *Log) Reopen(node, level string) (*Writer, error) {
	if err := safeName(node, level); err != nil {
		return nil, err
	}
	w := &Writer{log: l, node: node, level: level}
	l.mu.Lock()
	c, ok := l.convs[key(node, level)]
	l.mu.Unlock()
	if ok && c.aside == nil {
		return w, nil
	}
	if ok {
		return nil, ErrNone
	}
	_, h, recs, err := loadLegacy(l.dir, node, level)
	if err != nil {
		return nil, err
	}
	// Copied as saved: the header as it began, every record after it,
	// under the node and level it was found by.
	h.Node, h.Level = node, level
	if _, err := l.Create(h); err != nil {
		return nil, err
	}
	for _, r := range recs {
		var rec Record
		if err := json.Unmarshal(r.data, &rec); err != nil {
			return nil, err
		}
		if err := w.put(rec, notYet); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// Writer appends one conversation's records to its log.
type Writer struct {
	log         *Log
	node, level string
}

// Append stores one message; a tool result over MaxResultBytes is stored
// summarised.
func (w *Writer) Append(m llm.Message) error {
	// A model turn opens a new turn: it and the last turn's results become
	// durable together, before any of its tools runs.
	when := notYet
	if m.Role == llm.RoleAssistant {
		when = atTurn
	}
	return w.put(record(m), when)
}

// MarkGenerated records ids the run created.
func (w *Writer) MarkGenerated(ids ...string) error {
	if len(ids) == 0 {
		return nil
	}
	return w.put(Record{Generated: ids}, notYet)
}

// SetContentHash records the node's content as the run leaves it.
func (w *Writer) SetContentHash(hash string) error {
	return w.put(Record{ContentHash: hash}, atTurn)
}

func (w *Writer) put(r Record, when durability) error {
	l := w.log
	l.mu.Lock()
	defer l.mu.Unlock()
	ln, err := l.write(line{Node: w.node, Level: w.level, Record: r}, when)
	if err != nil {
		return err
	}
	c := l.convs[key(w.node, w.level)]
	c.recs = append(c.recs, ln)
	return nil
}

// durability says when a record written must reach the disk.
type durability int

const (
	notYet durability = iota // with a later one
	atTurn                   // now, if SyncEvery has passed
)

// write appends v as one line; l.mu is held.
func (l *Log) write(v any, when durability) (numbered, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return numbered{}, fmt.Errorf("history: %w", err)
	}
	if l.redact != nil {
		// Redacting the JSON text covers every string field at once; the
		// redactor's masks contain no JSON-special characters.
		data = []byte(l.redact(string(data)))
	}
	f, err := l.file()
	if err != nil {
		return numbered{}, err
	}
	// One write per line: a kill cuts at most this line short.
	if _, err := f.Write(append(data, '\n')); err != nil {
		return numbered{}, fmt.Errorf("history: %w", err)
	}
	l.lines++
	l.size += int64(len(data)) + 1
	l.dirty = true
	if when == atTurn && l.every >= 0 && time.Since(l.synced) >= l.every {
		return numbered{l.lines, data}, l.sync()
	}
	return numbered{l.lines, data}, nil
}

// file opens the log for appending on the first write, under an
// exclusive lock held until Close: another process's run on a lesson
// sharing this state folder is refused (BusyError), never interleaved
// with a compaction. Under the lock the log is read again if it changed
// since Open, the torn line of a killed run is cut off, so the next
// record starts on a line of its own, and a log mostly of superseded
// conversations is compacted.
func (l *Log) file() (*os.File, error) {
	if l.f != nil {
		return l.f, nil
	}
	if l.broken != nil {
		return nil, fmt.Errorf("history: %w (set it aside first)", l.broken)
	}
	f, err := l.openLocked()
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*os.File, error) {
		f.Close()
		return nil, err
	}
	// A compaction killed before its rename left its temporary copy;
	// under the lock no other run is compacting.
	if err := statedir.RemoveLeftovers(l.dir, statedir.HistoryLog); err != nil {
		return fail(fmt.Errorf("history: %w", err))
	}
	if fi, err := f.Stat(); err != nil {
		return fail(fmt.Errorf("history: %w", err))
	} else if fi.Size() != l.read {
		data, err := statedir.ReadFile(l.dir, statedir.HistoryLog)
		if err != nil {
			return fail(fmt.Errorf("history: %w", err))
		}
		l.convs, l.read = map[string]*stored{}, int64(len(data))
		if err := l.index(data); err != nil {
			l.broken = err
			return fail(fmt.Errorf("history: %w (set it aside first)", err))
		}
	}
	if l.torn {
		if err := f.Truncate(l.size); err != nil {
			return fail(fmt.Errorf("history: %w", err))
		}
		l.torn, l.read = false, l.size
	}
	if Compact(l.size, l.liveBytes()) {
		if err := l.compact(); err != nil {
			return fail(err)
		}
		// The log is a new file now: lock it, and let the old one go.
		nf, err := l.openLocked()
		if err != nil {
			return fail(err)
		}
		f.Close()
		f = nf
	}
	l.f = f
	return f, nil
}

// BusyError means another process holds the log: a run on another lesson
// that shares this state folder (--state-dir).
type BusyError struct{ Path string }

func (e *BusyError) Error() string {
	return fmt.Sprintf("%s is being written by another lessongen run: do two lessons share this state folder (--state-dir)? Give each lesson its own, or wait for that run to finish", e.Path)
}

// openLocked opens the log for appending and takes its lock.
func (l *Log) openLocked() (*os.File, error) {
	f, err := statedir.OpenFile(l.dir, statedir.HistoryLog, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	ok, err := lock.TryLock(f)
	if err == nil && !ok {
		err = &BusyError{Path: l.path}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Claim opens the log for this run's writes before its first request, so
// a log another run holds stops it there (BusyError), not at its first
// saved turn.
func (l *Log) Claim() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, err := l.file()
	return err
}

// liveBytes is the size of the lines a compacted log keeps.
func (l *Log) liveBytes() int64 {
	var n int64
	for _, c := range l.convs {
		for _, ln := range c.all() {
			n += int64(len(ln.data)) + 1
		}
	}
	return n
}

// all is the conversation's lines as a compacted log keeps them.
func (c *stored) all() []numbered {
	if c.aside != nil {
		return []numbered{*c.aside}
	}
	return append([]numbered{c.head}, c.recs...)
}

// compact replaces the log with its live conversations, in the order
// they were last begun, atomically; l.mu is held and the file not open.
func (l *Log) compact() error {
	convs := make([]*stored, 0, len(l.convs))
	for _, c := range l.convs {
		convs = append(convs, c)
	}
	slices.SortFunc(convs, func(a, b *stored) int { return a.all()[0].no - b.all()[0].no })
	var buf bytes.Buffer
	for _, c := range convs {
		for _, ln := range c.all() {
			buf.Write(ln.data)
			buf.WriteByte('\n')
		}
	}
	if err := statedir.WriteFile(l.dir, statedir.HistoryLog, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("history: compact: %w", err)
	}
	// The turns appended next go to the new file: its name must last.
	if err := statedir.SyncDir(l.dir); err != nil {
		return fmt.Errorf("history: compact: %w", err)
	}
	l.convs, l.read = map[string]*stored{}, int64(buf.Len())
	if err := l.index(buf.Bytes()); err != nil {
		return err
	}
	return nil
}

// SetAside moves the conversation of node at level, one Load found
// corrupt, out of the way, so the node starts afresh and the
// conversation is kept for a person to look at: its lines are written to
// HistoryLog.broken-<UTC time> beside the log (the earlier layout's file
// is renamed so), and the log records that it was set aside. It returns
// where it went.
func (l *Log) SetAside(node, level string, now time.Time) (string, error) {
	if err := safeName(node, level); err != nil {
		return "", err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	k := key(node, level)
	c, ok := l.convs[k]
	if !ok {
		return setAsideLegacy(l.dir, node, level, now)
	}
	var buf bytes.Buffer
	for _, ln := range c.all() {
		buf.Write(ln.data)
		buf.WriteByte('\n')
	}
	name := statedir.HistoryLog + brokenSuffix(now)
	if err := statedir.WriteFile(l.dir, name, buf.Bytes(), 0o644); err != nil {
		return "", fmt.Errorf("history: set aside: %w", err)
	}
	ln, err := l.write(entry{Format: FormatVersion, Node: node, Level: level, SetAside: name}, notYet)
	if err != nil {
		return "", err
	}
	l.convs[k] = &stored{aside: &ln}
	return filepath.Join(l.dir, name), nil
}

// SetAsideLog renames a log Open could not read to
// HistoryLog.broken-<UTC time>, so the run saves to a new one, and
// returns the new path.
func (l *Log) SetAsideLog(now time.Time) (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	// Under its lock: a log another run is writing is that run's.
	f, err := l.openLocked()
	if err != nil {
		return "", err
	}
	defer f.Close()
	name := statedir.HistoryLog + brokenSuffix(now)
	if err := statedir.Rename(l.dir, statedir.HistoryLog, name); err != nil {
		return "", fmt.Errorf("history: set aside: %w", err)
	}
	l.broken, l.convs, l.lines, l.size, l.read, l.torn = nil, map[string]*stored{}, 0, 0, 0, false
	return filepath.Join(l.dir, name), nil
}

// SyncEvery makes a turn durable only when d has passed since the last
// fsync (the run's checkpoint interval); 0, the default, makes every turn
// durable. A negative d leaves every fsync to Sync and Close: a run
// whose checkpoints sync the log makes one fsync per interval, not one
// per interval and per turn.
func (l *Log) SyncEvery(d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.every = d
}

// Sync makes everything written durable: a checkpoint calls it before
// it saves the lesson, so the conversations are as durable as it.
func (l *Log) Sync() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sync()
}

// sync fsyncs what was written since the last one; l.mu is held.
func (l *Log) sync() error {
	if !l.dirty || l.f == nil {
		return nil
	}
	if err := atomicfile.Sync(l.f, l.path); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	l.dirty = false
	l.syncs++
	l.synced = time.Now()
	return nil
}

// Close makes what was written durable and closes the file.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.sync()
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}
