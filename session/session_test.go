package session_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lessongen/lessongen/session"
)

// list is a tiny modality: an ordered list of strings.
type list struct {
	items []string
	// recompiles counts Recompile calls, so tests can see that it ran.
	recompiles int
}

// Add appends S; an empty S is rejected.
type Add struct{ S string }

// Fail is always rejected, after reporting something.
type Fail struct{}

// Read reports the items and changes nothing. With Hold set it signals
// Entered once inside Reduce and waits for Hold to close, keeping the
// session's read lock held meanwhile.
type Read struct{ Entered, Hold chan struct{} }

func (Add) Spec() session.Spec  { return session.Spec{Capability: "list.write"} }
func (Fail) Spec() session.Spec { return session.Spec{Capability: "list.write"} }
func (Read) Spec() session.Spec { return session.Spec{Capability: "list.read", ReadOnly: true} }

func (l *list) Reduce(rc *session.Context, in session.Intent) (func(), error) {
	switch in := in.(type) {
	case Add:
		if in.S == "" {
			return nil, session.Reject(session.KindInvalidArgs, "s", "give a non-empty string", "s is empty")
		}
		l.items = append(l.items, in.S)
		rc.Report("added " + in.S)
		return func() { l.items = l.items[:len(l.items)-1] }, nil
	case Fail:
		rc.Report("tried")
		return nil, session.Reject(session.KindPrecondition, "list", "never works", "fail always fails")
	case Read:
		if in.Hold != nil {
			close(in.Entered)
			<-in.Hold
		}
		rc.Report(strings.Join(l.items, ","))
		return nil, nil
	}
	return nil, fmt.Errorf("unknown intent %T", in)
}

func (l *list) Recompile(rc *session.Context, in session.Intent) {
	l.recompiles++
	if len(l.items) > 2 {
		rc.Warn(session.Warning{Path: "items", Message: fmt.Sprintf("%d items is a lot", len(l.items))})
	}
	rc.Elsewhere(len(l.items)) // as if every item had a defect of its own
}

func (l *list) String() string             { return strings.Join(l.items, ",") }
func (l *list) Describe() string           { return "a list: " + l.String() }
func (l *list) Pending() []session.Pending { return nil }

// recorder collects events.
type recorder struct {
	mu     sync.Mutex
	events []session.Event
}

func (r *recorder) listen(ev session.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
}

func (r *recorder) all() []session.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

func newList(t *testing.T, items ...string) (*session.Session, *list, *recorder) {
	t.Helper()
	l := &list{items: items}
	s := session.New("list", l)
	rec := &recorder{}
	t.Cleanup(s.Subscribe(rec.listen))
	return s, l, rec
}

func mustDispatch(t *testing.T, s *session.Session, in session.Intent) session.Result {
	t.Helper()
	res, err := s.Dispatch(context.Background(), in)
	if err != nil {
		t.Fatalf("dispatch %T: %v", in, err)
	}
	return res
}

func TestDispatchCommitsAndEmitsInOrder(t *testing.T) {
	s, l, rec := newList(t)
	for i, v := range []string{"a", "b", "c"} {
		res := mustDispatch(t, s, Add{v})
		if want := uint64(i + 1); res.Version != want || s.Version() != want {
			t.Errorf("after %d adds: result version %d, session version %d, want %d", i+1, res.Version, s.Version(), want)
		}
	}
	if got := l.String(); got != "a,b,c" {
		t.Errorf("state = %q, want a,b,c", got)
	}
	if l.recompiles != 3 {
		t.Errorf("recompile ran %d times for 3 commits", l.recompiles)
	}
	evs := rec.all()
	if len(evs) != 3 {
		t.Fatalf("got %d events, want 3", len(evs))
	}
	for i, ev := range evs {
		want := session.Event{Session: "list", Version: uint64(i + 1), Intent: Add{[]string{"a", "b", "c"}[i]}}
		if ev != want {
			t.Errorf("event %d = %+v, want %+v", i, ev, want)
		}
	}
}

