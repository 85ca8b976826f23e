package orchestrate

// The journal: what a checkpoint writes instead of the lesson file.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/lessongen/lessongen/internal/atomicfile"
	"github.com/lessongen/lessongen/internal/statedir"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// JournalFile, in the state folder, holds the children written in the
// lesson file itself that a run finished since it last wrote that file:
// a header line naming the file's hash then, one JSON line each, a node
// and its YAML as its kind encodes it; each append is one gzip member
// (zcat reads it), so the journal weighs well under what it holds and a
// run writes less than twice its lesson whatever the lesson's shape. A checkpoint appends to it (and
// syncs) instead of rewriting the whole lesson, which holds every slide;
// the lesson is rewritten when the run stops. A run killed in between
// leaves it for the next run, which puts those nodes back
// (RecoverJournal) while the lesson still reads as the header says.
const JournalFile = "journal.jsonl.gz"

// journalLine is one line of the journal: the header (Base) or a node.
type journalLine struct {
	// Base is the hash of the lesson file the entries apply to
	// (compose.Document.Sum).
	Base  string `json:"base,omitempty"`
	Slide string `json:"slide,omitempty"`
	Kind  string `json:"kind,omitempty"`
	YAML  string `json:"yaml,omitempty"`
}

// LessonFile is what the journal asks of the lesson file a checkpoint
// would rewrite (compose.Saver, through cmd).
type LessonFile interface {
	// Sum is the hash of the file as the run last loaded or wrote it; ""
	// once the file holds what the run's document lacks (an author's
	// edit merged in, a conflict), so no journal can stand for it.
	Sum() string
	// Edited reports whether the file on disk differs from that: the
	// checkpoint then writes it, merging the edit, as without a journal.
	Edited() bool
}

// Journal is one run's journal in its state folder.
type Journal struct {
	dir    string
	lesson LessonFile
	redact func(string) string

	mu      sync.Mutex
	pending map[journalKey]journalNode // finished since the last append
	order   []journalKey
	f       *os.File // open once the header is written
	gz      *gzip.Writer
	off     bool // the lesson file is rewritten instead
	// Written counts the bytes appended, for benchmarks.
	written int64
}

type journalKey struct{ slide, kind string }

type journalNode struct {
	d    *modality.Descriptor
	sess *session.Session
}

// NewJournal returns the journal of the run whose state folder is dir
// and whose lesson file is lesson. redact, when set, is applied to what
// is written, as to everything in the state folder (the document refuses
// secrets already; this is the same safety net as the history's).
func NewJournal(dir string, lesson LessonFile, redact func(string) string) *Journal {
	if redact == nil {
		redact = func(s string) string { return s }
	}
	return &Journal{dir: dir, lesson: lesson, redact: redact, pending: map[journalKey]journalNode{}}
}

// Written is the number of bytes appended so far.
func (j *Journal) Written() int64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.written
}

// add notes a node of slide finished; the next append encodes it as it
// is then.
func (j *Journal) add(slide string, d *modality.Descriptor, sess *session.Session) {
	j.mu.Lock()
	defer j.mu.Unlock()
	k := journalKey{slide, d.Name}
	if _, ok := j.pending[k]; !ok {
		j.order = append(j.order, k)
	}
	j.pending[k] = journalNode{d, sess}
}

// drain takes the nodes noted since the last append: a rewrite of the
// lesson file holds them.
func (j *Journal) drain() {
	j.mu.Lock()
	defer j.mu.Unlock()
	clear(j.pending)
	j.order = j.order[:0]
}

// on reports whether checkpoints append here rather than rewrite the
// lesson file.
func (j *Journal) on() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return !j.off
}

