package whiteboard

import (
	"fmt"
	"html"
	"strings"

	"github.com/lessongen/lessongen/internal/textfit"
)

// A blank element is an answer space: its label ("x̄ =") on the first
// ruled line, the rest of that line and every line under it left to write
// on, as a worksheet rules them. A box one line tall is one rule.
const (
	// ruleGap is the distance between rules, in font sizes: room for
	// handwriting the size of the label.
	ruleGap = 1.8
	// minWritingRoom is the least of the first rule the label must leave
	// free, in font sizes: room for a number or a word.
	minWritingRoom = 4.0
	// labelGap is the space between the label and its rule.
	labelGap = 8.0
)

// blankLayout is where a blank's label and rules go.
type blankLayout struct {
	label textfit.Layout
	// rules are the y of each rule; the first starts at x0, after the
	// label, the rest at the box's left edge.
	rules []float64
	x0    float64
}

func (e *Element) blankLayout() blankLayout {
	st := e.renderStyle()
	var l blankLayout
	if e.Label.Set || e.Label.Pending {
		l.label = textfit.Measure(e.labelText(), st)
	}
	box, gap := e.box(), ruleGap*st.Size()
	if box.H < gap {
		gap = box.H
	}
	for y := box.Y + gap; y <= box.Y+box.H+1e-6; y += gap {
		l.rules = append(l.rules, y)
	}
	l.x0 = box.X
	if l.label.Width > 0 {
		l.x0 += l.label.Width + labelGap
	}
	return l
}

// PendingLabel opens a pending label as every render draws it, before
// its hint; render's gaps find it by this.
const PendingLabel = "… "

// labelText is the label as drawn: a pending one shows its hint.
func (e *Element) labelText() string {
	if e.Label.Pending {
		return PendingLabel + e.Label.Hint
	}
	return e.Label.Value
}

// blankDefects is the fit check of an answer space: its label must fit the
// box and leave room to write on the first rule.
func (g Geometry) blankDefects(e *Element) []string {
	if !e.Label.Set {
		return nil
	}
	st := e.renderStyle()
	l := e.blankLayout()
	need := l.label.Width + labelGap + minWritingRoom*st.Size()
	switch {
	case st.Size() < g.MinFontSize:
		return []string{fmt.Sprintf("%s has font size %g, too small to read on a %gpx-wide canvas; use at least %g", e.ID, st.Size(), g.Width, g.MinFontSize)}
	case l.label.Height > e.H+1e-6:
		return []string{fmt.Sprintf("%s's label needs %g px of height, the box has %g; make the box taller or the label shorter", e.ID, l.label.Height, e.H)}
	case need > e.W+1e-6:
		return []string{fmt.Sprintf("%s's label leaves too little room to write: label and answer need %g px of width, the box has %g; make the box %g px wider or the label shorter",
			e.ID, roundUp(need), e.W, roundUp(need-e.W))}
	}
	return nil
}

func roundUp(v float64) float64 { return float64(int(v + 0.999)) }

// renderBlank draws an answer space: the label and the ruled lines, with
// nothing on them.
func (e *Element) renderBlank(s *strings.Builder) {
	color, line, _, _ := e.colors()
	l := e.blankLayout()
	box := e.box()
	if len(l.label.Lines) > 0 && len(l.rules) > 0 {
		at := textfit.Box{X: box.X, Y: l.rules[0] - l.label.Height - 2, W: l.label.Width, H: l.label.Height}
		s.WriteString(l.label.SVG(at, "left", color))
	}
	for i, y := range l.rules {
		x := box.X
		if i == 0 {
			x = l.x0
		}
		fmt.Fprintf(s, "<line class=\"answer-line\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\" stroke-width=\"%s\"/>",
			n(x), n(y-1), n(box.X+box.W), n(y-1), html.EscapeString(line), n(e.strokeWidth(2)))
	}
}
