package cmd

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/lessongen/lessongen/internal/atomicfile"
	"github.com/lessongen/lessongen/internal/fakellm"
)

// TestStateSyncedOncePerInterval (issue #39): a run with a state folder
// makes each file durable at most once per checkpoint interval, plus the
// end, however many nodes finish: a run shorter than its interval
// fsyncs every file it writes (lesson, journal, conversations, record of
// what was generated) once. The conversations were synced at every
// node's end (35 fsyncs for 40 requests) and the record at every
// checkpoint.
func TestStateSyncedOncePerInterval(t *testing.T) {
	srv := fakellm.Start(t, costScript(0))
	floorEnv(t, srv)
	path := costLesson(t, 20, 20)
	r := runFloor(t, srv, path, time.Hour)
	if r.requests != 40 {
		t.Fatalf("%d requests, want 40", r.requests)
	}
	for file, n := range r.fileSyncs {
		if n > 1 {
			rel, _ := filepath.Rel(filepath.Dir(path), file)
			t.Errorf("%s was fsync'd %d times in a run shorter than its interval; want once", rel, n)
		}
	}
	if len(r.fileSyncs) == 0 {
		t.Errorf("no fsync at all: %v", atomicfile.Syncs())
	}
}
