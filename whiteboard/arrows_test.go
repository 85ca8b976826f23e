package whiteboard_test

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
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
	add(whiteboard.AddText{Box: box(400, 310, 200, 60), Text: "In the way"}, "block")
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

// Lines are checked against the text as drawn: top-aligned and wrapped,
// not the element's box. A line through the empty lower part of a text box
// with nothing drawn around it is clear; one ending inside a text box (a
// free point, so the box holds an end) still may not run over its text.
func TestLinesCheckedAgainstGlyphs(t *testing.T) {
	s, b := newSession(t, "elements: []\n")
	add := func(in whiteboard.AddText, id string) {
		in.ID = id
		apply(t, s, b, in)
	}
	add(whiteboard.AddText{Box: box(40, 200, 160, 60), Text: "Water"}, "water")
	add(whiteboard.AddText{Box: box(400, 200, 300, 200), Text: "Short"}, "note")
	add(whiteboard.AddText{Box: box(900, 200, 160, 60), Text: "Sugar"}, "sugar")
	// At y 330: below "Short", through the empty part of its box.
	res := apply(t, s, b, whiteboard.AddArrow{FromPoint: &whiteboard.Point{X: 100, Y: 330}, ToPoint: &whiteboard.Point{X: 1000, Y: 330}, Heads: "none"})
	if len(res.Warnings) != 0 {
		t.Errorf("a line under the text warns: %+v", res.Warnings)
	}
	// Ending in the middle of a tall box of three lines of text, across
	// its second line.
	add(whiteboard.AddText{Box: box(400, 500, 300, 200), Text: "one two three four five six seven eight nine ten eleven twelve"}, "para")
	res = apply(t, s, b, whiteboard.AddArrow{FromPoint: &whiteboard.Point{X: 100, Y: 540}, ToPoint: &whiteboard.Point{X: 550, Y: 540}})
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Message, "arrow arrow2 crosses para") {
		t.Errorf("an arrow into the text: %+v", res.Warnings)
	}
}

// A line runs between any two points or elements, with arrowheads at
// either end, both or none, and a stroke width; a file says so in heads
// and style.stroke_width, checked at load.
func TestLinesHeadsAndWidth(t *testing.T) {
	src := `elements:
  - {id: a, type: text, text: A, x: 40, y: 40, w: 100, h: 40}
  - {id: cross, type: arrow, from_point: {x: 300, y: 100}, to_point: {x: 100, y: 300}, heads: none, style: {stroke_width: 8}}
  - {id: both, type: arrow, from: a, to_point: {x: 600, y: 60}, heads: both}
  - {id: back, type: arrow, from_point: {x: 600, y: 400}, to: a, heads: start}
`
	b, _ := decode(t, src)
	svg := whiteboard.Render(b, nil).Body
	if want := `x1="300" y1="100" x2="100" y2="300" stroke="#1b1f24" stroke-width="8"/>`; !strings.Contains(svg, want) {
		t.Errorf("the board lacks %s:\n%s", want, svg)
	}
	// Each head is a triangle drawn in place (no shared marker, no id),
	// its tip just past the end it points out of.
	for id, want := range map[string]int{"cross": 0, "both": 2, "back": 1} {
		g := regexp.MustCompile(`<g class="el arrow" data-id="` + id + `">.*?</g>`).FindString(svg)
		if got := strings.Count(g, `class="head"`); got != want {
			t.Errorf("arrow %s has %d heads, want %d: %s", id, got, want, g)
		}
	}
	var tx, ty float64
	tip := regexp.MustCompile(`data-id="back">.*?<path class="head" d="M([-\d.]+),([-\d.]+) `).FindStringSubmatch(svg)
	if tip != nil {
		tx, _ = strconv.ParseFloat(tip[1], 64)
		ty, _ = strconv.ParseFloat(tip[2], 64)
	}
	if tip == nil || math.Hypot(tx-600, ty-400) > 3 {
		t.Errorf("the start head of arrow back has its tip at %v, want beside (600,400)", tip)
	}
	if strings.Contains(svg, " id=") {
		t.Errorf("a board defines an id, which would repeat when boards share a page:\n%s", svg)
	}
	if d := b.Describe(); !strings.Contains(d, "line cross from point (300,100) to point (100,300) (no arrowheads)") || !strings.Contains(d, "(arrowheads at both ends)") {
		t.Errorf("describe: %s", d)
	}
	for bad, want := range map[string]string{
		"heads: sideways":           `heads must be end, start, both or none, got "sideways"`,
		"style: {stroke_width: 99}": "style.stroke_width must be between 1 and 48",
	} {
		ps := decodeProblems(t, "elements:\n  - {id: l, type: arrow, from_point: {x: 1, y: 1}, to_point: {x: 9, y: 9}, "+bad+"}\n")
		if len(ps) == 0 || !strings.Contains(ps[0].Message, want) {
			t.Errorf("%s: %v, want %q", bad, ps, want)
		}
	}
}
