package whiteboard_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/sessiontest"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

// An element may be added under an id the model chose, and an arrow
// dispatched right after may name it: calls apply in order.
func TestChosenIDsAreUsableAtOnce(t *testing.T) {
	s, b := newSession(t, leafSrc)
	sun := whiteboard.AddShape{Box: box(40, 100, 200, 100), Shape: "ellipse", Label: "Sun"}
	sun.ID = "sun"
	apply(t, s, b, sun)
	leaf := whiteboard.AddText{Box: box(600, 100, 200, 60), Text: "Leaf"}
	leaf.ID = "leaf"
	apply(t, s, b, leaf)
	arrow := whiteboard.AddArrow{From: "sun", To: "leaf", Label: "light"}
	arrow.ID = "light"
	res := apply(t, s, b, arrow)
	if got := res.Outputs[0].(whiteboard.Added).ID; got != "light" {
		t.Errorf("arrow added as %q, want the chosen id", got)
	}
	if e := element(t, b, "light"); e.From != "sun" || e.To != "leaf" {
		t.Errorf("arrow joins %s→%s", e.From, e.To)
	}
	// Unchosen ids are still generated.
	res = apply(t, s, b, whiteboard.AddText{Box: box(40, 400, 200, 60), Text: "More"})
	if got := res.Outputs[0].(whiteboard.Added).ID; got != "text1" {
		t.Errorf("generated id %q, want text1", got)
	}
}

// A clash or a bad slug is invalid_args naming an id that is free.
func TestChosenIDRejected(t *testing.T) {
	s, b := newSession(t, leafSrc)
	for _, c := range []struct{ id, hint string }{
		{"title", `"title-2" is free`},                           // the author's element
		{"p1", `"p1-2" is free`},                                 // a placeholder's id
		{"2nd box", "such as ndbox"},                             // not a slug
		{"a-very-long-id-that-goes-on-and-on-and-on", "at most"}, // too long
	} {
		in := whiteboard.AddText{Box: box(40, 300, 200, 60), Text: "x"}
		in.ID = c.id
		sessiontest.Rejected(t, s, in, session.KindInvalidArgs, "id", "", observe(t, b))
		_, err := s.Dispatch(context.Background(), in)
		e, _ := session.AsError(err)
		if e == nil || !strings.Contains(e.Hint+e.Message, c.hint) {
			t.Errorf("id %q: %v, want %q", c.id, err, c.hint)
		}
	}
	// The suggested id is really free.
	in := whiteboard.AddText{Box: box(40, 300, 200, 60), Text: "x"}
	in.ID = "title-2"
	apply(t, s, b, in)
}

const idlessBoard = `elements:
  - {type: text, text: !pending "a caption", x: 100, y: 200, w: 300, h: 80}
  - !pending "a diagram"
  - {id: shape3, type: text, text: taken, x: 500, y: 200, w: 300, h: 80}
  - {type: shape, shape: rect, x: 100, y: 400, w: 300, h: 80}   # no id
  - {type: arrow, from: text1, to: shape3}
`

// An element written without an id goes by its type's prefix and its place
// among the elements written without one; an explicit id wins.
func TestDerivedElementIDs(t *testing.T) {
	b, _ := decode(t, idlessBoard)
	if got, want := strings.Join(ids(b), " "), "text1 ?p1 shape3 shape2 arrow3"; got != want {
		t.Errorf("ids = %s, want %s", got, want)
	}
}

// An element a model adds is saved with its id, and a filled field is
// saved; the derived ids are not, and the arrow still names its end.
func TestDerivedElementIDsAreNotSaved(t *testing.T) {
	s, b := newSession(t, idlessBoard)
	apply(t, s, b, whiteboard.UpdateElement{ID: "text1", Text: ptr("Light in")})
	add := whiteboard.AddText{Box: box(600, 400, 200, 60), Text: "Leaf"}
	add.PendingID = "p1"
	apply(t, s, b, add)
	got := render(t, b)
	if strings.Count(got, "id:") != 2 || !strings.Contains(got, "id: shape3") || !strings.Contains(got, "id: text2") || !strings.Contains(got, "text: Light in") {
		t.Errorf("saved:\n%s", got)
	}
	if n := strings.Count(got, "from: text1"); n != 1 {
		t.Errorf("the arrow lost its end:\n%s", got)
	}
}
