package orchestrate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/lessongen/lessongen/internal/atomicfile"
	"github.com/lessongen/lessongen/internal/history"
	"github.com/lessongen/lessongen/internal/statedir"
	"github.com/lessongen/lessongen/session"
)

// ProvenanceFile is the record, in the state dir, of what runs generated:
// by node, each value's key and the hash of what was written (see
// session.Provenance). It lives beside the saved conversations, not in the
// lesson, so the author's file holds only the lesson, and it outlives a
// conversation that is started afresh. Format in docs/history.md.
//
// It is a log, as the history is (internal/history): a header line, then
// one JSON line per node whose record changed, the last line of a node
// winning; a checkpoint appends what changed since the last one, so a
// run writes in bytes what it generated, not the whole record at every
// checkpoint (which grew with the nodes, its bytes with their square). It
// is rewritten with the live lines alone when mostly superseded
// (history.Compact).
const ProvenanceFile = "provenance.jsonl"

// legacyProvenanceFile is the record as lessongen wrote it before: one
// JSON document, rewritten whole. It is read when no log is there, and
// replaced by one at the first write.
const legacyProvenanceFile = "provenance.json"

// provenanceFormat is the format of both files; a file with another is
// ignored (everything then reads as the author's, which is safe) and
// replaced at the next write.
const provenanceFormat = 1

type provenanceDoc struct {
	Format int                          `json:"format"`
	Nodes  map[string]map[string]string `json:"nodes"`
}

// provenanceLine is a line of the log: the header (Format) or a node's
// record, an empty one when nothing on it is generated any more.
type provenanceLine struct {
	Format    int               `json:"format,omitempty"`
	Node      string            `json:"node,omitempty"`
	Generated map[string]string `json:"generated,omitempty"`
}

// provenance is one run's view of the record: read once, each node's
// entry replaced when a step on it ends, the changed ones appended at
// each checkpoint (flush).
type provenance struct {
	dir   string // "": nothing is read or written
	write bool

	mu      sync.Mutex
	nodes   map[string]map[string]string
	adopted map[*session.Session]bool
	changed map[string]bool // nodes changed since the last append
	f       *os.File        // the log, open for appending after the first write
	// size is the log's bytes up to its last whole line; lineSize the
	// bytes of each node's last line (with the header, what is live).
	size     int64
	lineSize map[string]int64
	torn     bool // bytes after the last whole line: a write a kill cut short
	// rewrite says the first write replaces the file whole: it was of the
	// earlier layout, unreadable, or mostly superseded.
	rewrite  bool
	legacy   bool // provenance.json is there, to be removed once replaced
	unsynced bool // appended since the last fsync
}

// loadProvenance reads the record in dir; a missing file is an empty one.
func loadProvenance(dir string, write bool) (*provenance, error) {
	p := &provenance{nodes: map[string]map[string]string{}, adopted: map[*session.Session]bool{},
		changed: map[string]bool{}, lineSize: map[string]int64{}}
	if dir == "" {
		return p, nil
	}
	p.dir, p.write = dir, write
	// Through statedir, as every state file: a planted link or pipe is
	// refused, not followed (or waited on).
	data, err := statedir.ReadFile(dir, ProvenanceFile)
	if errors.Is(err, fs.ErrNotExist) {
		return p, p.loadLegacy()
	}
	if err != nil {
		return nil, fmt.Errorf("provenance: %w", err)
	}
	if !p.index(data) {
		// Unreadable: nothing is known to be generated, so everything is
		// protected as the author's; the next write replaces the file.
		clear(p.nodes)
		clear(p.lineSize)
		p.rewrite = true
	}
	// Left from a run that was migrating it: the log is the record.
	if _, err := os.Lstat(filepath.Join(dir, legacyProvenanceFile)); err == nil {
		p.legacy = true
	}
	return p, nil
}

// index reads the log's whole lines; false when one cannot be read.
func (p *provenance) index(data []byte) bool {
	for i := 0; ; i++ {
		n := bytes.IndexByte(data[p.size:], '\n')
		if n < 0 {
			p.torn = int64(len(data)) > p.size
			break
		}
		ln := data[p.size : p.size+int64(n)]
		p.size += int64(n) + 1
		var l provenanceLine
		if json.Unmarshal(ln, &l) != nil {
			return false
		}
		switch {
		case i == 0:
			if l.Format != provenanceFormat {
				return false
			}
		case l.Node == "" || l.Format != 0:
			return false
		case len(l.Generated) == 0:
			delete(p.nodes, l.Node)
			delete(p.lineSize, l.Node)
		default:
			p.nodes[l.Node] = l.Generated
			p.lineSize[l.Node] = int64(n) + 1
		}
	}
	p.rewrite = history.Compact(p.size, p.live())
	return true
}

// loadLegacy reads the record of the earlier layout, if there is one.
func (p *provenance) loadLegacy() error {
	data, err := statedir.ReadFile(p.dir, legacyProvenanceFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("provenance: %w", err)
	}
	p.legacy, p.rewrite = true, true
	var doc provenanceDoc
	if json.Unmarshal(data, &doc) != nil || doc.Format != provenanceFormat {
		return nil // unreadable, as above
	}
	for node, m := range doc.Nodes {
		if len(m) > 0 {
			p.nodes[node] = m
		}
	}
	return nil
}

// live is the bytes a rewritten log would hold, near enough: the header
// is not counted.
func (p *provenance) live() int64 {
	var n int64
	for _, s := range p.lineSize {
		n += s
	}
	return n
}

