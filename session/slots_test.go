package session_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lessongen/lessongen/session"
)

// shelf is a parent modality: it places one list child per name. Place and
// Remove change the placements; Hold blocks inside Reduce (under the
// parent's write lock) until its channel closes.
type shelf struct {
	names []string
	loads map[string]*atomic.Int32
	// failLoads makes the next loads of a child fail.
	failLoads map[string]int
	mu        sync.Mutex // guards failLoads, which Load reads outside the session
}

type (
	Place  struct{ Name string }
	Remove struct{ Name string }
	Hold   struct{ Entered, Release chan struct{} }
)

func (Place) Spec() session.Spec  { return session.Spec{Capability: "shelf"} }
func (Remove) Spec() session.Spec { return session.Spec{Capability: "shelf"} }
func (Hold) Spec() session.Spec   { return session.Spec{Capability: "shelf"} }

func (sh *shelf) Reduce(rc *session.Context, in session.Intent) (func(), error) {
	switch in := in.(type) {
	case Place:
		sh.names = append(sh.names, in.Name)
		return func() { sh.names = sh.names[:len(sh.names)-1] }, nil
	case Remove:
		i := slices.Index(sh.names, in.Name)
		if i < 0 {
			return nil, session.Reject(session.KindNotFound, "name", "", "no child %q", in.Name)
		}
		sh.names = slices.Delete(sh.names, i, i+1)
		return func() { sh.names = slices.Insert(sh.names, i, in.Name) }, nil
	case Hold:
		close(in.Entered)
		<-in.Release
		return func() {}, nil
	}
	return nil, session.Reject(session.KindInvalidArgs, "", "", "unknown intent %T", in)
}

func (sh *shelf) Recompile(*session.Context, session.Intent) {}
func (sh *shelf) Describe() string                           { return "a shelf" }
func (sh *shelf) Pending() []session.Pending                 { return nil }

func (sh *shelf) Placements() []session.Placement {
	ps := make([]session.Placement, len(sh.names))
	for i, name := range sh.names {
		ps[i] = session.Placement{ID: name, Kind: "list", Load: func() (*session.Session, error) {
			sh.loads[name].Add(1)
			sh.mu.Lock()
			defer sh.mu.Unlock()
			if sh.failLoads[name] > 0 {
				sh.failLoads[name]--
				return nil, errors.New("disk on fire")
			}
			return session.New("shelf/"+name, &list{}), nil
		}}
	}
	return ps
}

func newShelf(t *testing.T, names ...string) (*session.Session, *shelf) {
	t.Helper()
	sh := &shelf{names: names, loads: map[string]*atomic.Int32{}, failLoads: map[string]int{}}
	for _, n := range []string{"a", "b", "c", "d"} {
		sh.loads[n] = &atomic.Int32{}
	}
	return session.New("shelf", sh), sh
}

func TestReconcileCreatesSlotsForNewPlacements(t *testing.T) {
	s, _ := newShelf(t, "a", "b")
	if got := s.ReconcileChildren(); !slices.Equal(got, keys("a", "b")) {
		t.Errorf("first reconcile added %v, want [a b]", got)
	}
	if got := s.ReconcileChildren(); len(got) != 0 {
		t.Errorf("reconcile without changes added %v", got)
	}
	mustDispatch(t, s, Place{"c"})
	if got := s.ReconcileChildren(); !slices.Equal(got, keys("c")) {
		t.Errorf("reconcile after Place added %v, want [c]", got)
	}
	if got := s.Children(); !slices.Equal(got, keys("a", "b", "c")) {
		t.Errorf("children = %v", got)
	}
}

func TestReconcileOnALeafHasNoChildren(t *testing.T) {
	s, _, _ := newList(t, "x")
	if got := s.ReconcileChildren(); len(got) != 0 || len(s.Children()) != 0 {
		t.Errorf("a leaf state got children %v", got)
	}
	if _, err := s.WarmChild(k("x")); !errors.Is(err, session.ErrUnknownChild) {
		t.Errorf("WarmChild on a leaf: %v, want ErrUnknownChild", err)
	}
}

