package orchestrate

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/event"
)

// fakeStore records what Generate asks it to save.
type fakeStore struct {
	mu          sync.Mutex
	checkpoints int
	saves       int
	saveErr     error
	conflicted  bool
}

func (s *fakeStore) Checkpoint(bool) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.checkpoints++
	return nil, nil
}

func (s *fakeStore) Save() ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.saves++
	return []string{"lesson.yaml"}, s.saveErr
}

func (s *fakeStore) Conflicted() bool { return s.conflicted }

func generateOn(t *testing.T, store *fakeStore, opts GenerateOptions) (Result, []event.Event, error) {
	t.Helper()
	doc, err := compose.Load(writeLesson(t, 2, ""), testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var events []event.Event
	opts.Options = options(t, newSolver(), 2)
	opts.Events = func(e event.Event) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, e)
	}
	if store != nil {
		opts.Store = store
	}
	res, err := Generate(context.Background(), doc, Scope{}, opts)
	return res, events, err
}

// A run that fills everything checkpoints through the store, saves once
// at the end, says so in a checkpoint event, ends with run_end "done",
// and is done.
func TestGenerateSavesAndIsDone(t *testing.T) {
	store := &fakeStore{}
	checked := false
	res, events, err := generateOn(t, store, GenerateOptions{Checkpoints: true, Check: func() bool { checked = true; return true }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Done || res.Err() != nil || len(res.Written) != 1 || !checked {
		t.Errorf("result %+v (checked %v), want done with the file written and checked", res, checked)
	}
	if store.checkpoints == 0 || store.saves != 1 {
		t.Errorf("%d checkpoints, %d saves; want some checkpoints, then one save", store.checkpoints, store.saves)
	}
	last := events[len(events)-1]
	before := events[len(events)-2]
	if last.Kind != event.RunEnd || last.Status != "done" || before.Kind != event.Checkpoint || len(before.Files) != 1 {
		t.Errorf("the run ends with %+v after %+v; want the final checkpoint, then run_end done", last, before)
	}
}

// Without Checkpoints the store saves only at the end; a failed save
// makes the run failed with the save's error, and skips the strict check.
func TestGenerateSaveFails(t *testing.T) {
	boom := errors.New("disk full")
	store := &fakeStore{saveErr: boom}
	res, _, err := generateOn(t, store, GenerateOptions{Check: func() bool { t.Error("checked a lesson that was not saved"); return true }})
	if err != nil {
		t.Fatal(err)
	}
	if store.checkpoints != 0 || store.saves != 1 {
		t.Errorf("%d checkpoints, %d saves; want only the final save", store.checkpoints, store.saves)
	}
	if res.Outcome != Failed || !errors.Is(res.Err(), boom) {
		t.Errorf("outcome %s, err %v; want failed with the save's error", res.Outcome, res.Err())
	}
}

// Stopped refusing ends the run with its error and nothing saved.
func TestGenerateStoppedSavesNothing(t *testing.T) {
	miss := errors.New("replay miss")
	store := &fakeStore{}
	_, events, err := generateOn(t, store, GenerateOptions{Stopped: func(Report) error { return miss }})
	if !errors.Is(err, miss) || store.saves != 0 {
		t.Errorf("err %v, %d saves; want the miss and no save", err, store.saves)
	}
	for _, e := range events {
		if e.Kind == event.RunEnd {
			t.Errorf("run_end %+v sent for a run Stopped ended (its caller says why)", e)
		}
	}
}

// A conflict alone makes the run partial with ErrConflict; a strict
// failure makes it partial with ErrPartial.
func TestGenerateConflictAndStrict(t *testing.T) {
	res, _, err := generateOn(t, &fakeStore{conflicted: true}, GenerateOptions{})
	if err != nil || res.Outcome != Partial || !errors.Is(res.Err(), ErrConflict) {
		t.Errorf("conflict: outcome %s, err %v / %v", res.Outcome, res.Err(), err)
	}
	res, _, err = generateOn(t, &fakeStore{conflicted: true}, GenerateOptions{Check: func() bool { return false }})
	if err != nil || res.Outcome != Partial || !errors.Is(res.Err(), ErrPartial) {
		t.Errorf("strict: outcome %s, err %v / %v", res.Outcome, res.Err(), err)
	}
}

// The outcome ranks a failed save over why the run stopped, and that
// over what it left undone.
func TestResultOutcome(t *testing.T) {
	pending := Report{Nodes: []NodeResult{{Node: "lesson", Status: event.StatusPending}}}
	saveErr, runErr := errors.New("save"), errors.New("provider down")
	for _, tc := range []struct {
		name string
		res  Result
		want Outcome
		err  error
	}{
		{"done", Result{}, Done, nil},
		{"save beats interrupt", Result{SaveErr: saveErr, RunErr: ErrInterrupted}, Failed, saveErr},
		{"budget", Result{RunErr: &BudgetSpentError{}, Report: pending}, Partial, ErrPartial},
		{"interrupt", Result{RunErr: context.Canceled, Report: pending}, Interrupted, ErrInterrupted},
		{"failure beats pending", Result{RunErr: runErr, Report: pending}, Failed, runErr},
		{"pending", Result{Report: pending, Conflicted: true}, Partial, ErrPartial},
		{"conflict", Result{Conflicted: true}, Partial, ErrConflict},
	} {
		tc.res.Outcome = tc.res.outcome()
		if tc.res.Outcome != tc.want || !errors.Is(tc.res.Err(), tc.err) || (tc.err == nil) != (tc.res.Err() == nil) {
			t.Errorf("%s: %s, %v; want %s, %v", tc.name, tc.res.Outcome, tc.res.Err(), tc.want, tc.err)
		}
	}
}
