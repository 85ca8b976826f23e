package whiteboard

import (
	"testing"

	"github.com/lessongen/lessongen/session"
)

// TestElementHashKeepsOlderRecords: provenance.json files written before
// the picture and worksheet fields existed hold hashes of the struct
// below; an element of an older kind must still hash the same, or every
// element an earlier run generated would turn into the author's.
func TestElementHashKeepsOlderRecords(t *testing.T) {
	e := &Element{Type: KindText, X: 10, Y: 20, W: 300, H: 60}
	e.Text.Value = "Where does a tree's mass come from?"
	e.Sources = []string{"chapter3.md:4"}
	older := struct {
		Type                                 Kind
		Shape, From, To                      string
		FromPoint, ToPoint                   *Point
		X, Y, W, H                           float64
		Text, Label, Latex, Description, Alt string
		Style                                *Style
		Sources                              []string
	}{e.Type, e.Shape, e.From, e.To, e.FromPoint, e.ToPoint, e.X, e.Y, e.W, e.H,
		e.Text.Value, e.Label.Value, e.Latex.Value, e.Description.Value, e.Alt.Value, e.Style, e.Sources}
	if got, want := session.ContentHash(elementContent(e)), session.ContentHash(older); got != want {
		t.Fatalf("a text element's hash changed: %s, records hold %s", got, want)
	}
}