func TestDispatchReturnsOutputsAndWarnings(t *testing.T) {
	s, _, _ := newList(t, "x", "y")
	res := mustDispatch(t, s, Add{"z"})
	if !slices.Equal(res.Outputs, []any{"added z"}) {
		t.Errorf("outputs = %v, want the reduce's report", res.Outputs)
	}
	want := []session.Warning{{Path: "items", Message: "3 items is a lot"}}
	if !slices.Equal(res.Warnings, want) {
		t.Errorf("warnings = %v, want the recompile's %v", res.Warnings, want)
	}
	if res.WarningsElsewhere != 3 {
		t.Errorf("warnings elsewhere = %d, want the recompile's count", res.WarningsElsewhere)
	}
	// Results are per dispatch: the next one does not repeat old outputs.
	res = mustDispatch(t, s, Read{})
	if !slices.Equal(res.Outputs, []any{"x,y,z"}) {
		t.Errorf("read outputs = %v", res.Outputs)
	}
}

func TestRejectedIntentChangesNothing(t *testing.T) {
	s, l, rec := newList(t, "a")
	mustDispatch(t, s, Add{"b"})
	before := l.String()
	for _, in := range []session.Intent{Add{""}, Fail{}} {
		res, err := s.Dispatch(context.Background(), in)
		e, ok := session.AsError(err)
		if !ok {
			t.Fatalf("%T: error %v is not a *session.Error", in, err)
		}
		var e2 *session.Error
		if !errors.As(err, &e2) || e2 != e {
			t.Errorf("%T: errors.As and AsError disagree", in)
		}
		if e.Kind == "" || e.Message == "" || e.Hint == "" {
			t.Errorf("%T: rejection lacks kind, message or hint: %+v", in, e)
		}
		if res.Version != 0 {
			t.Errorf("%T: rejected result carries version %d", in, res.Version)
		}
		if l.String() != before || s.Version() != 1 {
			t.Errorf("%T: state %q version %d, want %q version 1", in, l.String(), s.Version(), before)
		}
	}
	if n := len(rec.all()); n != 1 {
		t.Errorf("%d events, want only the one commit", n)
	}
	// A rejection's report still reaches the caller, so a model learns what happened.
	res, _ := s.Dispatch(context.Background(), Fail{})
	if !slices.Equal(res.Outputs, []any{"tried"}) {
		t.Errorf("rejected outputs = %v", res.Outputs)
	}
	// And nothing was put on the history: one undo empties it.
	mustDispatch(t, s, session.Undo{})
	if _, err := s.Dispatch(context.Background(), session.Undo{}); !errors.Is(err, session.ErrNoHistory) {
		t.Errorf("second undo: %v, want ErrNoHistory", err)
	}
}