func TestSlotsAreColdUntilWarmed(t *testing.T) {
	s, sh := newShelf(t, "a", "b")
	s.ReconcileChildren()
	if s.Hot(k("a")) {
		t.Error("a is hot before anyone asked for it")
	}
	if c, ok := s.HotChild(k("a")); ok || c != nil {
		t.Error("HotChild loaded a cold child")
	}
	if sh.loads["a"].Load() != 0 {
		t.Error("reconcile or Hot ran Load")
	}
	c, err := s.WarmChild(k("a"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Name() != "shelf/a" {
		t.Errorf("warmed child is %q", c.Name())
	}
	if !s.Hot(k("a")) || s.Hot(k("b")) {
		t.Errorf("hot: a=%v b=%v, want only a", s.Hot(k("a")), s.Hot(k("b")))
	}
	if again, ok := s.HotChild(k("a")); !ok || again != c {
		t.Error("HotChild does not return the warmed child")
	}
	if s.Hot(k("nope")) {
		t.Error("an unknown child is hot")
	}
}

func TestWarmChildLoadsOnceUnderConcurrentCallers(t *testing.T) {
	s, sh := newShelf(t, "a")
	s.ReconcileChildren()
	const callers = 32
	got := make([]*session.Session, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			c, err := s.WarmChild(k("a"))
			if err != nil {
				t.Error(err)
			}
			got[i] = c
		})
	}
	wg.Wait()
	if n := sh.loads["a"].Load(); n != 1 {
		t.Errorf("Load ran %d times for %d concurrent callers, want 1", n, callers)
	}
	for i, c := range got {
		if c != got[0] {
			t.Fatalf("caller %d got a different child", i)
		}
	}
}

func TestWarmChildRetriesAFailedLoad(t *testing.T) {
	s, sh := newShelf(t, "a")
	sh.failLoads["a"] = 1
	s.ReconcileChildren()
	if _, err := s.WarmChild(k("a")); err == nil || errors.Is(err, session.ErrUnknownChild) {
		t.Fatalf("first warm: %v, want the load's error", err)
	}
	if s.Hot(k("a")) {
		t.Error("a failed load left the child hot")
	}
	if _, err := s.WarmChild(k("a")); err != nil {
		t.Fatalf("second warm: %v", err)
	}
	if n := sh.loads["a"].Load(); n != 2 {
		t.Errorf("Load ran %d times, want 2 (fail, then succeed)", n)
	}
}

