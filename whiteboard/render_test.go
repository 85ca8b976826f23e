package whiteboard

import (
	"math"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/textfit"
	"github.com/lessongen/lessongen/internal/yamlsrc"
)

// An arrow leaves its box where the line between the centres crosses the
// box's edge.
func TestEdge(t *testing.T) {
	b := textfit.Box{X: 0, Y: 0, W: 200, H: 100}
	for _, c := range []struct{ dx, dy, x, y float64 }{
		{1, 0, 200, 50}, {-1, 0, 0, 50}, {0, 1, 100, 100}, {0, -3, 100, 0},
		{100, 100, 150, 100}, {0, 0, 100, 50},
	} {
		x, y := edge(b, c.dx, c.dy)
		if math.Abs(x-c.x) > 1e-9 || math.Abs(y-c.y) > 1e-9 {
			t.Errorf("edge(%g,%g) = (%g,%g), want (%g,%g)", c.dx, c.dy, x, y, c.x, c.y)
		}
	}
}

// Text is wrapped by the layout model: the SVG has the lines textfit.Wrap
// gives for the element's width and style.
func TestRenderWrapsLikeTextfit(t *testing.T) {
	text := "A sentence long enough to wrap onto more than one line in a narrow box"
	e := &Element{ID: "t", Type: KindText, X: 10, Y: 10, W: 200, H: 300, Text: yamlsrc.Val(text), Style: &Style{FontSize: 20}}
	var s strings.Builder
	e.render(&s)
	l := textfit.Wrap(text, textfit.Style{FontSize: 20}, 200)
	if len(l.Lines) < 2 {
		t.Fatalf("test text does not wrap: %v", l.Lines)
	}
	if got := strings.Count(s.String(), "<tspan"); got != len(l.Lines) {
		t.Errorf("drawn in %d lines, textfit wraps into %d", got, len(l.Lines))
	}
	if !strings.Contains(s.String(), l.SVG(e.box(), "", "#1b1f24")) {
		t.Errorf("the element's text is not textfit's SVG:\n%s", s.String())
	}
}
