package whiteboard

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lessongen/lessongen/internal/nodemeta"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// One apply per intent: Board.apply dispatches each intent to its own
// applyTo, which changes the board or refuses; Reduce undoes a refused
// change from its snapshot.

func (in SetHeading) applyTo(b *Board, rc *session.Context) error {
	return b.meta.SetText(rc, "heading", &b.Heading, in.Heading, b.Protect)
}

func (in SetLayout) applyTo(b *Board, rc *session.Context) error {
	return b.meta.SetText(rc, "layout", &b.Layout, in.Layout, b.Protect)
}

func (in ApplyBinding) applyTo(b *Board, rc *session.Context) error {
	f := b.bindable(in.Property)
	if f == nil {
		return session.Reject(session.KindInvalidArgs, "property", "bindable: "+strings.Join(bindableNames(), ", "), "no bindable property %q", in.Property)
	}
	if !f.Set || b.meta.Bound(in.Property) {
		b.meta.Bind(in.Property, f, in.Value)
		rc.Report(Set{Field: in.Property, Value: in.Value})
	}
	return nil
}

func (in SetCanvas) applyTo(b *Board, rc *session.Context) error {
	if err := b.meta.Writable("canvas", b.Canvas.Set, b.Protect); err != nil {
		return err
	}
	if !canvasSide().In(float64(in.Width)) || !canvasSide().In(float64(in.Height)) {
		return session.Reject(session.KindInvalidArgs, "width", fmt.Sprintf("width and height must be %s; the default is %dx%d", canvasSide().Range(), DefaultWidth, DefaultHeight),
			"canvas %dx%d is out of range", in.Width, in.Height)
	}
	if w, h := b.extent(); float64(in.Width) < w || float64(in.Height) < h {
		return session.Reject(session.KindPrecondition, "width", fmt.Sprintf("the elements already on the board need at least %gx%g; keep the canvas at least that big", w, h),
			"canvas %dx%d is smaller than the elements on it", in.Width, in.Height)
	}
	c := Canvas{Width: in.Width, Height: in.Height, Background: Color(strings.TrimSpace(string(in.Background)))}
	if err := checkColor("background", c.Background); err != nil {
		return err
	}
	if c.Background == "" {
		c.Background = b.Canvas.Value.Background
	}
	b.Canvas = yamlsrc.Val(c)
	b.meta.Mark("canvas")
	rc.Report(Set{Field: "canvas", Value: c})
	return nil
}

func (in SetBackground) applyTo(b *Board, rc *session.Context) error {
	if err := b.meta.Writable("canvas", b.Canvas.Set, b.Protect); err != nil {
		return err
	}
	v, err := nodemeta.NonEmpty("background", string(in.Background))
	if err != nil {
		return err
	}
	if err := checkColor("background", Color(v)); err != nil {
		return err
	}
	c := b.CanvasSize()
	c.Background = Color(v)
	b.Canvas = yamlsrc.Val(c)
	b.meta.Mark("canvas")
	rc.Report(Set{Field: "background", Value: v})
	return nil
}

func (in AddText) applyTo(b *Board, rc *session.Context) error {
	text, err := nodemeta.NonEmpty("text", in.Text)
	if err != nil {
		return err
	}
	if err := b.checkBox(in.Box); err != nil {
		return err
	}
	if err := checkStyle(in.Style); err != nil {
		return err
	}
	return b.add(rc, &Element{Type: KindText, Text: yamlsrc.Val(text), Style: in.Style}, in.Box, in.Placing)
}

func (in AddShape) applyTo(b *Board, rc *session.Context) error {
	if !shapeRule().Allows(in.Shape) {
		return session.Reject(session.KindInvalidArgs, "shape", "use "+shapeRule().Options(), "unknown shape %q", in.Shape)
	}
	if err := b.checkBox(in.Box); err != nil {
		return err
	}
	if err := checkStyle(in.Style); err != nil {
		return err
	}
	e := &Element{Type: KindShape, Shape: in.Shape, Style: in.Style}
	if l := strings.TrimSpace(in.Label); l != "" {
		e.Label = yamlsrc.Val(l)
	}
	return b.add(rc, e, in.Box, in.Placing)
}

