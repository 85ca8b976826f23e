package orchestrate

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/lesson"
)

// A run whose final save never happens (as after a kill -9) leaves the
// lesson file as it was and every finished board in the journal; a fresh
// load of that file with the journal put back is the lesson the run had,
// byte for byte, with nothing left to generate.
func TestJournalPutsBackWhatAKillLost(t *testing.T) {
	for _, interval := range []time.Duration{0, time.Hour} {
		t.Run(interval.String(), func(t *testing.T) {
			path := writeLesson(t, 8, "")
			before, _ := os.ReadFile(path)
			doc, err := compose.Load(path, testRegistry())
			if err != nil {
				t.Fatal(err)
			}
			state := t.TempDir()
			log := newCheckpointLog(doc, path)
			opts := options(t, newSolver(), 4)
			opts.Checkpoint, opts.CheckpointInterval = log.save, interval
			opts.Journal = NewJournal(state, saverLesson{log.saver}, nil)
			if _, err := Run(context.Background(), doc, Scope{}, opts); err != nil {
				t.Fatal(err)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
				t.Fatalf("the lesson file was rewritten during the run:\n%s", after)
			}
			again, err := compose.Load(path, testRegistry())
			if err != nil {
				t.Fatal(err)
			}
			rec, err := RecoverJournal(again, testRegistry(), state, again.Sum())
			if err != nil || rec.Nodes != 8 || rec.Stale != "" {
				t.Fatalf("recovered %+v, %v; want 8 nodes", rec, err)
			}
			if steps, err := Plan(again, testRegistry(), Scope{}); err != nil || len(steps) != 0 {
				t.Errorf("after recovery %d steps are left (%v)", len(steps), err)
			}
			want, _ := doc.LessonBytes()
			got, _ := again.LessonBytes()
			if !bytes.Equal(got, want) {
				t.Errorf("recovered lesson:\n%s\nwant the run's:\n%s", got, want)
			}
		})
	}
}

// A journal is put back only onto the file it was based on: the same
// journal read with another lesson hash is set aside, nothing applied.
func TestJournalSetAsideWhenTheLessonChanged(t *testing.T) {
	path := writeLesson(t, 2, "")
	doc, err := compose.Load(path, testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	log := newCheckpointLog(doc, path)
	opts := options(t, newSolver(), 1)
	opts.Checkpoint, opts.CheckpointInterval = log.save, 0
	opts.Journal = NewJournal(state, saverLesson{log.saver}, nil)
	if _, err := Run(context.Background(), doc, Scope{}, opts); err != nil {
		t.Fatal(err)
	}
	again, err := compose.Load(path, testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	pending, _ := Plan(again, testRegistry(), Scope{})
	rec, err := RecoverJournal(again, testRegistry(), state, "sha256:edited")
	if err != nil || rec.Nodes != 0 || rec.Stale != filepath.Join(state, JournalFile+".stale") {
		t.Fatalf("recovered %+v, %v; want none, set aside", rec, err)
	}
	if steps, _ := Plan(again, testRegistry(), Scope{}); len(pending) == 0 || len(steps) != len(pending) {
		t.Errorf("%d steps left, want the %d before", len(steps), len(pending))
	}
}

// fakeLesson is a LessonFile whose answers a test sets.
type fakeLesson struct {
	sum    string
	edited bool
}

func (l *fakeLesson) Sum() string  { return l.sum }
func (l *fakeLesson) Edited() bool { return l.edited }

// A checkpoint appends to the journal while the lesson's own fields are
// as last written and nobody edited the file; otherwise it rewrites the
// lesson (merging the edit) and starts the journal afresh, and once the
// file holds an edit the run's document lacks, it keeps rewriting.
func TestJournalRewritesWhenItCannotStandForTheLesson(t *testing.T) {
	doc := loadSrc(t, "version: 1\nmetadata:\n  title: T\n  subject: !pending \"s\"\nslides:\n  - id: a\n    title: A\n    whiteboard: !pending \"board\"\n")
	sess, err := doc.Child("a", "whiteboard")
	if err != nil {
		t.Fatal(err)
	}
	d, _ := testRegistry().Child("whiteboard")
	state := t.TempDir()
	lf := &fakeLesson{sum: "sha256:one"}
	rewrites := 0
	r := &runner{tree: doc, opts: Options{Journal: NewJournal(state, lf, nil), Checkpoint: func(bool) ([]string, error) {
		rewrites++
		return nil, nil
	}}}
	journaled := func() bool {
		_, err := os.Stat(filepath.Join(state, JournalFile))
		return err == nil
	}
	save := func(want int, wantJournal bool) {
		t.Helper()
		r.opts.Journal.add("a", d, sess)
		if _, err := r.saveLesson(); err != nil {
			t.Fatal(err)
		}
		if rewrites != want || journaled() != wantJournal {
			t.Fatalf("rewrites %d, journal %v; want %d, %v", rewrites, journaled(), want, wantJournal)
		}
	}
	save(0, true) // appended
	lf.edited = true
	save(1, false) // the author's edit is merged now
	lf.edited = false
	save(1, true)
	if _, err := doc.Session().Dispatch(context.Background(), lesson.SetSubject{Subject: "Biology"}); err != nil {
		t.Fatal(err)
	}
	save(2, false) // the lesson's own fields changed
	lf.sum = ""    // the rewrite merged an edit in
	lf.edited = true
	save(3, false)
	lf.edited = false
	save(4, false) // no journal stands for that file any more
}
