package whiteboard_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/whiteboard"
)

const contrastSrc = `canvas: {width: 1280, height: 720, background: "#fdf6e3"}
elements:
  - id: box
    type: shape
    shape: rect
    x: 40
    y: 40
    w: 400
    h: 200
    label: Stroma
    style: {color: orange, fill: "#fffbe6"}
  - id: note
    type: text
    x: 600
    y: 40
    w: 400
    h: 100
    text: Water enters
    style: {color: "#999", font_size: 16}
  - id: ok
    type: text
    x: 600
    y: 300
    w: 400
    h: 100
    text: Fine
  - id: dark
    type: shape
    shape: rect
    x: 40
    y: 400
    w: 500
    h: 250
    style: {fill: navy}
  - id: inside
    type: text
    x: 60
    y: 450
    w: 400
    h: 100
    text: On navy
`

// Text that does not contrast with what lies behind it (WCAG AA) is a
// warning at the element's line, with the ratio and a colour that passes.
func TestContrastDefectsAtTheirLines(t *testing.T) {
	_, warns := decode(t, contrastSrc)
	want := map[int]string{
		3:  "box's label colour orange on its fill (#fffbe6) has contrast 1.8:1, below the 3:1 WCAG AA asks for text of size 24; use style.color #",
		12: "note's text colour #999 on the canvas (#fdf6e3) has contrast 2.6:1, below the 4.5:1 WCAG AA asks for text of size 16; use style.color #",
		35: "inside's text colour #1b1f24 on dark's fill (navy) has contrast 1.0:1, below the 3:1",
	}
	got := map[int]string{}
	for _, w := range warns {
		if strings.Contains(w.Message, "contrast") {
			got[w.Line] = w.Message
		}
	}
	for line, msg := range want {
		if !strings.Contains(got[line], msg) {
			t.Errorf("line %d: got %q, want %q", line, got[line], msg)
		}
	}
	if len(got) != len(want) {
		t.Errorf("contrast warnings %v, want %d", got, len(want))
	}
}

// The suggested colour really passes: applying it clears the warning, and
// the tool result says so with an empty list.
func TestContrastSuggestionPasses(t *testing.T) {
	s, b := newSession(t, "elements: []\n")
	in := whiteboard.AddText{Box: box(40, 40, 400, 100), Text: "Faint", Style: &whiteboard.Style{Color: "#bbb", FontSize: 16}}
	in.ID = "faint"
	res := apply(t, s, b, in)
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Message, "contrast") {
		t.Fatalf("warnings %+v, want one contrast defect", res.Warnings)
	}
	msg := res.Warnings[0].Message
	fix := msg[strings.Index(msg, "use style.color ")+len("use style.color "):]
	fix = fix[:strings.IndexByte(fix, ' ')]
	res = apply(t, s, b, whiteboard.UpdateElement{ID: "faint", Style: &whiteboard.Style{Color: whiteboard.Color(fix), FontSize: 16}})
	if len(res.Warnings) != 0 {
		t.Errorf("with the suggested %s: %+v", fix, res.Warnings)
	}
}

// stroke colours a shape's outline alone: orange outline, dark label,
// nothing to warn about; the render draws each where it belongs.
func TestStrokeSeparatesOutlineFromText(t *testing.T) {
	s, b := newSession(t, "elements: []\n")
	in := whiteboard.AddShape{Box: box(40, 40, 400, 200), Shape: "rect", Label: "Stroma", Style: &whiteboard.Style{Stroke: "orange", Fill: "#fffbe6"}}
	in.ID = "box"
	if res := apply(t, s, b, in); len(res.Warnings) != 0 {
		t.Errorf("warnings %+v", res.Warnings)
	}
	svg := whiteboard.Render(b, nil).Body
	if !strings.Contains(svg, `fill="#fffbe6" stroke="orange"`) || !strings.Contains(svg, `fill="#1b1f24"`) {
		t.Errorf("render:\n%s", svg)
	}
}

// An arrow's label is judged on its panel: pale yellow on near-white fails
// at its 18px size, dark passes.
func TestArrowLabelContrast(t *testing.T) {
	s, b := newSession(t, "elements: []\n")
	in := whiteboard.AddArrow{FromPoint: &whiteboard.Point{X: 40, Y: 100}, ToPoint: &whiteboard.Point{X: 600, Y: 100}, Label: "light", Style: &whiteboard.Style{Color: "gold"}}
	in.ID = "ray"
	res := apply(t, s, b, in)
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Message, "ray's label colour gold on its label panel over the canvas (white) has contrast 1.") || !strings.Contains(res.Warnings[0].Message, "4.5:1") {
		t.Fatalf("warnings %+v", res.Warnings)
	}
	res = apply(t, s, b, whiteboard.UpdateElement{ID: "ray", Style: &whiteboard.Style{Stroke: "gold", Color: "#5c4a00"}})
	if len(res.Warnings) != 0 {
		t.Errorf("dark label: %+v", res.Warnings)
	}
}

// The WCAG AA thresholds hold to the last digit: colours on white a
// millionth below and above 4.5:1 and 3:1 (found by searching every
// #rrggbb), and the sizes where text becomes "large" (24 px, bold 18.66
// px, and the float64 just under each). Moving a threshold or a size by
// a hair flips one of these.
func TestContrastThresholdBoundary(t *testing.T) {
	// The sizes just under "large", to the last bit of a float64.
	below24, below1866 := math.Nextafter(24, 0), math.Nextafter(18.66, 0)
	for _, c := range []struct {
		color string // its contrast on white, to 7 places
		size  float64
		bold  bool
		warn  bool
	}{
		{"#9a6c5a", 16, false, true},       // 4.4999999
		{"#7c7290", 16, false, false},      // 4.5000006
		{"#989a30", 24, false, true},       // 2.9999998
		{"#e969a1", 24, false, false},      // 3.0000002
		{"#9a6c5a", 24, false, false},      // large: 3:1 is enough
		{"#9a6c5a", below24, false, true},  // not yet large: 4.5:1
		{"#9a6c5a", 18.66, true, false},    // large when bold
		{"#9a6c5a", below1866, true, true}, // not yet
		{"#9a6c5a", 18.66, false, true},    // large bold size, not bold
		{"#e969a1", below24, false, true},  // 3.0000002 is not 4.5
		{"#989a30", 18.66, true, true},     // 2.9999998 is not 3 either
	} {
		bold := ""
		if c.bold {
			bold = ", bold: true"
		}
		src := fmt.Sprintf("elements:\n  - {id: t, type: text, x: 40, y: 40, w: 800, h: 200, text: Edge, style: {color: %q, font_size: %g%s}}\n", c.color, c.size, bold)
		_, warns := decode(t, src)
		got := false
		for _, w := range warns {
			got = got || strings.Contains(w.Message, "contrast")
		}
		if got != c.warn {
			t.Errorf("%s at %g px (bold %v) on white: contrast warning %v, want %v (%v)", c.color, c.size, c.bold, got, c.warn, warns)
		}
	}
}