func (in AddArrow) applyTo(b *Board, rc *session.Context) error {
	c := b.CanvasSize()
	for _, end := range []struct {
		path, id string
		p        *Point
	}{{"from", in.From, in.FromPoint}, {"to", in.To, in.ToPoint}} {
		switch {
		case end.id != "" && end.p != nil:
			return session.Reject(session.KindInvalidArgs, end.path+"_point", "give "+end.path+" (an element id) or "+end.path+"_point (a free point), not both", "the arrow's %s end is given twice", end.path)
		case end.p != nil:
			if !end.p.on(c) {
				return session.Reject(session.KindInvalidArgs, end.path+"_point", fmt.Sprintf("x must be 0–%d and y 0–%d", c.Width, c.Height), "%s_point (%g,%g) is off the canvas", end.path, end.p.X, end.p.Y)
			}
		case end.id == "":
			return session.Reject(session.KindInvalidArgs, end.path, "give "+end.path+" (an element id) or "+end.path+"_point (a free point)", "the arrow has no %s end", end.path)
		default:
			if _, ok := b.byID[end.id]; !ok {
				return b.list().NotFound(end.path, end.id)
			}
		}
	}
	if in.From != "" && in.From == in.To {
		return session.Reject(session.KindInvalidArgs, "to", "an arrow joins two different elements", "arrow from %q to itself", in.From)
	}
	if err := checkStyle(in.Style); err != nil {
		return err
	}
	if in.Heads != "" && !headsRule().Allows(in.Heads) {
		return session.Reject(session.KindInvalidArgs, "heads", "use "+headsRule().Options(), "unknown heads %q", in.Heads)
	}
	heads := in.Heads
	if heads == "end" {
		heads = "" // the default, left out of the file
	}
	e := &Element{Type: KindArrow, From: in.From, To: in.To, FromPoint: in.FromPoint, ToPoint: in.ToPoint, Heads: heads, Style: in.Style}
	if l := strings.TrimSpace(in.Label); l != "" {
		e.Label = yamlsrc.Val(l)
	}
	return b.add(rc, e, Box{}, in.Placing)
}

func (in AddEquation) applyTo(b *Board, rc *session.Context) error {
	latex, err := nodemeta.NonEmpty("latex", in.Latex)
	if err != nil {
		return err
	}
	if msg := latexLimit(latex); msg != "" {
		return session.Reject(session.KindInvalidArgs, "latex", latexLimitHint, "the LaTeX %s", msg)
	}
	if err := b.checkBox(in.Box); err != nil {
		return err
	}
	return b.add(rc, &Element{Type: KindEquation, Latex: yamlsrc.Val(latex)}, in.Box, in.Placing)
}

func (in AddImage) applyTo(b *Board, rc *session.Context) error {
	desc, err := nodemeta.NonEmpty("description", in.Description)
	if err != nil {
		return err
	}
	alt, err := nodemeta.NonEmpty("alt", in.Alt)
	if err != nil {
		return err
	}
	if err := b.checkBox(in.Box); err != nil {
		return err
	}
	return b.add(rc, &Element{Type: KindImage, Description: yamlsrc.Val(desc), Alt: yamlsrc.Val(alt)}, in.Box, in.Placing)
}

// checkPlaced is the dispatch check of a new element's box and style.
func (b *Board) checkPlaced(box Box, style *Style) error {
	if err := b.checkBox(box); err != nil {
		return err
	}
	return checkStyle(style)
}

func (in AddCode) applyTo(b *Board, rc *session.Context) error {
	code, err := codeValue("code", in.Code)
	if err != nil {
		return err
	}
	e := &Element{Type: KindCode, Language: strings.TrimSpace(in.Language), Code: yamlsrc.Val(code), Style: in.Style}
	if strings.TrimSpace(in.Output) != "" {
		out, _ := codeValue("output", in.Output)
		e.Output = yamlsrc.Val(out)
	}
	if err := b.checkPlaced(in.Box, in.Style); err != nil {
		return err
	}
	return b.add(rc, e, in.Box, in.Placing)
}

