package whiteboard

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/lessongen/lessongen/internal/textfit"
)

// The layout model: where things go on a canvas and how big text must be to
// read. Validate, generation's checks and the prompt all read it from here;
// every figure is for a 1280-wide canvas and scales with the canvas width.
const (
	// referenceWidth is the canvas width the figures below are for.
	referenceWidth = DefaultWidth
	// minReadableFontSize is the smallest font size that reads from the back
	// of a classroom when the board fills the screen.
	minReadableFontSize = 14.0
	// bodyFontSize and headingFontSize are the sizes that read well.
	bodyFontSize    = textfit.DefaultFontSize
	headingFontSize = 40.0
	// margin is the free border around the canvas's content.
	margin = 40.0
	// headingHeight is the band the heading occupies: one line at
	// headingFontSize, as wide as the canvas between its margins, at the
	// top of the canvas inside the margin. Render draws it there, so content
	// starts headingGap below it.
	headingHeight = 64.0
	headingGap    = 16.0
)

// Geometry is the layout model of one canvas, in px.
type Geometry struct {
	Width, Height   float64
	Margin          float64
	Heading         textfit.Box // the band the heading occupies, at the top of the canvas
	HeadingFontSize float64
	BodyFontSize    float64
	MinFontSize     float64 // smaller text does not read at this canvas size
	ContentTop      float64
	ContentWidth    float64
	ContentHeight   float64
	scale           float64
}

// Bounds narrows the coordinates and sizes tools take to this canvas, for
// the schemas a model is shown: a box starts on the canvas (as checkBox
// requires) and is no bigger than it.
func (b *Board) Bounds() map[string][2]float64 {
	c := b.CanvasSize()
	w, h := float64(c.Width), float64(c.Height)
	return map[string][2]float64{"x": {0, w}, "y": {0, h}, "w": {1, w}, "h": {1, h}}
}

// Geometry returns the layout model of the board's canvas.
func (b *Board) Geometry() Geometry {
	c := b.CanvasSize()
	s := float64(c.Width) / referenceWidth
	g := Geometry{
		Width: float64(c.Width), Height: float64(c.Height), scale: s,
		Margin:          margin * s,
		Heading:         textfit.Box{X: margin * s, Y: margin * s, W: float64(c.Width) - 2*margin*s, H: headingHeight * s},
		HeadingFontSize: headingFontSize * s,
		BodyFontSize:    bodyFontSize * s,
		MinFontSize:     minReadableFontSize * s,
	}
	g.ContentTop = g.Margin
	if b.hasHeading() {
		g.ContentTop = g.Heading.Y + g.Heading.H + headingGap*s
	}
	g.ContentWidth = g.Width - 2*g.Margin
	g.ContentHeight = g.Height - g.ContentTop - g.Margin
	return g
}

// hasHeading reports whether the board has, or is to get, a heading: then
// its band is taken.
func (b *Board) hasHeading() bool { return b.Heading.Set || b.Heading.Pending }

// headingOverlap is the defect of an element drawn into the heading band.
func (g Geometry) headingOverlap(e *Element) string {
	h := g.Heading
	if e.X >= h.X+h.W || e.X+e.W <= h.X || e.Y >= h.Y+h.H || e.Y+e.H <= h.Y {
		return ""
	}
	return fmt.Sprintf("%s overlaps the heading band (y %g–%g); move it to y %g or below", e.ID, h.Y, h.Y+h.H, g.ContentTop)
}

// textStyle is how an element's text is drawn: its style's size and weight,
// with hints that never suggest a size below the readable floor.
func (g Geometry) textStyle(s *Style) textfit.Style {
	st := textfit.Style{MinFontSize: g.MinFontSize}
	if s != nil {
		st.FontSize, st.Bold = s.FontSize, s.Bold
	}
	return st
}

