package orchestrate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lessongen/lessongen/compose"
)

// checkpointLog records the checkpoints of a run and saves through a
// compose.Saver as lessongen does, counting the writes of each file by its
// changed inode or modification time.
type checkpointLog struct {
	mu     sync.Mutex
	saver  *compose.Saver
	calls  []bool // lesson or not, in order
	writes map[string]int
	stats  map[string]os.FileInfo
}

func newCheckpointLog(doc *compose.Document, files ...string) *checkpointLog {
	l := &checkpointLog{saver: compose.NewSaver(doc), writes: map[string]int{}, stats: map[string]os.FileInfo{}}
	for _, f := range files {
		l.stats[f], _ = os.Stat(f)
	}
	return l
}

func (l *checkpointLog) save(lesson bool) ([]string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, lesson)
	write := l.saver.SaveChildren
	if lesson {
		write = l.saver.Save
	}
	_, err := write("")
	for f, before := range l.stats {
		if fi, serr := os.Stat(f); serr == nil && (before == nil || !os.SameFile(fi, before) || !fi.ModTime().Equal(before.ModTime())) {
			l.writes[f]++
			l.stats[f] = fi
		}
	}
	return nil, err
}

// With an interval longer than the run, the lesson file is written once,
// at the end, however many nodes finish; whiteboards kept in their own
// files are written as their nodes finish, before that.
func TestCheckpointIntervalBoundsLessonWrites(t *testing.T) {
	const n = 12
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("version: 1\nmetadata:\n  title: Test\nslides:\n")
	var boards []string
	for i := range n {
		if i%3 == 0 {
			name := fmt.Sprintf("b%d.yaml", i)
			if err := os.WriteFile(filepath.Join(dir, name), []byte("!pending \"board\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			boards = append(boards, filepath.Join(dir, name))
			fmt.Fprintf(&b, "  - id: s%d\n    title: Slide %d\n    whiteboard: {file: %s}\n", i, i, name)
			continue
		}
		fmt.Fprintf(&b, "  - id: s%d\n    title: Slide %d\n    whiteboard: !pending \"board %d\"\n", i, i, i)
	}
	path := filepath.Join(dir, "lesson.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := compose.Load(path, testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	log := newCheckpointLog(doc, append(boards, path)...)
	opts := options(t, newSolver(), 4)
	opts.Checkpoint, opts.CheckpointInterval = log.save, time.Hour
	if _, err := Run(context.Background(), doc, Scope{}, opts); err != nil {
		t.Fatal(err)
	}
	if got := log.writes[path]; got != 1 {
		t.Errorf("the lesson file was written %d times, want once", got)
	}
	if len(log.calls) < 2 || !log.calls[len(log.calls)-1] {
		t.Errorf("checkpoints %v: want node saves and a last one of everything", log.calls)
	}
	for _, lesson := range log.calls[:len(log.calls)-1] {
		if lesson {
			t.Errorf("checkpoints %v: the lesson was saved before the interval passed", log.calls)
			break
		}
	}
	// A checkpoint after one node also saves what another has done so
	// far, so a board may be written more than once, but not after the
	// last node save.
	for _, f := range boards {
		if log.writes[f] < 1 || log.writes[f] > len(log.calls)-1 {
			t.Errorf("%s written %d times in %d node saves", filepath.Base(f), log.writes[f], len(log.calls)-1)
		}
	}
	// What is on disk is the finished lesson.
	again, err := compose.Load(path, testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	if steps, err := Plan(again, testRegistry(), Scope{}); err != nil || len(steps) != 0 {
		t.Errorf("after the run the files still have %d steps (%v)", len(steps), err)
	}
}

// A short interval saves the lesson while the run goes on; whatever the
// timing, the last save holds everything.
func TestCheckpointShortIntervalSavesAll(t *testing.T) {
	doc, err := compose.Load(writeLesson(t, 16, ""), testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	log := newCheckpointLog(doc, doc.Path)
	opts := options(t, newSolver(), 4)
	opts.Checkpoint, opts.CheckpointInterval = log.save, time.Millisecond
	if _, err := Run(context.Background(), doc, Scope{}, opts); err != nil {
		t.Fatal(err)
	}
	again, err := compose.Load(doc.Path, testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	if steps, err := Plan(again, testRegistry(), Scope{}); err != nil || len(steps) != 0 {
		t.Errorf("after the run the file still has %d steps (%v)", len(steps), err)
	}
}
