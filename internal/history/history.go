// Package history persists a subagent's conversation, one JSON Lines file
// per node and level, so a later run can continue it. The format is
// described in docs/history.md; FormatVersion names it.
package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lessongen/lessongen/internal/statedir"
	"github.com/lessongen/lessongen/llm"
)

// FormatVersion is written in every file's header; a file with another
// version is not loaded.
const FormatVersion = 1

// Summary bounds: a tool result over MaxResultBytes is stored as its first
// lines (at most SummaryLines, within MaxResultBytes) and a marker, so the
// state directory stays small and reviewable.
const (
	MaxResultBytes = 4096
	SummaryLines   = 20
)

// SummaryMarker starts the line appended to a summarised result; a model
// reading the history later sees that the rest was left out.
const SummaryMarker = "[lessongen: result summarised"

// Interrupted is the synthetic result given on load to a call saved
// without its result (a crash, a kill, Ctrl-C before it committed).
const Interrupted = `{"ok":false,"error":{"kind":"interrupted","message":"not known whether this call ran: the run stopped before its result was saved; check the current state before repeating it"}}`

// Header is a file's first line.
type Header struct {
	Format int    `json:"format"`
	Node   string `json:"node"`
	Level  string `json:"level"`
	// ContentHash is the node's content when the conversation started;
	// Load's caller compares it with the node now.
	ContentHash string `json:"content_hash"`
	// Generated lists the item ids this conversation's runs created, so a
	// refinement may change them although they read back as authored.
	Generated []string `json:"generated,omitempty"`
}

