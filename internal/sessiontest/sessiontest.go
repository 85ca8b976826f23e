// Package sessiontest checks the contract every modality's session keeps:
// a change undoes exactly and redoes identically, and a rejection changes
// nothing. The lesson and whiteboard tests share it.
package sessiontest

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/session"
)

// Dispatch dispatches in and fails the test if it is rejected.
func Dispatch(t testing.TB, s *session.Session, in session.Intent) session.Result {
	t.Helper()
	res, err := s.Dispatch(context.Background(), in)
	if err != nil {
		t.Fatalf("dispatch %T: %v", in, err)
	}
	return res
}

// Observer captures what can be seen of a state (look) and reports how two
// captures differ (diff).
type Observer[V any] struct {
	Look func() V
	Diff func(what string, got, want V)
}

// Apply dispatches in, then checks that Undo restores everything the
// observer sees and Redo re-applies it identically, with the same reports
// and warnings. It leaves the state as after in and returns in's result.
func Apply[V any](t testing.TB, s *session.Session, in session.Intent, o Observer[V]) session.Result {
	t.Helper()
	before := o.Look()
	res := Dispatch(t, s, in)
	after := o.Look()
	Dispatch(t, s, session.Undo{})
	o.Diff("after undo", o.Look(), before)
	redo := Dispatch(t, s, session.Redo{})
	o.Diff("after redo", o.Look(), after)
	if !reflect.DeepEqual(redo.Outputs, res.Outputs) {
		t.Errorf("redo reported %+v, the dispatch %+v", redo.Outputs, res.Outputs)
	}
	if !reflect.DeepEqual(redo.Warnings, res.Warnings) {
		t.Errorf("redo warned %+v, the dispatch %+v", redo.Warnings, res.Warnings)
	}
	return res
}

// Rejected dispatches in, expects a rejection of the given kind and path
// whose hint contains hint, and checks that nothing changed.
func Rejected[V any](t testing.TB, s *session.Session, in session.Intent, kind session.ErrorKind, path, hint string, o Observer[V]) {
	t.Helper()
	before, v := o.Look(), s.Version()
	_, err := s.Dispatch(context.Background(), in)
	e, ok := session.AsError(err)
	if !ok {
		t.Fatalf("err = %v, want a rejection", err)
	}
	if e.Kind != kind || e.Path != path || !strings.Contains(e.Hint, hint) {
		t.Errorf("rejection = %+v\nwant kind %s, path %q, hint containing %q", e, kind, path, hint)
	}
	o.Diff("after a rejection", o.Look(), before)
	if s.Version() != v {
		t.Error("a rejection bumped the version")
	}
}