func (in AddTable) applyTo(b *Board, rc *session.Context) error {
	e := &Element{Type: KindTable, Header: yamlsrc.Val(slices.Clone(in.Header)), Rows: yamlsrc.Val(cloneRows(in.Rows)), Style: in.Style}
	if err := checkTable(e); err != nil {
		return err
	}
	if err := b.checkPlaced(in.Box, in.Style); err != nil {
		return err
	}
	return b.add(rc, e, in.Box, in.Placing)
}

func (in AddAnswerSpace) applyTo(b *Board, rc *session.Context) error {
	if err := b.checkPlaced(in.Box, in.Style); err != nil {
		return err
	}
	e := &Element{Type: KindBlank, Style: in.Style}
	if l := strings.TrimSpace(in.Label); l != "" {
		e.Label = yamlsrc.Val(l)
	}
	return b.add(rc, e, in.Box, in.Placing)
}

func (in UpdateElement) applyTo(b *Board, rc *session.Context) error {
	return b.update(rc, in)
}

func (in MoveElement) applyTo(b *Board, rc *session.Context) error {
	e, err := b.list().Editable(in.ID, b.Protect)
	if err != nil {
		return err
	}
	if e.Type == KindArrow {
		return session.Reject(session.KindPrecondition, "id", "an arrow follows the elements it joins; move those instead", "%q is an arrow", in.ID)
	}
	box, fields := Box{X: in.X, Y: in.Y, W: e.W, H: e.H}, []string{"x", "y"}
	if in.W != nil {
		box.W, fields = *in.W, append(fields, "w")
	}
	if in.H != nil {
		box.H, fields = *in.H, append(fields, "h")
	}
	if err := b.checkBox(box); err != nil {
		return err
	}
	e.X, e.Y, e.W, e.H = box.X, box.Y, box.W, box.H
	rc.Report(Changed{ID: e.ID, Fields: fields})
	return nil
}

func (in ResizeElement) applyTo(b *Board, rc *session.Context) error {
	e, err := b.list().Editable(in.ID, b.Protect)
	if err != nil {
		return err
	}
	if e.Type == KindArrow {
		return session.Reject(session.KindPrecondition, "id", "an arrow has no size of its own", "%q is an arrow", in.ID)
	}
	if err := b.checkBox(Box{X: e.X, Y: e.Y, W: in.W, H: in.H}); err != nil {
		return err
	}
	e.W, e.H = in.W, in.H
	rc.Report(Changed{ID: e.ID, Fields: []string{"w", "h"}})
	return nil
}

func (in DeleteElement) applyTo(b *Board, rc *session.Context) error {
	if _, err := b.list().Editable(in.ID, b.Protect); err != nil {
		return err
	}
	gone := []string{in.ID}
	kept := b.Elements.Value[:0:0]
	for _, e := range b.Elements.Value {
		switch {
		case e.ID == in.ID && !e.IsPlaceholder:
		case e.Type == KindArrow && (e.From == in.ID || e.To == in.ID):
			if e.Authored && b.Protect {
				return session.Reject(session.KindPrecondition, "id", "the author's arrow "+e.ID+" points at it", "cannot delete %q", in.ID)
			}
			gone = append(gone, e.ID)
		default:
			kept = append(kept, e)
		}
	}
	old := b.Elements.Value
	b.Elements.Value = kept
	// A placeholder is owed an element again for each one deleted.
	for _, e := range old {
		if !slices.Contains(kept, e) {
			b.list().Uncredit(e)
		}
	}
	rc.Report(Deleted{gone})
	return nil
}

func (in SelectElements) applyTo(b *Board, rc *session.Context) error {
	for _, id := range in.IDs {
		if _, ok := b.byID[id]; !ok {
			return b.list().NotFound("ids", id)
		}
	}
	b.selection = slices.Clone(in.IDs)
	return nil
}

func (in ClosePlaceholders) applyTo(b *Board, rc *session.Context) error {
	// An arrow naming an element still missing may be waiting for a
	// placeholder to add it; while one does, closing them all would
	// leave a file that does not load (a dangling arrow is an error
	// once nothing is pending). They stay open, and the arrow stays a
	// defect the run reports.
	if b.danglingArrow() {
		rc.Report(Closed{})
		return nil
	}
	// A placeholder an earlier, stopped run began is closed too: this
	// subagent saw what it had and finished.
	closed, _ := b.list().Close()
	rc.Report(Closed{Placeholders: closed})
	return nil
}