// Record is every line after the header: one message.
type Record struct {
	Role       llm.Role   `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Summarised bool       `json:"summarised,omitempty"`
	// Generated adds item ids to the header's list (appends never rewrite
	// the header).
	Generated []string `json:"generated,omitempty"`
	// ContentHash, when set, replaces the header's: the node's content as
	// the run that wrote it left it.
	ContentHash string `json:"content_hash,omitempty"`
}

type toolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Path is where the history of node at level lives under dir:
// dir/history/<node>/<level>.jsonl.
func Path(dir, node, level string) (string, error) {
	rel, err := relPath(node, level)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.FromSlash(rel)), nil
}

// relPath is Path inside the state folder, slash-separated.
func relPath(node, level string) (string, error) {
	for _, part := range append(strings.Split(node, "/"), level) {
		if part == "" || part == "." || part == ".." || strings.ContainsAny(part, `\/`+"\x00") {
			return "", fmt.Errorf("history: node %q level %q is not a safe file name", node, level)
		}
	}
	return statedir.HistoryDir + "/" + node + "/" + level + ".jsonl", nil
}

// Summarise returns content as stored: unchanged when small, else its
// first lines and a marker with the counts.
func Summarise(content string) (string, bool) {
	if len(content) <= MaxResultBytes {
		return content, false
	}
	lines := strings.SplitAfter(content, "\n")
	var b strings.Builder
	kept := 0
	for _, l := range lines {
		if kept == SummaryLines || b.Len()+len(l) > MaxResultBytes-200 {
			break
		}
		b.WriteString(l)
		kept++
	}
	if kept == 0 { // one long line: keep its start
		b.WriteString(content[:MaxResultBytes-200])
	}
	if !strings.HasSuffix(b.String(), "\n") {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%s: first %d of %d lines kept, %d bytes in all]", SummaryMarker, kept, len(lines), len(content))
	return b.String(), true
}

// Writer appends to one history file. Every record is written before
// Append returns, so a killed process (kill -9) loses nothing appended.
// The file is fsync'd at a turn — when the model's next turn is appended
// — at most once per SyncEvery, and at the end (SetContentHash, Close):
// a crash of the machine loses at most what the run's checkpoints lose
// (the turns of that interval), and a conversation that lost its tail
// is not continued, as its node no longer reads as it says. An fsync per
// message was most of a run's own CPU; one per turn still a fifth.
type Writer struct {
	mu     sync.Mutex
	f      *os.File
	redact func(string) string
	dirty  bool // written since the last fsync
	syncs  int  // fsyncs made, for tests
	// every is SyncEvery's interval; synced when the last fsync was (or
	// the file was opened).
	every  time.Duration
	synced time.Time
}

// fsyncs counts the fsyncs of every Writer of this process.
var fsyncs atomic.Int64

// Syncs is how many fsyncs history files had in this process: what a
// run's SyncEvery saves, for its tests and BenchmarkHistoryCPU.
func Syncs() int64 { return fsyncs.Load() }

// SyncEvery makes a turn durable only when d has passed since the last
// fsync (the run's checkpoint interval); 0, the default, makes every turn
// durable.
func (w *Writer) SyncEvery(d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.every = d
}

// Create starts a new history for node at level, replacing any old one.
// redact, when set, is applied to every string stored.
func Create(dir string, h Header, redact func(string) string) (*Writer, error) {
	rel, err := relPath(h.Node, h.Level)
	if err != nil {
		return nil, err
	}
	// Through statedir: never through a link, never outside dir.
	f, err := statedir.OpenFile(dir, rel, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	w := &Writer{f: f, redact: redact, synced: time.Now()}
	h.Format = FormatVersion
	// Durable with the first turn: a conversation with no model turn yet
	// is the turn in flight, and an fsync of its own cost every subagent
	// one more.
	if err := w.line(h, notYet); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// Reopen appends to an existing history.
func Reopen(dir, node, level string, redact func(string) string) (*Writer, error) {
	rel, err := relPath(node, level)
	if err != nil {
		return nil, err
	}
	// A torn last line (a crash mid-append) is cut off first, so the
	// next record starts on a line of its own.
	data, err := statedir.ReadFile(dir, rel)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		if err := statedir.Truncate(dir, rel, int64(i+1)); err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
	}
	f, err := statedir.OpenFile(dir, rel, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	return &Writer{f: f, redact: redact, synced: time.Now()}, nil
}

// Append stores one message; a tool result over MaxResultBytes is stored
// summarised.
func (w *Writer) Append(m llm.Message) error {
	r := Record{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID}
	for _, img := range m.Images {
		// An image is not kept: a marker says it was sent.
		r.Content += ImageMarker(len(img))
	}
	if m.Role == llm.RoleTool {
		r.Content, r.Summarised = Summarise(m.Content)
	}
	for _, c := range m.ToolCalls {
		r.ToolCalls = append(r.ToolCalls, toolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	// A model turn opens a new turn: it and the last turn's results become
	// durable together, before any of its tools runs.
	when := notYet
	if m.Role == llm.RoleAssistant {
		when = atTurn
	}
	return w.line(r, when)
}

// ImageMarker stands in a stored message for an image of n bytes that
// was sent with it (--review-images).
func ImageMarker(n int) string { return fmt.Sprintf("\n\n[image: board as drawn, %d bytes]", n) }

// MarkGenerated records ids the run created.
func (w *Writer) MarkGenerated(ids ...string) error {
	if len(ids) == 0 {
		return nil
	}
	return w.line(Record{Role: "", Generated: ids}, notYet)
}

// durability says when a record written must reach the disk.
type durability int

const (
	notYet durability = iota // with a later one
	atTurn                   // now, if SyncEvery has passed
	atOnce
)

func (w *Writer) line(v any, when durability) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	if w.redact != nil {
		// Redacting the JSON text covers every string field at once; the
		// redactor's masks contain no JSON-special characters.
		data = []byte(w.redact(string(data)))
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.f.Write(append(data, '\n')); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	w.dirty = true
	if when == atOnce || when == atTurn && time.Since(w.synced) >= w.every {
		return w.sync()
	}
	return nil
}

// sync fsyncs what was written since the last one; w.mu is held.
func (w *Writer) sync() error {
	if !w.dirty {
		return nil
	}
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	w.dirty = false
	w.syncs++
	fsyncs.Add(1)
	w.synced = time.Now()
	return nil
}

// SetContentHash records the node's content as the run leaves it.
func (w *Writer) SetContentHash(hash string) error {
	return w.line(Record{ContentHash: hash}, atOnce)
}

// Close makes what was written durable and closes the file.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	err := w.sync()
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// ErrNone is returned by Load when there is no history for the node.
var ErrNone = errors.New("history: none saved")

// Conversation is a loaded history.
type Conversation struct {
	Header   Header
	Messages []llm.Message
	// Committed holds the ids of calls whose results were saved: a
	// resumed run must not apply them again.
	Committed map[string]bool
	// Interrupted lists calls saved without a result; each got the
	// synthetic Interrupted result in Messages.
	Interrupted []string
}

// CorruptError means a history file exists but cannot be read as one (an
// empty file a full disk left, a bad line, another format version). The
// run sets it aside (SetAside) and starts the node afresh.
type CorruptError struct {
	Path string // the file
	Line int    // 0 when no line is to blame
	Err  error
}

func (e *CorruptError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// Load reads the history of node at level. It returns ErrNone when there
// is none, and a *CorruptError when the file cannot be read as a history.
// A torn last line (a crash mid-write) is dropped; every call
// without a result gets the Interrupted result, placed where the result
// belongs, so Messages is always a well-formed Chat Completions history.
func Load(dir, node, level string) (Conversation, error) {
	rel, err := relPath(node, level)
	if err != nil {
		return Conversation{}, err
	}
	path := filepath.Join(dir, filepath.FromSlash(rel))
	// Most nodes have none: one stat says so, where the walk that refuses
	// links costs a dozen system calls. A path that seems to exist only
	// through a link is refused by that walk, here or when Create writes.
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return Conversation{}, ErrNone
	}
	data, err := statedir.ReadFile(dir, rel)
	if errors.Is(err, fs.ErrNotExist) {
		return Conversation{}, ErrNone
	}
	if err != nil {
		return Conversation{}, fmt.Errorf("history: %w", err)
	}
	bad := func(line int, format string, args ...any) (Conversation, error) {
		return Conversation{}, &CorruptError{Path: path, Line: line, Err: fmt.Errorf(format, args...)}
	}
	c := Conversation{Committed: map[string]bool{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	lineNo := 0
	var open []string // calls of the last assistant turn still without a result
	closeOpen := func() {
		for _, id := range open {
			c.Messages = append(c.Messages, llm.Message{Role: llm.RoleTool, ToolCallID: id, Content: Interrupted})
			c.Interrupted = append(c.Interrupted, id)
		}
		open = nil
	}
	for sc.Scan() {
		lineNo++
		line := sc.Bytes()
		if lineNo == 1 {
			if err := json.Unmarshal(line, &c.Header); err != nil {
				return bad(1, "history header: %w", err)
			}
			if c.Header.Format != FormatVersion {
				return bad(1, "history format %d; this lessongen reads format %d", c.Header.Format, FormatVersion)
			}
			continue
		}
		var r Record
		if err := json.Unmarshal(line, &r); err != nil {
			if !bytes.HasSuffix(data, []byte("\n")) && !sc.Scan() {
				break // the torn last line of an interrupted append
			}
			return bad(lineNo, "history record: %w", err)
		}
		if r.ContentHash != "" {
			c.Header.ContentHash = r.ContentHash
		}
		if len(r.Generated) > 0 {
			c.Header.Generated = append(c.Header.Generated, r.Generated...)
		}
		switch r.Role {
		case "":
			continue
		case llm.RoleTool:
			i := indexOf(open, r.ToolCallID)
			if i < 0 {
				return bad(lineNo, "result for call %q, which no open assistant turn made", r.ToolCallID)
			}
			open = append(open[:i], open[i+1:]...)
			c.Committed[r.ToolCallID] = true
		default:
			closeOpen()
		}
		m := llm.Message{Role: r.Role, Content: r.Content, ToolCallID: r.ToolCallID}
		for _, tc := range r.ToolCalls {
			m.ToolCalls = append(m.ToolCalls, llm.ToolCall{ID: tc.ID, Name: tc.Name, Arguments: tc.Arguments})
			open = append(open, tc.ID)
		}
		c.Messages = append(c.Messages, m)
	}
	if err := sc.Err(); err != nil {
		return bad(0, "%w", err)
	}
	if lineNo == 0 {
		return bad(0, "empty history file")
	}
	closeOpen()
	return c, nil
}

// SetAside renames the history of node at level, one Load found corrupt,
// to NAME.broken-<UTC time> beside it, so the node starts afresh and the
// file is kept for a person to look at; it returns the new path.
func SetAside(dir, node, level string, now time.Time) (string, error) {
	rel, err := relPath(node, level)
	if err != nil {
		return "", err
	}
	aside := rel + ".broken-" + now.UTC().Format("20060102T150405.000000000Z")
	if err := statedir.Rename(dir, rel, aside); err != nil {
		return "", fmt.Errorf("history: set aside: %w", err)
	}
	return filepath.Join(dir, filepath.FromSlash(aside)), nil
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}
