package whiteboard

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"golang.org/x/image/colornames"

	"github.com/lessongen/lessongen/internal/textfit"
)

// How colours are drawn, and the contrast text needs to read. One place for
// the defaults render draws with and the checks measure against.
const (
	// defaultInk is the text and line colour when a style names none.
	defaultInk Color = "#1b1f24"
	// defaultCanvas is the canvas colour when the board names none, as
	// render draws it.
	defaultCanvas Color = "white"
	// minContrast and minContrastLarge are WCAG 2 AA's contrast ratios for
	// normal and large text.
	minContrast      = 4.5
	minContrastLarge = 3.0
	// largeText and largeBoldText are WCAG's "large text" (18pt, or 14pt
	// bold) in px.
	largeText     = 24.0
	largeBoldText = 18.66
)

// inks is how an element's style is drawn: text colour, outline (or line)
// colour and fill ("" for none). An old-style `color` on a shape or arrow
// is both its text and its line colour, as it always was; `stroke` sets the
// line alone, so the text can differ from the outline.
func (e *Element) inks() (text, stroke, fill Color) {
	text, stroke = defaultInk, defaultInk
	if s := e.Style; s != nil {
		if s.Color != "" {
			text, stroke = s.Color, s.Color
		}
		if s.Stroke != "" {
			stroke = s.Stroke
		}
		fill = s.Fill
	}
	return text, stroke, fill
}

// rgb is a colour as linear-light-free sRGB channels 0–1 and its opacity.
type rgb struct{ r, g, b, a float64 }

// parse reads a colour Check accepts; ok is false for anything else.
func (c Color) parse() (rgb, bool) {
	s := strings.ToLower(strings.TrimSpace(string(c)))
	switch {
	case s == "transparent":
		return rgb{}, true
	case s == "rebeccapurple": // CSS 4; newer than colornames' SVG list
		s = "#663399"
	}
	if v, ok := colornames.Map[s]; ok {
		return rgb{float64(v.R) / 255, float64(v.G) / 255, float64(v.B) / 255, 1}, true
	}
	if h, ok := strings.CutPrefix(s, "#"); ok {
		if len(h) == 3 || len(h) == 4 {
			var b strings.Builder
			for _, r := range h {
				b.WriteRune(r)
				b.WriteRune(r)
			}
			h = b.String()
		}
		if len(h) == 6 {
			h += "ff"
		}
		v, err := strconv.ParseUint(h, 16, 32)
		if err != nil || len(h) != 8 {
			return rgb{}, false
		}
		return rgb{float64(v>>24&0xff) / 255, float64(v>>16&0xff) / 255, float64(v>>8&0xff) / 255, float64(v&0xff) / 255}, true
	}
	inner, ok := strings.CutSuffix(s, ")")
	if i := strings.IndexByte(inner, '('); ok && i > 0 {
		parts := strings.Split(inner[i+1:], ",")
		if len(parts) < 3 || len(parts) > 4 {
			return rgb{}, false
		}
		ch := make([]float64, 4)
		ch[3] = 1
		for j, p := range parts {
			p = strings.TrimSpace(p)
			pct := strings.HasSuffix(p, "%")
			v, err := strconv.ParseFloat(strings.TrimSuffix(p, "%"), 64)
			if err != nil {
				return rgb{}, false
			}
			switch {
			case j == 3:
			case pct:
				v /= 100
			default:
				v /= 255
			}
			ch[j] = math.Min(math.Max(v, 0), 1)
		}
		return rgb{ch[0], ch[1], ch[2], ch[3]}, true
	}
	return rgb{}, false
}

// over composites c on an opaque backdrop.
func (c rgb) over(bg rgb) rgb {
	mix := func(x, y float64) float64 { return x*c.a + y*(1-c.a) }
	return rgb{mix(c.r, bg.r), mix(c.g, bg.g), mix(c.b, bg.b), 1}
}

// luminance is WCAG 2's relative luminance.
func (c rgb) luminance() float64 {
	lin := func(v float64) float64 {
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.r) + 0.7152*lin(c.g) + 0.0722*lin(c.b)
}