func TestErrorString(t *testing.T) {
	tests := []struct {
		err  *session.Error
		want string
	}{
		{session.Reject(session.KindInvalidArgs, "x", "x must be between 0 and 1280", "x = %d is off the canvas", 2000),
			"invalid_args at x: x = 2000 is off the canvas (x must be between 0 and 1280)"},
		{session.Reject(session.KindNotFound, "", "", "no element %q", "e9"), `not_found: no element "e9"`},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
	wrapped := fmt.Errorf("tool call: %w", tests[0].err)
	if e, ok := session.AsError(wrapped); !ok || e != tests[0].err {
		t.Errorf("AsError does not see through wrapping")
	}
	if _, ok := session.AsError(errors.New("plain")); ok {
		t.Errorf("AsError accepted a plain error")
	}
}

func TestCancelledContextDispatchesNothing(t *testing.T) {
	s, l, rec := newList(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Dispatch(ctx, Add{"a"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(l.items) != 0 || s.Version() != 0 || len(rec.all()) != 0 {
		t.Errorf("a cancelled dispatch changed something")
	}
}

func TestReadOnlyIntentsDoNotCommit(t *testing.T) {
	s, l, rec := newList(t, "a")
	res := mustDispatch(t, s, Read{})
	if res.Version != 0 || s.Version() != 0 || len(rec.all()) != 0 {
		t.Errorf("read-only dispatch committed: version %d/%d, %d events", res.Version, s.Version(), len(rec.all()))
	}
	if l.recompiles != 0 {
		t.Errorf("read-only dispatch recompiled")
	}
	if _, err := s.Dispatch(context.Background(), session.Undo{}); !errors.Is(err, session.ErrNoHistory) {
		t.Errorf("read-only dispatch left history: undo gave %v", err)
	}
}

// While one read-only dispatch is inside Reduce, another one completes: they
// do not serialise. (If they did, this test would hang until the test
// binary's timeout.)
func TestReadOnlyIntentsRunConcurrently(t *testing.T) {
	s, _, _ := newList(t, "a")
	held := Read{Entered: make(chan struct{}), Hold: make(chan struct{})}
	done := make(chan error)
	go func() {
		_, err := s.Dispatch(context.Background(), held)
		done <- err
	}()
	<-held.Entered
	res := mustDispatch(t, s, Read{})
	if !slices.Equal(res.Outputs, []any{"a"}) {
		t.Errorf("second reader saw %v", res.Outputs)
	}
	close(held.Hold)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestConcurrentDispatchUnderRace(t *testing.T) {
	s, l, rec := newList(t)
	const writers, readers, each = 8, 8, 25
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				mustDispatch(t, s, Add{fmt.Sprintf("w%d-%d", w, i)})
			}
		})
	}
	for range readers {
		wg.Go(func() {
			for range each {
				if _, err := s.Dispatch(context.Background(), Read{}); err != nil {
					t.Error(err)
				}
				s.View(func(st session.State) { _ = len(st.(*list).items) })
			}
		})
	}
	wg.Wait()
	if got, want := len(l.items), writers*each; got != want || s.Version() != uint64(want) {
		t.Fatalf("%d items at version %d, want %d", got, s.Version(), want)
	}
	// Events arrive in commit order even when commits race.
	for i, ev := range rec.all() {
		if ev.Version != uint64(i+1) {
			t.Fatalf("event %d has version %d: listeners saw commits out of order", i, ev.Version)
		}
	}
}

func TestUndoRedoRestoreExactState(t *testing.T) {
	s, l, rec := newList(t, "seed")
	mustDispatch(t, s, Add{"a"})
	mustDispatch(t, s, Add{"b"})

	res := mustDispatch(t, s, session.Undo{})
	if l.String() != "seed,a" || res.Version != 3 || s.Version() != 3 {
		t.Errorf("after undo: %q at version %d, want seed,a at 3", l.String(), s.Version())
	}
	mustDispatch(t, s, session.Undo{})
	if l.String() != "seed" {
		t.Errorf("after two undos: %q, want seed", l.String())
	}
	mustDispatch(t, s, session.Redo{})
	if l.String() != "seed,a" {
		t.Errorf("after redo: %q, want seed,a", l.String())
	}
	res = mustDispatch(t, s, session.Redo{})
	if l.String() != "seed,a,b" || res.Version != 6 {
		t.Errorf("after two redos: %q at version %d, want seed,a,b at 6", l.String(), res.Version)
	}
	// A redo reports like the original dispatch did.
	if !slices.Equal(res.Outputs, []any{"added b"}) {
		t.Errorf("redo outputs = %v", res.Outputs)
	}

	want := []session.Event{
		{Session: "list", Version: 1, Intent: Add{"a"}},
		{Session: "list", Version: 2, Intent: Add{"b"}},
		{Session: "list", Version: 3, Intent: Add{"b"}, Undone: true},
		{Session: "list", Version: 4, Intent: Add{"a"}, Undone: true},
		{Session: "list", Version: 5, Intent: Add{"a"}},
		{Session: "list", Version: 6, Intent: Add{"b"}},
	}
	if got := rec.all(); !slices.Equal(got, want) {
		t.Errorf("events:\n got %+v\nwant %+v", got, want)
	}
	if l.recompiles != 6 {
		t.Errorf("recompile ran %d times for 6 commits (undo and redo must recompile too)", l.recompiles)
	}
}

func TestUndoRedoWithoutHistory(t *testing.T) {
	s, _, rec := newList(t)
	for _, in := range []session.Intent{session.Undo{}, session.Redo{}} {
		if _, err := s.Dispatch(context.Background(), in); !errors.Is(err, session.ErrNoHistory) {
			t.Errorf("%T on a fresh session: %v, want ErrNoHistory", in, err)
		}
	}
	mustDispatch(t, s, Add{"a"})
	if _, err := s.Dispatch(context.Background(), session.Redo{}); !errors.Is(err, session.ErrNoHistory) {
		t.Errorf("redo with nothing undone: %v, want ErrNoHistory", err)
	}
	if s.Version() != 1 || len(rec.all()) != 1 {
		t.Errorf("a refused undo or redo committed something")
	}
}

func TestNewDispatchClearsRedo(t *testing.T) {
	s, l, _ := newList(t)
	mustDispatch(t, s, Add{"a"})
	mustDispatch(t, s, Add{"b"})
	mustDispatch(t, s, session.Undo{})
	mustDispatch(t, s, Add{"c"})
	if _, err := s.Dispatch(context.Background(), session.Redo{}); !errors.Is(err, session.ErrNoHistory) {
		t.Errorf("redo after a new dispatch: %v, want ErrNoHistory", err)
	}
	if l.String() != "a,c" {
		t.Errorf("state = %q, want a,c", l.String())
	}
	// A rejected dispatch is not a change: it keeps the redo stack.
	mustDispatch(t, s, session.Undo{})
	if _, err := s.Dispatch(context.Background(), Fail{}); err == nil {
		t.Fatal("Fail succeeded")
	}
	mustDispatch(t, s, session.Redo{})
	if l.String() != "a,c" {
		t.Errorf("state = %q, want a,c", l.String())
	}
}

func TestUndoHistoryIsBounded(t *testing.T) {
	s, l, _ := newList(t)
	const n = 1005
	for i := range n {
		mustDispatch(t, s, Add{fmt.Sprint(i)})
	}
	undone := 0
	for {
		if _, err := s.Dispatch(context.Background(), session.Undo{}); err != nil {
			if !errors.Is(err, session.ErrNoHistory) {
				t.Fatal(err)
			}
			break
		}
		undone++
	}
	// The oldest commits fell off the history; the newest are all undone.
	if undone >= n || undone < 100 {
		t.Errorf("undid %d of %d commits; history should be bounded but deep", undone, n)
	}
	if len(l.items) != n-undone {
		t.Errorf("%d items left after %d undos of %d adds", len(l.items), undone, n)
	}
	if len(l.items) > 0 && l.items[len(l.items)-1] != fmt.Sprint(n-undone-1) {
		t.Errorf("undo did not take the newest commits off first: last item %q", l.items[len(l.items)-1])
	}
}

func TestPreviewLeavesStateAndVersion(t *testing.T) {
	s, l, rec := newList(t, "x", "y")
	mustDispatch(t, s, Add{"z"})
	var seen string
	res, err := s.Preview(Add{"w"}, func(st session.State) { seen = st.(*list).String() })
	if err != nil {
		t.Fatal(err)
	}
	if seen != "x,y,z,w" {
		t.Errorf("look saw %q, want the state as the change leaves it", seen)
	}
	if !slices.Equal(res.Outputs, []any{"added w"}) {
		t.Errorf("preview outputs = %v", res.Outputs)
	}
	if len(res.Warnings) != 1 || res.Warnings[0].Message != "4 items is a lot" {
		t.Errorf("preview warnings = %v, want the would-be state's warning", res.Warnings)
	}
	if res.WarningsElsewhere != 4 {
		t.Errorf("preview warnings elsewhere = %d, want the would-be state's 4", res.WarningsElsewhere)
	}
	if res.Version != 1 || s.Version() != 1 || l.String() != "x,y,z" {
		t.Errorf("preview changed the session: %q at version %d", l.String(), s.Version())
	}
	if len(rec.all()) != 1 {
		t.Errorf("preview emitted an event")
	}
	// Preview adds no history: undo takes back the real commit, not the preview.
	mustDispatch(t, s, session.Undo{})
	if l.String() != "x,y" {
		t.Errorf("after undo: %q, want x,y", l.String())
	}

	if _, err := s.Preview(Add{""}, nil); err == nil {
		t.Errorf("preview of a bad intent succeeded")
	} else if e, ok := session.AsError(err); !ok || e.Kind != session.KindInvalidArgs {
		t.Errorf("preview rejection = %v", err)
	}
	res, err = s.Preview(Read{}, nil)
	if err != nil || !slices.Equal(res.Outputs, []any{"x,y"}) {
		t.Errorf("preview of a read = %v, %v", res.Outputs, err)
	}
}

func TestSubscribeCancelStopsEvents(t *testing.T) {
	s := session.New("list", &list{})
	var first, second recorder
	cancel := s.Subscribe(first.listen)
	s.Subscribe(second.listen)
	mustDispatch(t, s, Add{"a"})
	cancel()
	mustDispatch(t, s, Add{"b"})
	if len(first.all()) != 1 || len(second.all()) != 2 {
		t.Errorf("events after cancel: first %d (want 1), second %d (want 2)", len(first.all()), len(second.all()))
	}
}

// A listener may read the session: the state lock is released before
// listeners run.
func TestListenerCanReadSession(t *testing.T) {
	s := session.New("list", &list{})
	var seen []string
	s.Subscribe(func(ev session.Event) {
		s.View(func(st session.State) { seen = append(seen, st.(*list).String()) })
		if s.Version() != ev.Version {
			t.Errorf("listener sees version %d for event %d", s.Version(), ev.Version)
		}
	})
	mustDispatch(t, s, Add{"a"})
	mustDispatch(t, s, session.Undo{})
	if !slices.Equal(seen, []string{"a", ""}) {
		t.Errorf("listener saw %q", seen)
	}
}

func TestHiddenHistoryIntents(t *testing.T) {
	for _, in := range []session.Intent{session.Undo{}, session.Redo{}} {
		sp := in.Spec()
		if !sp.Hidden || sp.ReadOnly || sp.Capability != session.CapHistory || sp.Doc == "" {
			t.Errorf("%T spec = %+v: want hidden, mutating, history capability, documented", in, sp)
		}
	}
}

type warner struct{ n int }

func (w *warner) Reduce(rc *session.Context, _ session.Intent) (func(), error) {
	for i := range w.n {
		rc.Warn(session.Warning{Path: "x", Message: fmt.Sprint(i)})
	}
	return nil, nil
}
func (w *warner) Recompile(*session.Context, session.Intent) {}
func (w *warner) Describe() string                           { return "a warner" }
func (w *warner) Pending() []session.Pending                 { return nil }

// A result lists at most MaxWarnings warnings and counts the rest.
func TestWarningsPerResultAreBounded(t *testing.T) {
	s := session.New("w", &warner{n: session.MaxWarnings + 7})
	res := mustDispatch(t, s, Read{})
	if len(res.Warnings) != session.MaxWarnings || res.WarningsElsewhere != 7 || res.Warnings[0].Message != "0" {
		t.Errorf("%d listed, %d elsewhere", len(res.Warnings), res.WarningsElsewhere)
	}
}
