package orchestrate

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/fakellm"
	"github.com/lessongen/lessongen/internal/history"
)

// A run's saved conversations are as durable as its checkpoints: with a
// checkpoint interval longer than the run, each history is fsync'd once,
// at its end; with none (0), also at every model turn.
func TestHistorySyncedPerCheckpointInterval(t *testing.T) {
	srv := fakellm.Start(t, cleanBoardScript(0))
	syncs := func(interval time.Duration) (made int64, files int) {
		path := checkpointLesson(t, 6, 3)
		doc, err := compose.Load(path, testRegistry())
		if err != nil {
			t.Fatal(err)
		}
		opts := options(t, benchModel(t, srv), 1)
		opts.StateDir = filepath.Join(filepath.Dir(path), ".lessongen")
		opts.CheckpointInterval = interval
		before := history.Syncs()
		if report, err := Run(context.Background(), doc, Scope{}, opts); err != nil || len(report.Incomplete()) > 0 {
			t.Fatalf("run: %v %+v", err, report.Incomplete())
		}
		made = history.Syncs() - before
		_ = filepath.WalkDir(opts.StateDir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".jsonl") {
				files++
			}
			return err
		})
		return made, files
	}
	hour, files := syncs(time.Hour)
	if files == 0 || hour != int64(files) {
		t.Errorf("interval 1h: %d fsyncs for %d histories, want one each, at its end", hour, files)
	}
	if every, files := syncs(0); every <= int64(files) {
		t.Errorf("interval 0: %d fsyncs for %d histories, want every turn's too", every, files)
	}
}