// contrast is WCAG 2's contrast ratio of two opaque colours, 1–21.
func contrast(a, b rgb) float64 {
	la, lb := a.luminance(), b.luminance()
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

func (c rgb) hex() Color {
	to := func(v float64) int { return int(math.Round(v * 255)) }
	return Color(fmt.Sprintf("#%02x%02x%02x", to(c.r), to(c.g), to(c.b)))
}

// readable is the text colour nearest to ink (the same hue, darker or
// lighter, whichever the backdrop allows) that reaches need on bg.
func readable(ink, bg rgb, need float64) Color {
	toward := rgb{0, 0, 0, 1}
	if bg.luminance() < 0.18 {
		toward = rgb{1, 1, 1, 1}
	}
	for t := 0.05; t < 1; t += 0.05 {
		c := rgb{ink.r + (toward.r-ink.r)*t, ink.g + (toward.g-ink.g)*t, ink.b + (toward.b-ink.b)*t, 1}
		// Judged as written (rounded to #rrggbb), so the suggestion passes.
		if h := c.hex(); h.passes(bg, need) {
			return h
		}
	}
	return toward.hex()
}

func (c Color) passes(bg rgb, need float64) bool {
	v, ok := c.parse()
	return ok && contrast(v, bg) >= need
}

// backdrop is the colour drawn behind e's text: its own fill, else the
// fill of the last element drawn before it that holds its centre, else
// the canvas. An arrow's label sits on its own panel (arrowLabelPanel)
// over the canvas. Render draws elements in list order, so "before" is
// "under".
func (b *Board) backdrop(e *Element) (rgb, string) {
	canvas := b.CanvasSize().Background
	if canvas == "" {
		canvas = defaultCanvas
	}
	bg, _ := canvas.parse()
	bg = bg.over(rgb{1, 1, 1, 1}) // the page behind a see-through canvas
	what := "the canvas (" + string(canvas) + ")"
	if e.Type == KindArrow {
		panel, _ := arrowLabelPanel.parse()
		return panel.over(bg), "its label panel over the canvas (" + string(canvas) + ")"
	}
	cx, cy := e.X+e.W/2, e.Y+e.H/2
	for _, o := range b.elements() {
		if o == e {
			break
		}
		if o.IsPlaceholder || o.Type == KindArrow || cx < o.X || cx > o.X+o.W || cy < o.Y || cy > o.Y+o.H {
			continue
		}
		fill := o.fillDrawn()
		if c, ok := fill.parse(); ok && fill != "" {
			bg, what = c.over(bg), fmt.Sprintf("%s's fill (%s)", o.ID, fill)
		}
	}
	if fill := e.fillDrawn(); fill != "" {
		if c, ok := fill.parse(); ok {
			bg, what = c.over(bg), "its fill ("+string(fill)+")"
		}
	}
	return bg, what
}

// fillDrawn is the fill render paints for o ("" for none).
func (o *Element) fillDrawn() Color {
	if o.Type == KindImage {
		return imageFill
	}
	if o.Type == KindEquation || o.Type == KindBlank || o.Type == KindShape && o.Shape == "line" {
		return "" // drawn without a fill
	}
	_, _, fill := o.inks()
	switch {
	case fill != "":
	case o.Type == KindCode:
		return codeFill
	case o.Type == KindTable:
		return tableFill
	}
	return fill
}

// arrowLabelPanel is the see-through panel an arrow's label is drawn on.
const arrowLabelPanel Color = "rgba(255, 255, 255, 0.8)"

// imageFill is the panel an image placeholder is drawn on.
const imageFill Color = "#eef2f6"

// contrastDefect judges the contrast of e's text with what lies behind it
// (WCAG AA), naming the ratio and a colour that would pass.
func (b *Board) contrastDefect(e *Element) string {
	var what string
	switch {
	case e.Type == KindText && e.Text.Set:
		what = "text"
	case e.Type == KindShape && e.Label.Set && e.Shape != "line":
		what = "label"
	case e.Type == KindEquation && e.Latex.Set:
		what = "equation"
	case e.Type == KindArrow && e.Label.Set:
		what = "label"
	case e.Type == KindBlank && e.Label.Set:
		what = "label"
	case e.Type == KindCode && e.Code.Set:
		what = "code"
	case e.Type == KindTable && e.Header.Set:
		what = "table text"
	default:
		return ""
	}
	textColor, _, _ := e.inks()
	ink, ok := textColor.parse()
	if !ok {
		return "" // Check reports the colour itself
	}
	bg, behind := b.backdrop(e)
	ink = ink.over(bg)
	size, bold := textfit.DefaultFontSize, false
	switch {
	case e.Type == KindArrow:
		size = arrowLabelFontSize // drawn at a fixed size, on its own panel
	case e.Type == KindCode:
		size = e.codeStyle().Size() // never bold
	case e.Type == KindTable:
		size = e.grid().style.Size() // its cells' text, the header aside
	case e.Style != nil:
		if e.Style.FontSize > 0 {
			size = e.Style.FontSize
		}
		bold = e.Style.Bold
	}
	need := minContrast
	if size >= largeText || bold && size >= largeBoldText {
		need = minContrastLarge
	}
	ratio := contrast(ink, bg)
	if ratio >= need {
		return ""
	}
	fix, _ := textColor.parse()
	return fmt.Sprintf("%s's %s colour %s on %s has contrast %.1f:1, below the %g:1 WCAG AA asks for text of size %g; use style.color %s or a fill that contrasts more",
		e.ID, what, textColor, behind, math.Floor(ratio*10)/10, need, size, readable(fix, bg, need))
}
