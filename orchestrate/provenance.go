package orchestrate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"sync"

	"github.com/lessongen/lessongen/internal/statedir"
	"github.com/lessongen/lessongen/session"
)

// ProvenanceFile is the record, in the state dir, of what runs generated:
// by node, each value's key and the hash of what was written (see
// session.Provenance). It lives beside the saved conversations, not in the
// lesson, so the author's file holds only the lesson, and it outlives a
// conversation that is started afresh. Format in docs/history.md.
const ProvenanceFile = "provenance.json"

// provenanceFormat is the file's "format"; a file with another is ignored
// (everything then reads as the author's, which is safe).
const provenanceFormat = 1

type provenanceDoc struct {
	Format int                          `json:"format"`
	Nodes  map[string]map[string]string `json:"nodes"`
}

// provenance is one run's view of the record: read once, each node's
// entry replaced when a step on it ends, written back whole (flush).
type provenance struct {
	path  string // "": nothing is read or written
	write bool

	mu      sync.Mutex
	nodes   map[string]map[string]string
	adopted map[*session.Session]bool
	dirty   bool // nodes changed since the file was written
}

// loadProvenance reads the record in dir; a missing file is an empty one.
func loadProvenance(dir string, write bool) (*provenance, error) {
	p := &provenance{nodes: map[string]map[string]string{}, adopted: map[*session.Session]bool{}}
	if dir == "" {
		return p, nil
	}
	p.path, p.write = filepath.Join(dir, ProvenanceFile), write
	// Through statedir, as every state file: a planted link or pipe is
	// refused, not followed (or waited on).
	data, err := statedir.ReadFile(dir, ProvenanceFile)
	if errors.Is(err, fs.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return nil, fmt.Errorf("provenance: %w", err)
	}
	var doc provenanceDoc
	if json.Unmarshal(data, &doc) != nil || doc.Format != provenanceFormat {
		// Unreadable: nothing is known to be generated, so everything is
		// protected as the author's; the next write replaces the file.
		return p, nil
	}
	for node, m := range doc.Nodes {
		if m != nil {
			p.nodes[node] = m
		}
	}
	return p, nil
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
	p.dirty = true
}

// flush writes the record if a node's entry changed since it was last
// written.
func (p *provenance) flush() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.dirty || p.path == "" || !p.write {
		return nil
	}
	data, err := json.MarshalIndent(provenanceDoc{Format: provenanceFormat, Nodes: p.nodes}, "", "  ")
	if err != nil {
		return fmt.Errorf("provenance: %w", err)
	}
	if err := statedir.WriteFile(filepath.Dir(p.path), ProvenanceFile, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("provenance: %w", err)
	}
	p.dirty = false
	return nil
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
