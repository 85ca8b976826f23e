package whiteboard_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/whiteboard"
)

const crossingSrc = `elements:
  - id: leaf
    type: shape
    shape: rect
    x: 40
    y: 40
    w: 1000
    h: 600
  - id: water
    type: text
    x: 80
    y: 300
    w: 160
    h: 60
    text: Water
  - id: stack
    type: shape
    shape: rect
    x: 400
    y: 280
    w: 200
    h: 100
    label: Thylakoid stack
  - id: sugar
    type: text
    x: 800
    y: 300
    w: 160
    h: 60
    text: Sugar
  - id: flow
    type: arrow
    from: water
    to: sugar
`

// An arrow through an element that is not its end is a warning at the
// arrow's line saying where; the leaf holding both ends is no defect.
func TestArrowCrossingIsADefect(t *testing.T) {
	_, warns := decode(t, crossingSrc)
	var got []string
	for _, w := range warns {
		if strings.Contains(w.Message, "crosses") {
			got = append(got, fmt.Sprintf("board.yaml:%d: %s", w.Line, w.Message))
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], "board.yaml:31:") || !strings.Contains(got[0], "arrow flow crosses stack at about (500,330); move stack off the line from (240,330) to (800,330)") {
		t.Errorf("crossing warnings: %q", got)
	}
}

// A tool result says so too, and moving the element clear says [] again.
func TestArrowCrossingInToolResults(t *testing.T) {
	s, b := newSession(t, "elements: []\n")
	add := func(in whiteboard.AddText, id string) {
		in.ID = id
		apply(t, s, b, in)
	}
	add(whiteboard.AddText{Box: box(40, 300, 160, 60), Text: "Water"}, "water")
	add(whiteboard.AddText{Box: box(400, 300, 200, 60), Text: "In the way"}, "block")
	add(whiteboard.AddText{Box: box(800, 300, 160, 60), Text: "Sugar"}, "sugar")
	res := apply(t, s, b, whiteboard.AddArrow{From: "water", To: "sugar"})
	if len(res.Warnings) != 1 || res.Warnings[0].Path != "elements[arrow1]" || !strings.Contains(res.Warnings[0].Message, "crosses block") {
		t.Fatalf("warnings %+v", res.Warnings)
	}
	res = apply(t, s, b, whiteboard.MoveElement{ID: "block", X: 400, Y: 500})
	if len(res.Warnings) != 0 || len(b.Defects()) != 0 {
		t.Errorf("after moving clear: %+v / %+v", res.Warnings, b.Defects())
	}
}

// An arrow may come from a free point (light coming in): drawn from the
// point to the element's edge, described with the point.
func TestArrowFromAPoint(t *testing.T) {
	s, b := newSession(t, "elements: []\n")
	leaf := whiteboard.AddText{Box: box(600, 300, 200, 100), Text: "Leaf"}
	leaf.ID = "leaf"
	apply(t, s, b, leaf)
	in := whiteboard.AddArrow{FromPoint: &whiteboard.Point{X: 100, Y: 350}, To: "leaf", Label: "light", Style: &whiteboard.Style{Stroke: "goldenrod"}}
	in.ID = "light"
	if res := apply(t, s, b, in); len(res.Warnings) != 0 {
		t.Errorf("warnings %+v", res.Warnings)
	}
	if d := b.Describe(); !strings.Contains(d, "arrow light from point (100,350) to leaf") {
		t.Errorf("describe: %s", d)
	}
	svg := whiteboard.Render(b, nil).Body
	if !strings.Contains(svg, `<line x1="100" y1="350" x2="600" y2="350" stroke="goldenrod"`) {
		t.Errorf("render: %s", svg)
	}
	out := render(t, b)
	if !strings.Contains(out, "from_point:\n") {
		t.Errorf("saved: %s", out)
	}
	// Reloaded, it is the same arrow.
	b2, _ := decode(t, out)
	if e := element(t, b2, "light"); e.FromPoint == nil || *e.FromPoint != (whiteboard.Point{X: 100, Y: 350}) || e.To != "leaf" {
		t.Errorf("reloaded %+v", e)
	}
	// A free end inside an element: that element holds an end, so the
	// arrow leaving it is no crossing.
	sky := whiteboard.AddShape{Box: box(20, 250, 300, 200), Shape: "rect", Label: ""}
	sky.ID = "sky"
	if res := apply(t, s, b, sky); len(res.Warnings) != 0 {
		t.Errorf("a shape around the free end: %+v", res.Warnings)
	}
	// The canvas cannot shrink past a free end: the file would not load.
	apply(t, s, b, whiteboard.AddArrow{From: "leaf", ToPoint: &whiteboard.Point{X: 1200, Y: 700}})
	if _, err := s.Dispatch(t.Context(), whiteboard.SetCanvas{Width: 1000, Height: 600}); err == nil {
		t.Errorf("canvas shrunk past the free end at (1200,700)")
	}
	for _, bad := range []whiteboard.AddArrow{
		{From: "leaf", FromPoint: &whiteboard.Point{X: 1, Y: 1}, To: "leaf"},
		{FromPoint: &whiteboard.Point{X: 9000, Y: 1}, To: "leaf"},
		{To: "leaf"},
	} {
		if _, err := s.Dispatch(t.Context(), bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