// textDefects judges an element's text against its box: overflow (with
// textfit's hint) and a font too small to read at this canvas size.
func (g Geometry) textDefects(e *Element) []string {
	var text string
	switch {
	case e.Type == KindCode:
		return g.codeDefects(e)
	case e.Type == KindTable:
		return g.tableDefects(e)
	case e.Type == KindBlank:
		return g.blankDefects(e)
	case e.Type == KindText && e.Text.Set:
		text = e.Text.Value
	case e.Type == KindShape && e.Label.Set:
		text = e.Label.Value
	default:
		return nil
	}
	var out []string
	st := g.textStyle(e.Style)
	if st.FontSize > 0 && st.FontSize < g.MinFontSize {
		out = append(out, fmt.Sprintf("%s has font size %g, too small to read on a %gpx-wide canvas; use at least %g",
			e.ID, st.FontSize, g.Width, g.MinFontSize))
	}
	if v := textfit.Fit(text, st, textfit.Box{X: e.X, Y: e.Y, W: e.W, H: e.H}); !v.Fits {
		what := "text"
		if e.Type == KindShape {
			what = "label"
		}
		out = append(out, fmt.Sprintf("%s's %s does not fit its %gx%g box: %s", e.ID, what, e.W, e.H, v.Hint))
	}
	return out
}

// headingDefect judges the heading against its band.
func (g Geometry) headingDefect(heading string) string {
	st := textfit.Style{FontSize: g.HeadingFontSize, Bold: true, MinFontSize: g.MinFontSize}
	if v := textfit.Fit(heading, st, g.Heading); !v.Fits {
		return "the heading does not fit the heading band: " + v.Hint
	}
	return ""
}

// minFreeBand is the smallest free strip worth naming to a model: one line
// of body text with room around it.
const minFreeBand = 40.0

// Brief states the canvas's geometry as numbers for a model's prompt:
// the canvas's rules, then the space its elements leave free.
func (b *Board) Brief() string { return b.CanvasRules() + " " + b.FreeSpace() }

// CanvasRules states the rules of the board's canvas: its size and margins, the
// heading band and the font sizes that read well. Every board of one size
// (with a heading, or without) gets the same text, so a prompt can put it
// before the node's own part and a server's prompt cache can share it.
func (b *Board) CanvasRules() string {
	g := b.Geometry()
	var s strings.Builder
	fmt.Fprintf(&s, "Geometry (px, from the top-left corner): the canvas is %gx%g; keep elements inside x %g–%g, y %g–%g (margins %g). ",
		g.Width, g.Height, g.Margin, g.Width-g.Margin, g.ContentTop, g.Height-g.Margin, g.Margin)
	if b.hasHeading() {
		fmt.Fprintf(&s, "The heading is drawn at the top of the canvas, in the band x %g–%g, y %g–%g, one line at font size %g bold: keep it short enough for that, keep elements out of that band, and do not repeat the heading. ",
			g.Heading.X, g.Heading.X+g.Heading.W, g.Heading.Y, g.Heading.Y+g.Heading.H, g.HeadingFontSize)
	}
	fmt.Fprintf(&s, "Font sizes that read well: %g for body text (one line is %g tall), never below %g.",
		g.BodyFontSize, g.BodyFontSize*textfit.LineHeight, g.MinFontSize)
	return s.String()
}

// FreeSpace names the full-width strips the board's elements leave free.
func (b *Board) FreeSpace() string {
	g := b.Geometry()
	bands := g.freeBands(b.elements())
	if len(bands) == 0 {
		return "No full-width strip is free: place new elements beside existing ones without overlapping them."
	}
	var s strings.Builder
	s.WriteString("Free full-width strips:")
	for i, band := range bands {
		if i > 0 {
			s.WriteString(",")
		}
		fmt.Fprintf(&s, " y %g–%g", band[0], band[1])
	}
	s.WriteString(".")
	return s.String()
}

// freeBands lists the horizontal strips of the content area that no
// element touches, at least minFreeBand tall.
func (g Geometry) freeBands(els []*Element) [][2]float64 {
	type span struct{ top, bottom float64 }
	var taken []span
	for _, e := range els {
		if !e.IsPlaceholder && e.Type != KindArrow {
			taken = append(taken, span{e.Y, e.Y + e.H})
		}
	}
	slices.SortFunc(taken, func(a, b span) int { return cmp.Compare(a.top, b.top) })
	var out [][2]float64
	at, end := g.ContentTop, g.Height-g.Margin
	for _, t := range taken {
		if t.top-at >= minFreeBand && t.top <= end {
			out = append(out, [2]float64{at, t.top})
		}
		at = max(at, t.bottom)
	}
	if end-at >= minFreeBand {
		out = append(out, [2]float64{at, end})
	}
	return out
}