// flush appends the nodes noted since the last append, as one gzip
// member, and syncs.
func (j *Journal) flush() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.order) == 0 {
		return nil
	}
	var lines bytes.Buffer
	for _, k := range j.order {
		n := j.pending[k]
		var data []byte
		var err error
		n.sess.View(func(st session.State) { data, err = yamlsrc.Render(n.d.Codec.Encode(st), 2) })
		if err != nil {
			return fmt.Errorf("journal: %s of slide %q: %w", k.kind, k.slide, err)
		}
		line, _ := json.Marshal(journalLine{Slide: k.slide, Kind: k.kind, YAML: j.redact(string(data))})
		lines.Write(append(line, '\n'))
	}
	head, err := j.open()
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if j.gz == nil {
		j.gz = gzip.NewWriter(&buf)
	} else {
		j.gz.Reset(&buf)
	}
	j.gz.Write(head)
	j.gz.Write(lines.Bytes())
	if err := j.gz.Close(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if _, err := j.f.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := atomicfile.Sync(j.f, j.f.Name()); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	j.written += int64(buf.Len())
	clear(j.pending)
	j.order = j.order[:0]
	return nil
}

// open opens the journal for appending and returns the header line to
// write first: one naming the lesson file as it is now, or none when a
// journal with that header is already there (one this run recovered
// from), which is appended to, so a second kill loses nothing.
func (j *Journal) open() ([]byte, error) {
	if j.f != nil {
		return nil, nil
	}
	base := j.lesson.Sum()
	if old, err := readJournal(j.dir, base, false); err == nil && !old.headless && old.base == base {
		if f, err := statedir.OpenFile(j.dir, JournalFile, os.O_WRONLY|os.O_APPEND, 0o644); err == nil {
			j.f = f
			return nil, nil
		}
	}
	f, err := statedir.OpenFile(j.dir, JournalFile, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	j.f = f
	head, _ := json.Marshal(journalLine{Base: base})
	return append(head, '\n'), nil
}

// restart drops the journal once the lesson file was rewritten with
// everything in it; the next append starts one on the new file. A file
// the run's document no longer stands for turns the journal off.
func (j *Journal) restart() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.lesson.Sum() == "" {
		j.off = true
	}
	return j.remove()
}

// Remove deletes the journal: the run's final save wrote everything.
func (j *Journal) Remove() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.remove()
}

func (j *Journal) remove() error {
	if j.f != nil {
		j.f.Close()
		j.f = nil
	}
	return RemoveJournal(j.dir)
}

