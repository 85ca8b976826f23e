package whiteboard

import (
	"fmt"

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
	// headingTop and headingHeight place the band the heading occupies, at
	// the top of the canvas, between the side margins.
	headingTop    = 16.0
	headingHeight = 64.0
)

// Geometry is the layout model of one canvas, in px.
type Geometry struct {
	Width, Height   float64
	Margin          float64
	Heading         textfit.Box // the band the heading occupies
	HeadingFontSize float64
	BodyFontSize    float64
	MinFontSize     float64 // smaller text does not read at this canvas size
	ContentTop      float64 // below the heading band
	ContentWidth    float64
	ContentHeight   float64
	scale           float64
}

// Geometry returns the layout model of the board's canvas.
func (b *Board) Geometry() Geometry {
	c := b.CanvasSize()
	s := float64(c.Width) / referenceWidth
	g := Geometry{
		Width: float64(c.Width), Height: float64(c.Height), scale: s,
		Margin:          margin * s,
		Heading:         textfit.Box{X: margin * s, Y: headingTop * s, W: float64(c.Width) - 2*margin*s, H: headingHeight * s},
		HeadingFontSize: headingFontSize * s,
		BodyFontSize:    bodyFontSize * s,
		MinFontSize:     minReadableFontSize * s,
	}
	g.ContentTop = g.Heading.Y + g.Heading.H
	g.ContentWidth = g.Width - 2*g.Margin
	g.ContentHeight = g.Height - g.ContentTop - g.Margin
	return g
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
