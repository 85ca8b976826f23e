package whiteboard

import (
	"github.com/lessongen/lessongen/session"
)

// metaNames are the board's own values provenance tracks, in file order.
var metaNames = []string{"canvas", "heading", "layout"}

// elementKey is an element's provenance key.
func elementKey(id string) string { return "elements[" + id + "]" }

// elementContent is what an element's provenance hash covers: everything a
// save writes of it but the bookkeeping of an open placeholder.
func elementContent(e *Element) any {
	return struct {
		Type                                 Kind
		Shape, From, To                      string
		FromPoint, ToPoint                   *Point
		X, Y, W, H                           float64
		Text, Label, Latex, Description, Alt string
		Style                                *Style
		Sources                              []string
		Picture                              *pictureFields `json:",omitempty"`
		// The worksheet elements' fields are left out when empty, so the
		// hashes recorded before they existed still match.
		Language, Code, Output string     `json:",omitempty"`
		Header                 []string   `json:",omitempty"`
		Rows                   [][]string `json:",omitempty"`
	}{e.Type, e.Shape, e.From, e.To, e.FromPoint, e.ToPoint, e.X, e.Y, e.W, e.H,
		e.Text.Value, e.Label.Value, e.Latex.Value, e.Description.Value, e.Alt.Value, e.Style, e.Sources, e.pictureFields(),
		e.Language, e.Code.Value, e.Output.Value, e.Header.Value, e.Rows.Value}
}

// metaContent is the value of one of metaNames, and whether it is set.
func (b *Board) metaContent(name string) (any, bool) {
	switch name {
	case "canvas":
		return b.Canvas.Value, b.Canvas.Set
	case "heading":
		return b.Heading.Value, b.Heading.Set
	case "layout":
		return b.Layout.Value, b.Layout.Set
	}
	return nil, false
}

// Generated maps what generation wrote on this board to its hash; see
// session.Provenance.
func (b *Board) Generated() map[string]string {
	out := b.meta.Hashes(metaNames, b.metaContent)
	b.list().Hashes(out, elementKey, elementContent)
	return out
}

// Adopt marks what an earlier run generated, and nobody changed since, as
// generated: a later run may change it as its own.
func (b *Board) Adopt(marks map[string]string) {
	b.meta.Adopt(metaNames, b.metaContent, marks)
	b.list().Adopt(marks, elementKey, elementContent)
}

// Ownership names the author's values (locked) and generation's
// (editable); see session.Provenance.
func (b *Board) Ownership(level session.Level) (locked, editable []string) {
	if level == session.LevelNode {
		return b.list().Owners()
	}
	return b.meta.Owners(metaNames, b.metaContent)
}

// SetProtect turns the protection of the author's elements and values on
// or off; see session.Guarded.
func (b *Board) SetProtect(on bool) { b.Protect = on }
