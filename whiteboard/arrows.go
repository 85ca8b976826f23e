package whiteboard

import (
	"fmt"
	"math"

	"github.com/lessongen/lessongen/internal/textfit"
	"github.com/lessongen/lessongen/session"
)

// How arrows are drawn, for render, the checks and the prompt alike: a
// straight line from the edge of its from element (or its from_point) to
// the edge of its to element (or its to_point), along the line between the
// ends' centres, with the arrowhead at the to end and the label centred at
// the line's midpoint, just above it.

// arrowLabelFontSize is the size an arrow's label is drawn at.
const arrowLabelFontSize = 18.0

// lineKind names an arrow as it is drawn: a line when it has no heads.
func (e *Element) lineKind() string {
	if e.Heads == "none" {
		return "line"
	}
	return "arrow"
}

// on reports whether p lies on canvas c. Written as "inside" so NaN fails.
func (p Point) on(c Canvas) bool {
	return p.X >= 0 && p.Y >= 0 && p.X <= float64(c.Width) && p.Y <= float64(c.Height)
}

// arrowEnd is one end of an arrow: a box it leaves from the edge of, or a
// point (a box of no size).
func (b *Board) arrowEnd(id string, p *Point) (textfit.Box, bool) {
	if p != nil {
		return textfit.Box{X: p.X, Y: p.Y}, true
	}
	e, ok := b.byID[id]
	if !ok || e.IsPlaceholder {
		return textfit.Box{}, false
	}
	return e.box(), true
}

// arrowLine is where arrow e is drawn; false when an end is missing.
func (b *Board) arrowLine(e *Element) (x1, y1, x2, y2 float64, ok bool) {
	fb, okF := b.arrowEnd(e.From, e.FromPoint)
	tb, okT := b.arrowEnd(e.To, e.ToPoint)
	if !okF || !okT {
		return 0, 0, 0, 0, false
	}
	fx, fy := fb.X+fb.W/2, fb.Y+fb.H/2
	tx, ty := tb.X+tb.W/2, tb.Y+tb.H/2
	x1, y1 = edge(fb, tx-fx, ty-fy)
	x2, y2 = edge(tb, fx-tx, fy-ty)
	return x1, y1, x2, y2, true
}

// crossingSlack is how far into a box a line may run before it counts as
// crossing it: a line grazing a corner reads as clear.
const crossingSlack = 4.0

// crossing is where the segment (x1,y1)–(x2,y2) runs through box b, shrunk
// by crossingSlack on each side (Liang–Barsky clipping): the midpoint of the
// part inside, and whether there is one.
func crossing(x1, y1, x2, y2 float64, b textfit.Box) (x, y float64, ok bool) {
	minX, minY := b.X+crossingSlack, b.Y+crossingSlack
	maxX, maxY := b.X+b.W-crossingSlack, b.Y+b.H-crossingSlack
	if minX >= maxX || minY >= maxY {
		return 0, 0, false
	}
	dx, dy := x2-x1, y2-y1
	t0, t1 := 0.0, 1.0
	for _, c := range [][2]float64{{-dx, x1 - minX}, {dx, maxX - x1}, {-dy, y1 - minY}, {dy, maxY - y1}} {
		p, q := c[0], c[1]
		if p == 0 {
			if q < 0 {
				return 0, 0, false
			}
			continue
		}
		r := q / p
		if p < 0 {
			t0 = math.Max(t0, r)
		} else {
			t1 = math.Min(t1, r)
		}
		if t0 > t1 {
			return 0, 0, false
		}
	}
	t := (t0 + t1) / 2
	return x1 + dx*t, y1 + dy*t, true
}

// glyphs are the boxes of a text element's lines as drawn (wrapped by the
// layout model, top-aligned in the element's box, placed by its
// alignment): what a line over the text would run through, which the
// element's box, mostly empty below short text, does not say.
func (e *Element) glyphs() []textfit.Box {
	if e.Type != KindText || !e.Text.Set {
		return nil
	}
	_, _, _, align := e.colors()
	l := textfit.Wrap(e.Text.Value, e.renderStyle(), e.W)
	lh := l.LineHeightPx()
	var out []textfit.Box
	for i, w := range l.Widths {
		if w == 0 {
			continue
		}
		x := e.X
		switch align {
		case "center":
			x += (e.W - w) / 2
		case "right":
			x += e.W - w
		}
		out = append(out, textfit.Box{X: x, Y: e.Y + float64(i)*lh, W: w, H: lh})
	}
	return out
}

// outlined reports whether e's box is drawn (a text box with an outline
// or a fill): then a line across any part of it shows.
func (e *Element) outlined() bool {
	_, _, fill, _ := e.colors()
	return e.Type != KindText || e.Style != nil && e.Style.Stroke != "" || fill != "none"
}

// contains reports whether box a holds box b whole.
func contains(a, b textfit.Box) bool {
	return b.X >= a.X && b.Y >= a.Y && b.X+b.W <= a.X+a.W && b.Y+b.H <= a.Y+a.H
}

// arrowDefects finds arrow labels that do not contrast with their panel,
// and arrows that cross an element that is neither one of
// their ends, nor holds an end (a container), nor sits inside an end (a
// label in it): the line would run through its text.
func (b *Board) arrowDefects() []defect {
	var out []defect
	for _, a := range b.elements() {
		if a.IsPlaceholder || a.Type != KindArrow {
			continue
		}
		if msg := b.contrastDefect(a); msg != "" {
			out = append(out, defect{session.Warning{Path: "elements[" + a.ID + "]", Message: msg}, [2]string{a.ID}, false})
		}
		x1, y1, x2, y2, ok := b.arrowLine(a)
		if !ok {
			continue
		}
		// A free point is an end too: an element holding it holds an end.
		var ends []textfit.Box
		for _, end := range []struct {
			id string
			p  *Point
		}{{a.From, a.FromPoint}, {a.To, a.ToPoint}} {
			if box, ok := b.arrowEnd(end.id, end.p); ok {
				ends = append(ends, box)
			}
		}
		for _, o := range b.elements() {
			if o.IsPlaceholder || o.Type == KindArrow || o.ID == a.From || o.ID == a.To {
				continue
			}
			ob := o.box()
			holds := false
			for _, end := range ends {
				if contains(ob, end) || contains(end, ob) {
					holds = true
				}
			}
			// A box that holds an end may be crossed (the line starts
			// or ends inside it), its text never; a text box with
			// nothing drawn around it is crossed only where its text is.
			at, what, ok := 0.0, 0.0, false
			if !holds && o.outlined() {
				at, what, ok = crossing(x1, y1, x2, y2, ob)
			}
			if !ok {
				for _, g := range o.glyphs() {
					if at, what, ok = crossing(x1, y1, x2, y2, g); ok {
						break
					}
				}
			}
			if ok {
				out = append(out, defect{session.Warning{Path: "elements[" + a.ID + "]",
					Message: fmt.Sprintf("%s %s crosses %s at about (%g,%g); move %s off the line from (%g,%g) to (%g,%g), or move the %s's ends so the line between them is clear",
						a.lineKind(), a.ID, o.ID, math.Round(at), math.Round(what), o.ID, math.Round(x1), math.Round(y1), math.Round(x2), math.Round(y2), a.lineKind())},
					[2]string{a.ID, o.ID}, false})
			}
		}
	}
	return out
}
