package whiteboard

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/lessongen/lessongen/internal/textfit"
	"github.com/lessongen/lessongen/modality"
)

// Render draws the whiteboard for `lessongen render`: its heading and the
// canvas as inline SVG at the canvas's aspect ratio, text wrapped by the
// layout model the checks use, pending spots as dashed placeholders with
// their hints.
func Render(b *Board, bound map[string]string) modality.Rendered {
	c := b.CanvasSize()
	var s strings.Builder
	heading := b.Heading.Value
	if !b.Heading.Set && bound["heading"] != "" {
		heading = bound["heading"]
	}
	bg := "white"
	if c.Background != "" {
		bg = string(c.Background)
	}
	fmt.Fprintf(&s, "<svg class=\"whiteboard\" viewBox=\"0 0 %d %d\" preserveAspectRatio=\"xMidYMid meet\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">\n", c.Width, c.Height)
	fmt.Fprintf(&s, "<rect class=\"canvas\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", c.Width, c.Height, html.EscapeString(bg))
	// The heading is drawn in its band at the top of the canvas, with the
	// style the heading check measures.
	g := b.Geometry()
	switch {
	case heading != "":
		st := textfit.Style{FontSize: g.HeadingFontSize, Bold: true}
		fmt.Fprintf(&s, "<g class=\"wb-heading\">%s</g>\n", textfit.Wrap(heading, st, g.Heading.W).SVG(g.Heading, "left", "#1b1f24"))
	case b.Heading.Pending:
		drawPlaceholder(&s, g.Heading, "heading", b.Heading.Hint)
	}
	if b.Elements.Pending {
		// The whole element list is to be generated: one placeholder over
		// the canvas, inset so its dashes show.
		top := 20.0
		if b.hasHeading() {
			top = g.ContentTop // below the heading band
		}
		drawPlaceholder(&s, textfit.Box{X: 20, Y: top, W: float64(c.Width) - 40, H: float64(c.Height) - top - 20}, "elements", b.Elements.Hint)
	}
	// Shapes and boxes first, arrows over them, so an arrow's label is not
	// hidden under the box it points at. A pending element with no box of
	// its own goes in the free band at the foot of the canvas, or, when
	// elements are there, under the canvas, so it hides nothing.
	var below []*Element
	for _, e := range b.elements() {
		if e.IsPlaceholder {
			if box, ok := b.placeholderBox(e, c); ok {
				drawPlaceholder(&s, box, "element", e.Hint)
			} else {
				below = append(below, e)
			}
			continue
		}
		if e.Type != KindArrow {
			e.render(&s)
		}
	}
	for _, e := range b.elements() {
		if !e.IsPlaceholder && e.Type == KindArrow {
			b.renderArrow(&s, e)
		}
	}
	s.WriteString("</svg>\n")
	for _, e := range below {
		fmt.Fprintf(&s, "<div class=\"pending\">%s</div>\n", pendingLabel("element", e.Hint))
	}
	var cited []modality.Cited
	for _, e := range b.elements() {
		if !e.IsPlaceholder {
			cited = append(cited, modality.Cited{Item: string(e.Type) + " " + e.ID, Sources: e.Sources})
		}
	}
	return modality.Rendered{Body: s.String(), Notes: modality.CitationNotes("Whiteboard sources", cited), Credits: b.credits(), Title: heading}
}

// placeholderBox is where a pending element is drawn on the canvas: its
// own box when it has one, else a band across the foot of the canvas if no
// element is there; false when it has no room.
func (b *Board) placeholderBox(e *Element, c Canvas) (textfit.Box, bool) {
	if e.W > 0 && e.H > 0 {
		return e.box(), true
	}
	band := textfit.Box{X: 40, Y: float64(c.Height) * 0.6, W: float64(c.Width) - 80, H: float64(c.Height)*0.4 - 40}
	for _, o := range b.elements() {
		if o.IsPlaceholder || o.Type == KindArrow {
			continue
		}
		if o.X < band.X+band.W && band.X < o.X+o.W && o.Y < band.Y+band.H && band.Y < o.Y+o.H {
			return textfit.Box{}, false
		}
	}
	return band, true
}

func (e *Element) box() textfit.Box { return textfit.Box{X: e.X, Y: e.Y, W: e.W, H: e.H} }

// renderStyle is the text style of e as drawn. The checks measure with the
// same style, so what fits there fits here.
func (e *Element) renderStyle() textfit.Style {
	if e.Style == nil {
		return textfit.Style{}
	}
	return textfit.Style{FontSize: e.Style.FontSize, Bold: e.Style.Bold}
}

// colors is how e is drawn (see inks): text colour, line colour, fill
// ("none" for none) and alignment.
func (e *Element) colors() (color, stroke, fill, align string) {
	text, line, f := e.inks()
	fill = "none"
	if f != "" {
		fill = string(f)
	}
	if e.Style != nil {
		align = e.Style.Align
	}
	return string(text), string(line), fill, align
}

func (e *Element) render(s *strings.Builder) {
	color, line, fill, align := e.colors()
	box := e.box()
	fmt.Fprintf(s, "<g class=\"el %s\" data-id=\"%s\">", e.Type, html.EscapeString(e.ID))
	switch e.Type {
	case KindText:
		if e.Text.Pending {
			s.WriteString("</g>")
			drawPlaceholder(s, box, "text", e.Text.Hint)
			return
		}
		switch {
		case e.Style != nil && e.Style.Stroke != "":
			fmt.Fprintf(s, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"/>", n(box.X), n(box.Y), n(box.W), n(box.H), html.EscapeString(fill), html.EscapeString(line), n(e.strokeWidth(2)))
		case fill != "none":
			fmt.Fprintf(s, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\"/>", n(box.X), n(box.Y), n(box.W), n(box.H), html.EscapeString(fill))
		}
		s.WriteString(textfit.Wrap(e.Text.Value, e.renderStyle(), box.W).SVG(box, align, color))
	case KindShape:
		stroke := fmt.Sprintf(" fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"", html.EscapeString(fill), html.EscapeString(line), n(e.strokeWidth(3)))
		switch e.Shape {
		case "ellipse", "circle":
			fmt.Fprintf(s, "<ellipse cx=\"%s\" cy=\"%s\" rx=\"%s\" ry=\"%s\"%s/>", n(box.X+box.W/2), n(box.Y+box.H/2), n(box.W/2), n(box.H/2), stroke)
		case "line":
			fmt.Fprintf(s, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\" stroke-width=\"%s\"/>", n(box.X), n(box.Y), n(box.X+box.W), n(box.Y+box.H), html.EscapeString(line), n(e.strokeWidth(3)))
		default:
			fmt.Fprintf(s, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" rx=\"8\"%s/>", n(box.X), n(box.Y), n(box.W), n(box.H), stroke)
		}
		e.renderLabel(s, box, color)
	case KindEquation:
		if e.Latex.Pending {
			s.WriteString("</g>")
			drawPlaceholder(s, box, "equation", e.Latex.Hint)
			return
		}
		s.WriteString(equationSVG(e.Latex.Value, box, e.renderStyle(), color))
	case KindCode:
		e.renderCode(s)
	case KindTable:
		e.renderTable(s)
	case KindBlank:
		e.renderBlank(s)
	case KindImage:
		if e.renderPicture(s, box) {
			break
		}
		fmt.Fprintf(s, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\" stroke=\"#8a96a3\" stroke-width=\"2\"/>", n(box.X), n(box.Y), n(box.W), n(box.H), imageFill)
		fmt.Fprintf(s, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"#c5ccd4\"/><line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"#c5ccd4\"/>",
			n(box.X), n(box.Y), n(box.X+box.W), n(box.Y+box.H), n(box.X+box.W), n(box.Y), n(box.X), n(box.Y+box.H))
		description, alt := e.imageText()
		text := "Image: " + fieldText(description.Value, description.Pending, description.Hint) +
			"\nAlt: " + fieldText(alt.Value, alt.Pending, alt.Hint)
		inner := textfit.Box{X: box.X + 10, Y: box.Y + 10, W: max(box.W-20, 0), H: max(box.H-20, 0)}
		st := textfit.Style{FontSize: min(20, max(box.H/6, 10))}
		// A pending description's or alt's hint is the model's: a gap in a
		// handout (the frame alone), as a pending label is.
		writeLabel(s, textfit.Wrap(text, st, inner.W).SVG(inner, "left", "#3d4852"), description.Pending || alt.Pending)
	}
	s.WriteString("</g>\n")
}

// renderLabel centres a shape's or arrow's label in box.
func (e *Element) renderLabel(s *strings.Builder, box textfit.Box, color string) {
	label := e.Label.Value
	if e.Label.Pending {
		label = PendingLabel + e.Label.Hint
	}
	if label == "" {
		return
	}
	l := textfit.Wrap(label, e.renderStyle(), box.W)
	top := textfit.Box{X: box.X, Y: box.Y + (box.H-l.Height)/2, W: box.W, H: l.Height}
	writeLabel(s, l.SVG(top, "center", color), e.Label.Pending)
}

// writeLabel writes a label's SVG, a pending one's (its hint) marked so
// that a handout can leave a gap in its place.
func writeLabel(s *strings.Builder, svg string, pending bool) {
	if pending {
		s.WriteString("<g class=\"pending-label\">" + svg + "</g>")
		return
	}
	s.WriteString(svg)
}

// renderArrow draws an arrow where arrowLine puts it (see arrows.go), with
// its label at the midpoint. An arrow naming a missing element is drawn as a dashed
// stub with a note, so the defect is visible.
func (b *Board) renderArrow(s *strings.Builder, e *Element) {
	color, line, _, _ := e.colors()
	x1, y1, x2, y2, ok := b.arrowLine(e)
	if !ok {
		fmt.Fprintf(s, "<g class=\"el arrow missing\" data-id=\"%s\"><text x=\"10\" y=\"%d\" font-family=\"'%s'\" font-size=\"16\" fill=\"#b42318\">arrow %s: %s → %s (missing element)</text></g>\n",
			html.EscapeString(e.ID), 24, textfit.FontFamily, html.EscapeString(e.ID), html.EscapeString(e.From), html.EscapeString(e.To))
		return
	}
	fmt.Fprintf(s, "<g class=\"el arrow\" data-id=\"%s\"><line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\" stroke-width=\"%s\"/>%s",
		html.EscapeString(e.ID), n(x1), n(y1), n(x2), n(y2), html.EscapeString(line), n(e.strokeWidth(3)), e.heads(x1, y1, x2, y2, line))
	if e.Label.Set || e.Label.Pending {
		mx, my := (x1+x2)/2, (y1+y2)/2
		w := max(math.Hypot(x2-x1, y2-y1), 120)
		lbl := e.Label.Value
		if e.Label.Pending {
			lbl = PendingLabel + e.Label.Hint
		}
		l := textfit.Wrap(lbl, textfit.Style{FontSize: arrowLabelFontSize}, w)
		box := textfit.Box{X: mx - w/2, Y: my - l.Height - 4, W: w, H: l.Height}
		fmt.Fprintf(s, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"white\" fill-opacity=\"0.8\"/>", n(mx-l.Width/2-4), n(box.Y), n(l.Width+8), n(l.Height)) // arrowLabelPanel
		writeLabel(s, l.SVG(box, "center", color), e.Label.Pending)
	}
	s.WriteString("</g>\n")
}

// strokeWidth is e's line width: its style's, else def.
func (e *Element) strokeWidth(def float64) float64 {
	if e.Style != nil && e.Style.StrokeWidth > 0 {
		return e.Style.StrokeWidth
	}
	return def
}

// heads draws the arrowheads of the line (x1,y1)→(x2,y2), by e's heads.
func (e *Element) heads(x1, y1, x2, y2 float64, color string) string {
	sw := e.strokeWidth(3)
	switch e.Heads {
	case "none":
		return ""
	case "start":
		return arrowHead(x2, y2, x1, y1, sw, color)
	case "both":
		return arrowHead(x2, y2, x1, y1, sw, color) + arrowHead(x1, y1, x2, y2, sw, color)
	}
	return arrowHead(x1, y1, x2, y2, sw, color)
}

// arrowHead is the head at (x2,y2) of a line from (x1,y1) of stroke width
// sw, as a filled triangle drawn in place. A shared <marker> would need an
// id, and ids repeat when boards share a page: url(#id) then resolves to
// the first board's marker, which draws nothing while that board is
// hidden (present mode). Its size follows the stroke: 8 widths long and
// wide, its tip 0.8 widths past the line's end so the line's butt is
// covered.
func arrowHead(x1, y1, x2, y2, sw float64, color string) string {
	d := math.Hypot(x2-x1, y2-y1)
	if d == 0 {
		return ""
	}
	ux, uy := (x2-x1)/d, (y2-y1)/d
	tx, ty := x2+ux*0.8*sw, y2+uy*0.8*sw
	bx, by := x2-ux*7.2*sw, y2-uy*7.2*sw
	px, py := -uy*4*sw, ux*4*sw
	return fmt.Sprintf("<path class=\"head\" d=\"M%s,%s L%s,%s L%s,%s z\" fill=\"%s\"/>",
		n(tx), n(ty), n(bx+px), n(by+py), n(bx-px), n(by-py), html.EscapeString(color))
}

// edge is where a ray from box's centre in direction (dx, dy) leaves the
// box.
func edge(b textfit.Box, dx, dy float64) (float64, float64) {
	cx, cy := b.X+b.W/2, b.Y+b.H/2
	if dx == 0 && dy == 0 {
		return cx, cy
	}
	t := math.Inf(1)
	if dx != 0 {
		t = min(t, (b.W/2)/math.Abs(dx))
	}
	if dy != 0 {
		t = min(t, (b.H/2)/math.Abs(dy))
	}
	return cx + dx*t, cy + dy*t
}

// drawPlaceholder draws a pending spot: a dashed box with what it is and
// the author's hint, so nothing pending is hidden.
func drawPlaceholder(s *strings.Builder, box textfit.Box, what, hint string) {
	fmt.Fprintf(s, "<g class=\"pending\"><rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"#fff8e6\" stroke=\"#b7791f\" stroke-width=\"2\" stroke-dasharray=\"10 6\"/>", n(box.X), n(box.Y), n(box.W), n(box.H))
	text := "pending " + what
	if hint != "" {
		text += ": " + hint
	}
	inner := textfit.Box{X: box.X + 8, Y: box.Y + 6, W: max(box.W-16, 0), H: max(box.H-12, 0)}
	st := textfit.Style{FontSize: min(22, max(box.H/4, 10))}
	s.WriteString(textfit.Wrap(text, st, inner.W).SVG(inner, "left", "#7a4a00"))
	s.WriteString("</g>\n")
}

func pendingLabel(what, hint string) string {
	if hint == "" {
		return "pending " + html.EscapeString(what)
	}
	return "pending " + html.EscapeString(what) + ": " + html.EscapeString(hint)
}

func fieldText(v string, pending bool, hint string) string {
	if pending {
		if hint == "" {
			return "(pending)"
		}
		return "(pending: " + hint + ")"
	}
	return v
}

// n formats a coordinate to 1/100 px: stable in golden files.
func n(v float64) string { return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64) }
