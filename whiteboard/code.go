package whiteboard

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/lessongen/lessongen/internal/textfit"
)

// A code element is code in Go Mono (textfit's Style.Mono), each line as
// written and never wrapped, on a light panel; its output, when it has
// one, sits under it on a dark panel of its own, so what was typed and
// what came back never read as one. The checks measure both as drawn.
const (
	// codeFontSize is the size code is drawn at when its style sets none:
	// 20 px Go Mono is 12 px a column, 80 columns in a 1000 px box.
	codeFontSize = 20.0
	// codePad is the space inside each panel around its text.
	codePad = 12.0
	// codeFill is the code panel's fill, codeRule its outline.
	codeFill Color = "#f6f8fa"
	codeRule Color = "#d0d7de"
	// outputFill and outputInk draw the output panel (contrast 12.6:1).
	outputFill Color = "#2d333b"
	outputInk  Color = "#e6edf3"
)

// codeStyle is how e's code and output are measured and drawn.
func (e *Element) codeStyle() textfit.Style {
	st := textfit.Style{FontSize: codeFontSize, Mono: true}
	if e.Style != nil && e.Style.FontSize > 0 {
		st.FontSize = e.Style.FontSize
	}
	return st
}

// hasOutput reports whether e has an output panel: written or to come.
func (e *Element) hasOutput() bool { return e.Output.Set || e.Output.Pending }

// codePanels splits e's box into the code panel and the output panel (zero
// when it has none): the code panel is as tall as its lines need, the
// output takes the rest.
func (e *Element) codePanels() (code, output textfit.Box) {
	box := e.box()
	if !e.hasOutput() {
		return box, textfit.Box{}
	}
	lines := max(len(textfit.Measure(e.Code.Value, e.codeStyle()).Lines), 1)
	h := min(float64(lines)*textfit.LineHeight*e.codeStyle().Size()+2*codePad, box.H)
	code = textfit.Box{X: box.X, Y: box.Y, W: box.W, H: h}
	return code, textfit.Box{X: box.X, Y: box.Y + h, W: box.W, H: box.H - h}
}

// codeText is what the fit check measures: the code, then the output's
// lines, in the room the panels leave inside their padding.
func (e *Element) codeFit() textfit.Verdict {
	text, room := e.Code.Value, e.box()
	room.W -= 2 * codePad
	room.H -= 2 * codePad
	if e.Output.Set {
		text += "\n" + e.Output.Value
		room.H -= 2 * codePad
	}
	st := e.codeStyle()
	st.MinFontSize = minReadableFontSize
	return textfit.Fit(text, st, room)
}

// codeDefects is the fit check of a code element: code and output in Go
// Mono against the box, line by line as drawn.
func (g Geometry) codeDefects(e *Element) []string {
	if !e.Code.Set {
		return nil
	}
	var out []string
	if size := e.codeStyle().Size(); size < g.MinFontSize {
		out = append(out, fmt.Sprintf("%s has font size %g, too small to read on a %gpx-wide canvas; use at least %g", e.ID, size, g.Width, g.MinFontSize))
	}
	if v := e.codeFit(); !v.Fits {
		out = append(out, fmt.Sprintf("%s's code does not fit its %gx%g box (each line as written, in a monospace face, %g px inside each panel's edge): %s", e.ID, e.W, e.H, codePad, v.Hint))
	}
	return out
}

// renderCode draws a code element: its panel and lines, then its output's.
func (e *Element) renderCode(s *strings.Builder) {
	code, output := e.codePanels()
	color, _, fill, _ := e.colors()
	if fill == "none" {
		fill = string(codeFill)
	}
	if e.Code.Pending {
		drawPlaceholder(s, e.box(), "code", e.Code.Hint)
		return
	}
	fmt.Fprintf(s, "<rect class=\"code-panel\" x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" rx=\"6\" fill=\"%s\" stroke=\"%s\" stroke-width=\"1\"/>",
		n(code.X), n(code.Y), n(code.W), n(code.H), html.EscapeString(fill), codeRule)
	st := e.codeStyle()
	s.WriteString(textfit.Wrap(e.Code.Value, st, math.Inf(1)).SVG(inset(code, codePad), "left", color))
	switch {
	case e.Output.Pending:
		drawPlaceholder(s, output, "output", e.Output.Hint)
	case e.Output.Set:
		fmt.Fprintf(s, "<rect class=\"code-output\" x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" rx=\"6\" fill=\"%s\"/>",
			n(output.X), n(output.Y), n(output.W), n(output.H), outputFill)
		s.WriteString(textfit.Wrap(e.Output.Value, st, math.Inf(1)).SVG(inset(output, codePad), "left", string(outputInk)))
	}
}

// inset is b shrunk by p on every side, never below nothing.
func inset(b textfit.Box, p float64) textfit.Box {
	return textfit.Box{X: b.X + p, Y: b.Y + p, W: max(b.W-2*p, 0), H: max(b.H-2*p, 0)}
}