// RemoveJournal deletes the journal in state folder dir, if any.
func RemoveJournal(dir string) error {
	root, err := os.OpenRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer root.Close()
	if err := root.Remove(JournalFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// MaxJournalBytes bounds what the journal may unpack to. It holds at most
// the children of one lesson file (compose.MaxFileBytes), each once per
// append that finished it: a lesson near that limit is 64 times the
// largest measured. gzip packs a thousand to one, so without this a
// planted journal of a few megabytes unpacks to gigabytes.
const MaxJournalBytes = 64 << 20

// savedJournal is a journal as read back.
type savedJournal struct {
	base string
	// headless: its first line is whole but no header: not a journal
	// lessongen wrote.
	headless bool
	entries  []journalLine
	// bad counts lines that could not be read (the last one torn by a
	// kill mid-append, or worse).
	bad int
}

// readJournal reads the journal in dir: its header first, then, when
// full and the header names sum, its entries; a journal based on another
// file is not read further (it is set aside, whatever it holds). What a
// kill cut short (a torn last member or line) ends it without an error;
// so does a line that does not read, since only the last one can be torn
// by a kill. The file on disk (statedir.MaxFileBytes), what it unpacks to
// (MaxJournalBytes) and each line (statedir.MaxLineBytes) are bounded: a
// *statedir.TooBigError past one.
func readJournal(dir, sum string, full bool) (savedJournal, error) {
	f, err := statedir.Open(dir, JournalFile)
	if err != nil {
		return savedJournal{}, err
	}
	defer f.Close()
	path := filepath.Join(dir, JournalFile)
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return savedJournal{bad: 1}, nil // torn before its header
	}
	unpacked := &io.LimitedReader{R: zr, N: MaxJournalBytes + 1}
	sc := bufio.NewScanner(unpacked)
	sc.Buffer(nil, statedir.MaxLineBytes)
	var sj savedJournal
	for first := true; sc.Scan(); first = false {
		var l journalLine
		err := json.Unmarshal(sc.Bytes(), &l)
		if first {
			sj.base, sj.headless = l.Base, err != nil || l.Base == ""
			if sj.headless || sj.base != sum || !full {
				return sj, nil
			}
			continue
		}
		if err != nil || l.Slide == "" || l.Kind == "" {
			sj.bad++
			break
		}
		sj.entries = append(sj.entries, l)
	}
	switch {
	case errors.Is(sc.Err(), bufio.ErrTooLong):
		return savedJournal{}, &statedir.TooBigError{Path: path, Limit: statedir.MaxLineBytes, Line: true}
	case unpacked.N <= 0:
		return savedJournal{}, &statedir.TooBigError{Path: path, Limit: MaxJournalBytes, Unpacked: true}
	case sc.Err() != nil:
		sj.bad++
	}
	return sj, nil
}

// Recovered is what RecoverJournal found.
type Recovered struct {
	// Nodes counts the nodes put back.
	Nodes int
	// Stale names where a journal that no longer fits the lesson was set
	// aside ("" when none was).
	Stale string
	// Headless: it was set aside because it does not start with the
	// header lessongen writes (not one of its journals), rather than
	// because the lesson changed.
	Headless bool
}

// RecoverJournal puts back into tree the children a killed run finished
// after it last wrote the lesson file, from the journal in state folder
// dir, when sum (the lesson as loaded, compose.Document.Sum) is still the
// file the journal was based on. A journal that no longer fits (the
// lesson was edited or written since) is set aside, not applied: its
// nodes would replace what is there. The journal stays until the run's
// final save (Journal.Remove), so a second kill loses nothing either.
func RecoverJournal(tree Tree, reg *modality.Registry, dir, sum string) (Recovered, error) {
	sj, err := readJournal(dir, sum, true)
	if errors.Is(err, fs.ErrNotExist) {
		return Recovered{}, nil
	}
	if err != nil {
		return Recovered{}, fmt.Errorf("journal: %w", err)
	}
	if sj.base == "" && !sj.headless && len(sj.entries) == 0 {
		// Cut short before its first append was whole: nothing in it.
		return Recovered{}, RemoveJournal(dir)
	}
	if sj.headless || sj.base != sum {
		stale := JournalFile + ".stale"
		if err := statedir.Rename(dir, JournalFile, stale); err != nil {
			return Recovered{}, fmt.Errorf("journal: %w", err)
		}
		return Recovered{Stale: filepath.Join(dir, stale), Headless: sj.headless}, nil
	}
	seen := map[journalKey]bool{}
	for _, e := range sj.entries {
		st, ok := decodeEntry(reg, e)
		if !ok {
			continue
		}
		sess, err := tree.Child(e.Slide, e.Kind)
		if err != nil {
			continue // the slide or its child is gone
		}
		sess.Restore(st)
		seen[journalKey{e.Slide, e.Kind}] = true
	}
	return Recovered{Nodes: len(seen)}, nil
}

// decodeEntry reads one node back as its kind's codec decodes it from a
// file of its own; an entry that does not decode cleanly is skipped.
func decodeEntry(reg *modality.Registry, e journalLine) (session.State, bool) {
	d, ok := reg.Child(e.Kind)
	if !ok || d.Codec == nil {
		return nil, false
	}
	src, err := yamlsrc.Parse(JournalFile, []byte(e.YAML))
	if err != nil {
		return nil, false
	}
	if hint, ok := yamlsrc.Pending(src.Root); ok {
		return d.Codec.Todo(hint), true
	}
	r := &yamlsrc.Reporter{File: JournalFile}
	st := d.Codec.Decode(src.Root, r, e.Kind)
	return st, r.Problems.Err() == nil
}
