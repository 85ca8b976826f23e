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
