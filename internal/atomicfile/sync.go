package atomicfile

import (
	"maps"
	"os"
	"sync"
)

// synced counts, by the file made durable, the fsyncs of this process
// made through Sync.
var synced struct {
	sync.Mutex
	n map[string]int64
}

// Sync makes what was written to f durable (fsync); path is the file it
// stands for (the target of a temporary file). Every fsync lessongen
// makes goes through it — the files it replaces, and the logs and journal
// it appends to — so a benchmark or a test can count them per run and
// per file (Syncs): each costs a disk flush, and a run owes at most one
// per file per checkpoint interval, and one at its end.
func Sync(f *os.File, path string) error {
	synced.Lock()
	if synced.n == nil {
		synced.n = map[string]int64{}
	}
	synced.n[path]++
	synced.Unlock()
	return f.Sync()
}

// Syncs is how many fsyncs Sync made in this process, by file.
func Syncs() map[string]int64 {
	synced.Lock()
	defer synced.Unlock()
	return maps.Clone(synced.n)
}
