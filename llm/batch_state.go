package llm

import (
	"encoding/json"
	"errors"
	"io/fs"
	"slices"

	"github.com/lessongen/lessongen/internal/statedir"
)

// maxStateBytes caps what is read of batches.json: an id and a hash per
// line, some 100 bytes, for the 50,000 lines a batch holds at most.
const maxStateBytes = 64 << 20

// savedBatch is a batch in flight: its id and, per line, the hash of the
// request it holds (never the request, never the key).
type savedBatch struct {
	ID    string            `json:"id"`
	Lines map[string]string `json:"lines"`
}

// checkState reports whether store could write batches.json.
func (b *Batcher) checkState() error {
	if b.cfg.StateDir == "" {
		return nil
	}
	b.stateMu.Lock()
	defer b.stateMu.Unlock()
	return statedir.CheckFile(b.cfg.StateDir, statedir.BatchesFile)
}

func (b *Batcher) load() []savedBatch {
	if b.cfg.StateDir == "" {
		return nil
	}
	data, err := statedir.ReadFileMax(b.cfg.StateDir, statedir.BatchesFile, maxStateBytes)
	var saved []savedBatch
	if err != nil || json.Unmarshal(data, &saved) != nil {
		return nil // none, or unreadable: send anew
	}
	// A planted entry names no batch of ours: it is not polled.
	return slices.DeleteFunc(saved, func(sb savedBatch) bool { return !safeID(sb.ID) })
}

func (b *Batcher) store(saved []savedBatch) error {
	if b.cfg.StateDir == "" {
		return nil
	}
	if len(saved) == 0 {
		err := statedir.Remove(b.cfg.StateDir, statedir.BatchesFile)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	data, err := json.MarshalIndent(saved, "", "  ")
	if err != nil {
		return err
	}
	return statedir.WriteFile(b.cfg.StateDir, statedir.BatchesFile, data, 0o600)
}

// save records batch id before it is polled.
func (b *Batcher) save(id string, lines map[string]*batchCall) error {
	b.stateMu.Lock()
	defer b.stateMu.Unlock()
	sb := savedBatch{ID: id, Lines: make(map[string]string, len(lines))}
	for cid, c := range lines {
		sb.Lines[cid] = c.hash
	}
	return b.store(append(b.load(), sb))
}

// drop forgets batch id once its results are read.
func (b *Batcher) drop(id string) {
	b.stateMu.Lock()
	defer b.stateMu.Unlock()
	saved := b.load()
	for i, sb := range saved {
		if sb.ID == id {
			_ = b.store(append(saved[:i], saved[i+1:]...))
			return
		}
	}
}

// claim matches calls to the lines of saved batches with the same
// request; it returns those per batch id, and the calls no batch holds.
func (b *Batcher) claim(calls []*batchCall) (map[string]map[string]*batchCall, []*batchCall) {
	b.stateMu.Lock()
	defer b.stateMu.Unlock()
	resumed := map[string]map[string]*batchCall{}
	var fresh []*batchCall
	saved := b.load()
	taken := map[string]bool{}
next:
	for _, c := range calls {
		for _, sb := range saved {
			for cid, h := range sb.Lines {
				if h != c.hash || taken[sb.ID+"\x00"+cid] {
					continue
				}
				taken[sb.ID+"\x00"+cid] = true
				if resumed[sb.ID] == nil {
					resumed[sb.ID] = map[string]*batchCall{}
				}
				resumed[sb.ID][cid] = c
				continue next
			}
		}
		fresh = append(fresh, c)
	}
	return resumed, fresh
}
