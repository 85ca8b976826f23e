package whiteboard

import (
	"fmt"
	"math"
	"strings"

	"github.com/lessongen/lessongen/internal/textfit"
)

// Review is what describe_whiteboard reports: the description (Describe)
// and, for each element, how it is drawn (its colours and type, defaults
// filled in, so nothing reads as unset) and how its text fits its box,
// measured by the same layout model the checks use.
func (b *Board) Review() string {
	var s strings.Builder
	s.WriteString(b.Describe())
	g := b.Geometry()
	first := true
	for _, e := range b.elements() {
		if e.IsPlaceholder {
			continue
		}
		if first {
			s.WriteString("\nStyle and text fit, element by element:")
			first = false
		}
		fmt.Fprintf(&s, "\n- %s: %s", e.ID, e.drawnStyle())
		if fit := g.fitNote(e); fit != "" {
			s.WriteString("; " + fit)
		}
		if len(e.Sources) > 0 {
			s.WriteString("; cites " + strings.Join(e.Sources, ", "))
		}
	}
	return s.String()
}

// drawnStyle says how e is drawn, defaults included.
func (e *Element) drawnStyle() string {
	text, stroke, fill := e.inks()
	if fill == "" {
		fill = "none"
	}
	var parts []string
	switch e.Type {
	case KindText, KindEquation:
		parts = append(parts, "color "+string(text))
		if e.Style != nil && e.Style.Stroke != "" {
			parts = append(parts, fmt.Sprintf("outline %s %gpx", stroke, e.strokeWidth(2)))
		} else if e.Type == KindText {
			parts = append(parts, "no outline")
		}
	case KindImage:
		return "an image panel (" + string(imageFill) + ")"
	default:
		parts = append(parts, "color "+string(text), "stroke "+string(stroke))
	}
	if d := e.fillDrawn(); d != "" && fill == "none" {
		fill = d // a code panel's or a table's own
	}
	if e.Type != KindArrow && e.fillDrawn() != "" || e.Type == KindText || e.Type == KindShape && e.Shape != "line" {
		parts = append(parts, "fill "+string(fill))
	}
	st := e.renderStyle()
	switch {
	case e.Type == KindCode:
		parts = append(parts, fmt.Sprintf("monospace font %g, output on a %s panel", e.codeStyle().Size(), outputFill))
	case e.Type == KindTable:
		parts = append(parts, fmt.Sprintf("font %g (header bold)", e.grid().style.Size()))
	case e.Type == KindArrow:
		parts = append(parts, fmt.Sprintf("label font %g", arrowLabelFontSize))
	case e.Type == KindShape && e.Shape == "line":
	default:
		size := fmt.Sprintf("font %g", st.Size())
		if st.Bold {
			size += " bold"
		}
		parts = append(parts, size)
	}
	if e.Style != nil && e.Style.Align != "" {
		parts = append(parts, "align "+e.Style.Align)
	}
	return strings.Join(parts, ", ")
}

// fitNote measures e's text in its box: lines, the room it needs and
// whether that fits ("" for an element without text in a box).
func (g Geometry) fitNote(e *Element) string {
	var text string
	switch {
	case e.Type == KindText && e.Text.Set:
		text = e.Text.Value
	case e.Type == KindShape && e.Label.Set:
		text = e.Label.Value
	case e.Type == KindCode && e.Code.Set:
		v := e.codeFit()
		fit := fmt.Sprintf("code and output %d line(s) needing %gx%g inside its panels' padding", len(v.Lines), math.Ceil(v.Need.W), math.Ceil(v.Need.H))
		if v.Fits {
			return fit + ": fits"
		}
		return fit + ": does not fit"
	default:
		return ""
	}
	v := textfit.Fit(text, g.textStyle(e.Style), e.box())
	r := func(x float64) float64 { return math.Ceil(x) }
	fit := fmt.Sprintf("text %d line(s) needing %gx%g of its %gx%g box", len(v.Lines), r(v.Need.W), r(v.Need.H), e.W, e.H)
	if v.Fits {
		fit += ": fits"
	} else {
		fit += ": does not fit"
	}
	// Where the text sits: a line aimed at the box's middle meets it
	// only if it is there.
	_, _, _, align := e.colors()
	if align == "" {
		align = "left"
	}
	if e.Type == KindText {
		return fit + fmt.Sprintf("; drawn from the box's top down (y %g to %g), %s-aligned", e.Y, r(e.Y+v.Need.H), align)
	}
	return fit + "; centred in the shape"
}