func TestDispatchChildRoutesToThatChildOnly(t *testing.T) {
	s, _ := newShelf(t, "a", "b")
	s.ReconcileChildren()
	res, err := s.DispatchChild(context.Background(), k("b"), Add{"x"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Version != 1 {
		t.Errorf("child result version %d, want 1", res.Version)
	}
	b, _ := s.HotChild(k("b"))
	b.View(func(st session.State) {
		if got := st.(*list).String(); got != "x" {
			t.Errorf("child b holds %q, want x", got)
		}
	})
	if s.Hot(k("a")) {
		t.Error("dispatching to b warmed a")
	}
	if s.Version() != 0 {
		t.Errorf("child dispatch bumped the parent to version %d", s.Version())
	}
	if _, err := s.DispatchChild(context.Background(), k("zz"), Add{"x"}); !errors.Is(err, session.ErrUnknownChild) {
		t.Errorf("dispatch to an unknown child: %v, want ErrUnknownChild", err)
	}
	// Rejections come back from the child unchanged.
	_, err = s.DispatchChild(context.Background(), k("a"), Add{""})
	if e, ok := session.AsError(err); !ok || e.Kind != session.KindInvalidArgs {
		t.Errorf("child rejection = %v", err)
	}
}

// A child dispatch completes while a parent dispatch holds the parent's
// write lock: children do not serialise on their parent. (If they did, this
// test would hang.)
func TestDispatchChildDoesNotLockParent(t *testing.T) {
	s, _ := newShelf(t, "a")
	s.ReconcileChildren()
	hold := Hold{Entered: make(chan struct{}), Release: make(chan struct{})}
	done := make(chan error)
	go func() {
		_, err := s.Dispatch(context.Background(), hold)
		done <- err
	}()
	<-hold.Entered
	if _, err := s.DispatchChild(context.Background(), k("a"), Add{"x"}); err != nil {
		t.Fatal(err)
	}
	close(hold.Release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestRemovedPlacementDetachesAndComesBackIntact(t *testing.T) {
	s, sh := newShelf(t, "a", "b", "c")
	s.ReconcileChildren()
	mustChild := func(id string) *session.Session {
		t.Helper()
		c, err := s.WarmChild(k(id))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	b := mustChild("b")
	mustDispatch(t, b, Add{"kept"})

	mustDispatch(t, s, Remove{"b"})
	if added := s.ReconcileChildren(); len(added) != 0 {
		t.Errorf("removing a placement added %v", added)
	}
	if got := s.Children(); !slices.Equal(got, keys("a", "c")) {
		t.Errorf("children after remove = %v, want [a c]", got)
	}
	if _, err := s.WarmChild(k("b")); !errors.Is(err, session.ErrUnknownChild) {
		t.Errorf("WarmChild of a detached slot: %v, want ErrUnknownChild", err)
	}
	if _, err := s.DispatchChild(context.Background(), k("b"), Add{"x"}); !errors.Is(err, session.ErrUnknownChild) {
		t.Errorf("DispatchChild to a detached slot: %v, want ErrUnknownChild", err)
	}
	if s.Hot(k("b")) {
		t.Error("a detached slot reports hot")
	}

	mustDispatch(t, s, session.Undo{}) // the placement comes back
	if added := s.ReconcileChildren(); len(added) != 0 {
		t.Errorf("a returning placement was treated as new: %v", added)
	}
	if got := s.Children(); !slices.Equal(got, keys("a", "b", "c")) {
		t.Errorf("children after undo = %v, want [a b c] in placement order", got)
	}
	back := mustChild("b")
	if back != b {
		t.Error("the returning placement got a new child session")
	}
	if back.Version() != 1 {
		t.Errorf("the returning child is at version %d, want 1", back.Version())
	}
	back.View(func(st session.State) {
		if got := st.(*list).String(); got != "kept" {
			t.Errorf("the returning child holds %q, want kept", got)
		}
	})
	if n := sh.loads["b"].Load(); n != 1 {
		t.Errorf("b was loaded %d times, want 1", n)
	}
}

func TestChildrenFollowPlacementOrder(t *testing.T) {
	s, sh := newShelf(t, "a", "b", "c")
	s.ReconcileChildren()
	sh.names = []string{"c", "a", "b"} // no dispatch is running: safe to edit
	s.ReconcileChildren()
	if got := s.Children(); !slices.Equal(got, keys("c", "a", "b")) {
		t.Errorf("children = %v, want placement order [c a b]", got)
	}
}

// k names the list child a shelf places under name.
func k(name string) session.Key { return session.Key{Placement: name, Kind: "list"} }

func keys(names ...string) []session.Key {
	out := make([]session.Key, len(names))
	for i, n := range names {
		out[i] = k(n)
	}
	return out
}

// rack places two kinds of child under one name: slots are keyed by
// placement and kind, so both live side by side.
type rack struct{ shelf }

func (r *rack) Placements() []session.Placement {
	var ps []session.Placement
	for _, name := range r.names {
		for _, kind := range []string{"list", "note"} {
			ps = append(ps, session.Placement{ID: name, Kind: kind, Load: func() (*session.Session, error) {
				return session.New(name+"/"+kind, &list{}), nil
			}})
		}
	}
	return ps
}

func TestOnePlacementHoldsOneChildOfEachKind(t *testing.T) {
	s := session.New("rack", &rack{shelf{names: []string{"a"}}})
	added := s.ReconcileChildren()
	want := []session.Key{{Placement: "a", Kind: "list"}, {Placement: "a", Kind: "note"}}
	if !slices.Equal(added, want) {
		t.Fatalf("added %v, want %v", added, want)
	}
	ctx := context.Background()
	if _, err := s.DispatchChild(ctx, want[1], Add{"x"}); err != nil {
		t.Fatal(err)
	}
	list, _ := s.WarmChild(want[0])
	note, _ := s.WarmChild(want[1])
	if list == note || list.Version() != 0 || note.Version() != 1 {
		t.Errorf("the two kinds share a child: list v%d, note v%d", list.Version(), note.Version())
	}
	if _, err := s.WarmChild(session.Key{Placement: "a", Kind: "quiz"}); !errors.Is(err, session.ErrUnknownChild) {
		t.Errorf("a kind the placement does not hold: %v", err)
	}
}