// adopt marks, once per session, what the record says an earlier run
// generated on node and nobody changed since.
func (p *provenance) adopt(node string, sess *session.Session) {
	p.mu.Lock()
	if p.adopted[sess] {
		p.mu.Unlock()
		return
	}
	p.adopted[sess] = true
	marks := p.nodes[node]
	p.mu.Unlock()
	if len(marks) == 0 {
		return
	}
	sess.Adjust(func(st session.State) {
		if pv, ok := st.(session.Provenance); ok {
			pv.Adopt(marks)
		}
	})
}

// record replaces node's entry with what its session holds as generated
// now. It is written by flush: the record matters only beside a saved
// lesson that holds what it names, so it is written before each
// checkpoint and at the end of the run, not once per node (a rewrite and
// an fsync each, much of a run's own CPU).
func (p *provenance) record(node string, sess *session.Session) {
	var gen map[string]string
	sess.View(func(st session.State) {
		if pv, ok := st.(session.Provenance); ok {
			gen = pv.Generated()
		}
	})
	p.mu.Lock()
	defer p.mu.Unlock()
	if gen == nil || maps.Equal(gen, p.nodes[node]) {
		return
	}
	if len(gen) == 0 {
		delete(p.nodes, node)
	} else {
		p.nodes[node] = gen
	}
	p.changed[node] = true
}

// flush appends the records changed since the last flush, and with
// sync makes the log durable. A checkpoint flushes before it saves (a
// saved file never holds generated content the record does not name, a
// kill -9 included); it syncs only with the lesson, once per interval,
// as the lesson and its journal are: a machine crash then loses at most
// what the lesson loses, and a record lost makes content the author's,
// which is safe.
func (p *provenance) flush(sync bool) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dir == "" || !p.write {
		return nil
	}
	if len(p.changed) > 0 {
		if err := p.append(); err != nil {
			return fmt.Errorf("provenance: %w", err)
		}
	}
	if sync && p.unsynced {
		if err := atomicfile.Sync(p.f, filepath.Join(p.dir, ProvenanceFile)); err != nil {
			return fmt.Errorf("provenance: %w", err)
		}
		p.unsynced = false
	}
	return nil
}

// append writes the changed nodes' lines in one write, opening the log
// first (and rewriting it whole when due); p.mu is held.
func (p *provenance) append() error {
	if p.f == nil && p.rewrite {
		return p.replace()
	}
	if p.f == nil {
		f, err := statedir.OpenFile(p.dir, ProvenanceFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		if p.torn {
			// The next line starts on a line of its own.
			if err := f.Truncate(p.size); err != nil {
				f.Close()
				return err
			}
			p.torn = false
		}
		p.f = f
	}
	var buf bytes.Buffer
	if p.size == 0 {
		// A new log: the header first. It is made durable with the
		// first lines, by the next sync, as they are.
		p.header(&buf)
	}
	for _, node := range slices.Sorted(maps.Keys(p.changed)) {
		n, err := p.line(&buf, node)
		if err != nil {
			return err
		}
		if len(p.nodes[node]) == 0 {
			delete(p.lineSize, node)
		} else {
			p.lineSize[node] = n
		}
	}
	if _, err := p.f.Write(buf.Bytes()); err != nil {
		return err
	}
	if err := p.dropLegacy(); err != nil {
		return err
	}
	p.size += int64(buf.Len())
	p.unsynced = true
	clear(p.changed)
	return nil
}

// line writes node's line to buf and returns its size.
func (p *provenance) line(buf *bytes.Buffer, node string) (int64, error) {
	data, err := json.Marshal(provenanceLine{Node: node, Generated: p.nodes[node]})
	if err != nil {
		return 0, err
	}
	buf.Write(data)
	buf.WriteByte('\n')
	return int64(len(data)) + 1, nil
}

// header writes the log's first line to buf.
func (p *provenance) header(buf *bytes.Buffer) {
	head, _ := json.Marshal(provenanceLine{Format: provenanceFormat})
	buf.Write(head)
	buf.WriteByte('\n')
}

// replace writes the log whole, atomically (the earlier layout's record,
// an unreadable log or one mostly superseded), removes the earlier
// layout's file, and opens the log for appending; p.mu is held.
func (p *provenance) replace() error {
	var buf bytes.Buffer
	p.header(&buf)
	clear(p.lineSize)
	for _, node := range slices.Sorted(maps.Keys(p.nodes)) {
		n, err := p.line(&buf, node)
		if err != nil {
			return err
		}
		p.lineSize[node] = n
	}
	if err := statedir.WriteFile(p.dir, ProvenanceFile, buf.Bytes(), 0o644); err != nil {
		return err
	}
	if err := p.dropLegacy(); err != nil {
		return err
	}
	f, err := statedir.OpenFile(p.dir, ProvenanceFile, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	p.f, p.size, p.rewrite, p.torn = f, int64(buf.Len()), false, false
	clear(p.changed)
	return nil
}

// dropLegacy removes the earlier layout's record once the log stands for
// it (one a run left while migrating, too); p.mu is held.
func (p *provenance) dropLegacy() error {
	if !p.legacy {
		return nil
	}
	if err := statedir.Remove(p.dir, legacyProvenanceFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	p.legacy = false
	return nil
}

// close flushes and syncs what is left and closes the log.
func (p *provenance) close() error {
	err := p.flush(true)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.f != nil {
		if cerr := p.f.Close(); err == nil {
			err = cerr
		}
		p.f = nil
	}
	return err
}

// ownership names the author's values and generation's at one level of a
// node.
func ownership(sess *session.Session, level session.Level) (locked, editable []string) {
	sess.View(func(st session.State) {
		if pv, ok := st.(session.Provenance); ok {
			locked, editable = pv.Ownership(level)
		}
	})
	return locked, editable
}
