package orchestrate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/fakellm"
	"github.com/lessongen/lessongen/internal/history"
	"github.com/lessongen/lessongen/internal/statedir"
)

// A run's saved conversations are as durable as its checkpoints: with a
// checkpoint interval longer than the run, the log is fsync'd once, at
// the run's end, however many conversations it holds; with none (0),
// also at every model turn.
func TestHistorySyncedPerCheckpointInterval(t *testing.T) {
	srv := fakellm.Start(t, cleanBoardScript(0))
	syncs := func(interval time.Duration) (made int64, conversations int) {
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
		data, err := os.ReadFile(filepath.Join(opts.StateDir, statedir.HistoryLog))
		if err != nil {
			t.Fatal(err)
		}
		return made, strings.Count(string(data), `{"format":`)
	}
	hour, convs := syncs(time.Hour)
	if convs < 3 || hour != 1 {
		t.Errorf("interval 1h: %d fsyncs for %d conversations, want one, at the end", hour, convs)
	}
	if every, convs := syncs(0); every <= int64(convs) {
		t.Errorf("interval 0: %d fsyncs for %d conversations, want every turn's too", every, convs)
	}
}

// A checkpoint makes the conversations durable before it saves the
// lesson: with a checkpoint interval longer than the run, no model turn
// is fsync'd, yet the run's last checkpoint, after every node wrote its
// conversation, finds the log synced (a saved lesson never holds a node
// whose conversation a crash lost), before the log is closed.
func TestCheckpointSyncsHistoryFirst(t *testing.T) {
	srv := fakellm.Start(t, cleanBoardScript(0))
	path := checkpointLesson(t, 6, 3)
	doc, err := compose.Load(path, testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	opts := options(t, benchModel(t, srv), 1)
	opts.StateDir = filepath.Join(filepath.Dir(path), ".lessongen")
	opts.CheckpointInterval = time.Hour
	logFile := filepath.Join(opts.StateDir, statedir.HistoryLog)
	before := history.Syncs()
	var synced, size int64 // at the last checkpoint
	opts.Checkpoint = func(bool) ([]string, error) {
		synced = history.Syncs() - before
		if fi, err := os.Stat(logFile); err == nil {
			size = fi.Size()
		}
		return nil, nil
	}
	if report, err := Run(context.Background(), doc, Scope{}, opts); err != nil || len(report.Incomplete()) > 0 {
		t.Fatalf("run: %v %+v", err, report.Incomplete())
	}
	fi, err := os.Stat(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if size != fi.Size() {
		t.Fatalf("the last checkpoint saw a log of %d bytes, %d at the end: it was not the last", size, fi.Size())
	}
	if synced == 0 {
		t.Errorf("the last checkpoint saved the lesson with the log not yet synced")
	}
}
