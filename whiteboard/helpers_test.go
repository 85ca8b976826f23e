package whiteboard_test

import (
	"reflect"
	"testing"

	"github.com/lessongen/lessongen/internal/sessiontest"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

// leafSrc is a board as an author writes it: pending heading and layout on
// the default canvas, authored elements (one with a pending text) and a
// placeholder for generated ones.
const leafSrc = `heading: !pending
layout: !pending "diagram left, labels right"
elements:
  - id: title
    type: text
    x: 40
    y: 20
    w: 400
    h: 60
    text: A leaf
  - id: caption
    type: text
    x: 40
    y: 600
    w: 300
    h: 60
    text: !pending "a one-line caption"
  - !pending "a labelled diagram of a leaf"
`

// decode reads a board from YAML and fails the test on any error (warnings
// are returned).
func decode(t *testing.T, src string) (*whiteboard.Board, yamlsrc.Problems) {
	t.Helper()
	s, err := yamlsrc.Parse("board.yaml", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	r := &yamlsrc.Reporter{File: "board.yaml"}
	b := whiteboard.Decode(s.Root, r, "whiteboard")
	if err := r.Problems.Err(); err != nil {
		t.Fatalf("decode:\n%v", err)
	}
	return b, r.Problems.Warnings()
}

// decodeProblems decodes src expecting errors and returns them all.
func decodeProblems(t *testing.T, src string) yamlsrc.Problems {
	t.Helper()
	s, err := yamlsrc.Parse("board.yaml", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	r := &yamlsrc.Reporter{File: "board.yaml"}
	whiteboard.Decode(s.Root, r, "whiteboard")
	return r.Problems
}

func newSession(t *testing.T, src string) (*session.Session, *whiteboard.Board) {
	t.Helper()
	b, _ := decode(t, src)
	return session.New("board", b), b
}

// render is the board as it would be saved.
func render(t *testing.T, b *whiteboard.Board) string {
	t.Helper()
	n, ok := b.EncodeNode()
	if !ok {
		t.Fatal("board encodes as absent")
	}
	out, err := yamlsrc.Render(n, 2)
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	return string(out)
}

func dispatch(t *testing.T, s *session.Session, in session.Intent) session.Result {
	t.Helper()
	return sessiontest.Dispatch(t, s, in)
}

// view captures everything observable about a board: its saved form, its
// description and its pending list.
type view struct {
	yaml     string
	describe string
	pending  []session.Pending
}

func look(t *testing.T, b *whiteboard.Board) view {
	t.Helper()
	return view{render(t, b), b.Describe(), b.Pending()}
}

func (v view) diff(t *testing.T, what string, want view) {
	t.Helper()
	if v.yaml != want.yaml {
		t.Errorf("%s: saved form differs:\n--- got\n%s--- want\n%s", what, v.yaml, want.yaml)
	}
	if v.describe != want.describe {
		t.Errorf("%s: description differs:\n--- got\n%s\n--- want\n%s", what, v.describe, want.describe)
	}
	if !reflect.DeepEqual(v.pending, want.pending) {
		t.Errorf("%s: pending differs:\n got %+v\nwant %+v", what, v.pending, want.pending)
	}
}

// apply dispatches in, then checks that Undo restores the board exactly and
// Redo re-applies it identically (same report, same generated ids). It leaves
// the board as after in and returns in's result.
func apply(t *testing.T, s *session.Session, b *whiteboard.Board, in session.Intent) session.Result {
	t.Helper()
	return sessiontest.Apply(t, s, in, observe(t, b))
}

func observe(t *testing.T, b *whiteboard.Board) sessiontest.Observer[view] {
	return sessiontest.Observer[view]{
		Look: func() view { return look(t, b) },
		Diff: func(what string, got, want view) { got.diff(t, what, want) },
	}
}

func element(t *testing.T, b *whiteboard.Board, id string) *whiteboard.Element {
	t.Helper()
	e, ok := b.Element(id)
	if !ok {
		t.Fatalf("no element %q", id)
	}
	return e
}

// ids lists the board's element ids in order, "?" + placeholder id for
// placeholders.
func ids(b *whiteboard.Board) []string {
	var out []string
	for _, e := range b.Elements.Value {
		if e.IsPlaceholder {
			out = append(out, "?"+e.PlaceholderID)
			continue
		}
		out = append(out, e.ID)
	}
	return out
}

func box(x, y, w, h float64) whiteboard.Box { return whiteboard.Box{X: x, Y: y, W: w, H: h} }

func ptr[T any](v T) *T { return &v }
