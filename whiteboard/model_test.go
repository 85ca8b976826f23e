package whiteboard_test

import (
	"fmt"
	"github.com/lessongen/lessongen/internal/clip"
	"slices"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

// allKinds has one element of every kind, with styles and labels, in flow
// and block style.
const allKinds = `canvas:
  width: 1600
  height: 900
  background: "#fdf6e3"
heading: Photosynthesis
layout: equation on top, diagram below
elements:
  - id: t
    type: text
    x: 10
    y: 150
    w: 500
    h: 60.5
    text: "Light + water"
    style: {color: darkgreen, font_size: 32, bold: true, align: left}
  - {id: box, type: shape, shape: rect, x: 10, y: 230, w: 300, h: 200, label: Leaf, style: {fill: "#cfc"}}
  - {id: inner, type: shape, shape: ellipse, x: 20, y: 240, w: 50, h: 50}
  - {id: a, type: arrow, from: t, to: box, label: !pending "a verb"}
  - id: eq
    type: equation
    x: 600
    y: 150
    w: 900
    h: 80
    latex: 6CO_2 \to C_6H_{12}O_6
  - id: img
    type: image
    x: 600
    y: 300
    w: 400
    h: 300
    description: |
      A chloroplast, cut open,
      thylakoids stacked inside.
    alt: !pending
`

func TestDecodeEncodeKeepsData(t *testing.T) {
	for name, src := range map[string]string{"leaf": leafSrc, "all kinds": allKinds} {
		s, err := yamlsrc.Parse("board.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := decode(t, src)
		n, _ := b.EncodeNode()
		if !yamlsrc.Equal(s.Root, n) {
			out, _ := yamlsrc.Render(n, 2)
			t.Errorf("%s: encoding loses or changes data:\n--- in\n%s--- out\n%s", name, src, out)
		}
		// Equal data means splicing leaves the author's bytes alone.
		if patched, err := s.Patch(n); err != nil || string(patched) != src {
			t.Errorf("%s: patching the unchanged board changed the file (err %v):\n%s", name, err, patched)
		}
	}
}

func TestDecodeAllKinds(t *testing.T) {
	b, warnings := decode(t, allKinds)
	if len(warnings) != 0 {
		t.Errorf("warnings: %v", warnings)
	}
	if c := b.CanvasSize(); c != (whiteboard.Canvas{Width: 1600, Height: 900, Background: "#fdf6e3"}) {
		t.Errorf("canvas = %+v", c)
	}
	if e := element(t, b, "t"); e.H != 60.5 || e.Style.FontSize != 32 || !e.Style.Bold || e.Style.Align != "left" {
		t.Errorf("t = %+v style %+v", e, e.Style)
	}
	if e := element(t, b, "a"); !e.Label.Pending || e.Label.Hint != "a verb" {
		t.Errorf("arrow label = %+v", e.Label)
	}
	if e := element(t, b, "img"); e.Description.Value != "A chloroplast, cut open,\nthylakoids stacked inside.\n" || !e.Alt.Pending {
		t.Errorf("img = %+v", e)
	}
	var paths []string
	for _, p := range b.Pending() {
		paths = append(paths, p.Path)
	}
	if want := []string{"elements[a].label", "elements[img].alt"}; !slices.Equal(paths, want) {
		t.Errorf("pending = %v, want %v", paths, want)
	}
}

func TestDecodeDefaultsCanvas(t *testing.T) {
	b, _ := decode(t, "heading: H\n")
	if c := b.CanvasSize(); c.Width != whiteboard.DefaultWidth || c.Height != whiteboard.DefaultHeight {
		t.Errorf("canvas = %+v", c)
	}
	// Defaults are not written back.
	if got := render(t, b); got != "heading: H\n" {
		t.Errorf("saved %q", got)
	}
}

func TestDecodeReportsEveryProblemWithPosition(t *testing.T) {
	src := `canvas: {width: 50, height: 720}
elements:
  - {id: 1st, type: text, text: a, x: 0, y: 0, w: 10, h: 10}
  - {id: ok, type: text, text: a, x: 0, y: 0, w: 10, h: 10}
  - {id: ok, type: text, text: b, x: 0, y: 0, w: 10, h: 10}
  - {id: notext, type: text, x: 0, y: 0, w: 10, h: 10}
  - {id: blob, type: blob, x: 0, y: 0, w: 10, h: 10}
  - {id: s, type: shape, shape: star, x: 0, y: 0, w: 10, h: 10}
  - {id: e, type: equation, latex: x, text: extra, x: 0, y: 0, w: 10, h: 10}
  - {id: z, type: shape, shape: rect, x: 0, y: 0, w: 0, h: 10}
  - {id: far, type: shape, shape: rect, x: 5000, y: 0, w: 10, h: 10}
  - {id: al, type: text, text: a, x: 0, y: 0, w: 10, h: 10, style: {align: justify}}
  - {id: arr, type: arrow, from: ok}
  - {id: typo, type: text, txt: a, x: 0, y: 0, w: 10, h: 10}
  - {id: nan, type: text, text: a, x: .nan, y: 0, w: 10, h: .nan}
  - {id: font, type: text, text: a, x: 0, y: 0, w: 10, h: 10, style: {font_size: .nan}}
`
	ps := decodeProblems(t, src)
	want := []struct {
		line int
		msg  string
	}{
		{1, "whiteboard.canvas must be between 100 and 10000 pixels on each side, got 50x720"},
		{3, `whiteboard: element "1st" (1).id "1st" must start with a letter`},
		{5, `duplicate element id "ok" (first at line 4)`},
		{6, `a text element needs "text"`},
		{7, `type must be one of text, shape, arrow, equation, image, code, table, blank, got "blob"`},
		{8, `shape must be rect, ellipse or line, got "star"`},
		{9, `an equation element has no "text"`},
		{10, "w and h must be between 1 and 10000, got 0x10"},
		{11, "x,y (5000,0) must lie on the 50x720 canvas"},
		{12, `style.align must be left, center or right, got "justify"`},
		{13, `an arrow element needs "to or to_point"`},
		{14, `unknown key "txt" in whiteboard: element "typo" (12); did you mean "text"?`},
		// NaN fails every comparison, so it must be refused explicitly.
		{15, "w and h must be between 1 and 10000, got 10xNaN"},
		{15, "x,y (NaN,0) must lie on the 50x720 canvas"},
		{16, "style.font_size must be between 6 and 200, got NaN"},
	}
	for _, w := range want {
		found := false
		for _, p := range ps {
			if p.Line == w.line && strings.Contains(p.Message, w.msg) && !p.Warning && p.File == "board.yaml" && p.Col > 0 {
				found = true
			}
		}
		if !found {
			t.Errorf("no error at line %d containing %q", w.line, w.msg)
		}
	}
	if t.Failed() {
		t.Logf("problems:\n%v", ps)
	}
}

func TestLayoutDefects(t *testing.T) {
	tests := []struct {
		name string
		els  string
		want []string // warning messages, in order
	}{
		{"apart", "{id: a, type: text, text: A, x: 0, y: 0, w: 100, h: 40}\n  - {id: b, type: text, text: B, x: 200, y: 0, w: 100, h: 40}", nil},
		{"touching edges", "{id: a, type: text, text: A, x: 0, y: 0, w: 100, h: 40}\n  - {id: b, type: text, text: B, x: 100, y: 0, w: 100, h: 40}", nil},
		// a spans x 0-100, y 0-40; b spans x 50-150, y 20-60: a 50x20 overlap.
		{"partial overlap", "{id: a, type: text, text: A, x: 0, y: 0, w: 100, h: 40}\n  - {id: b, type: text, text: B, x: 50, y: 20, w: 100, h: 40}",
			[]string{"b overlaps a by 50x20 px; move or resize one of them"}},
		{"label inside a shape", "{id: s, type: shape, shape: rect, x: 0, y: 0, w: 300, h: 200}\n  - {id: l, type: text, text: L, x: 10, y: 10, w: 100, h: 40}", nil},
		{"shape around a label", "{id: l, type: text, text: L, x: 10, y: 10, w: 100, h: 40}\n  - {id: s, type: shape, shape: rect, x: 0, y: 0, w: 300, h: 200}", nil},
		// right edge 1200+200 = 1400 on a 1280 canvas.
		{"past the right edge", "{id: c, type: shape, shape: rect, x: 1200, y: 10, w: 200, h: 40}",
			[]string{"c runs past the canvas edge (right 1400 of 1280, bottom 50 of 720)"}},
		{"past the bottom", "{id: c, type: shape, shape: rect, x: 0, y: 700, w: 10, h: 40}",
			[]string{"c runs past the canvas edge (right 10 of 1280, bottom 740 of 720)"}},
		// With a placeholder left, the arrow may name what it is to add.
		{"arrow to what a placeholder adds", "{id: a, type: text, text: A, x: 0, y: 0, w: 100, h: 40}\n  - {id: x, type: arrow, from: a, to: nowhere}\n  - !pending more",
			[]string{`arrow x points at "nowhere", which does not exist`}},
		// 350 characters at 48 px need many lines; a 100x20 box holds none.
		{"text overflows its box", "{id: t, type: text, text: '" + strings.Repeat("word ", 70) + "', x: 0, y: 0, w: 100, h: 20, style: {font_size: 48}}",
			[]string{"t's text does not fit its 100x20 box: text needs"}},
		// One line at 24 px is 30 px tall: 10 px short.
		{"text 10 px too tall", "{id: t, type: text, text: Leaf, x: 0, y: 0, w: 200, h: 20}",
			[]string{"t's text does not fit its 200x20 box: text needs 30 px of height, the box has 20: make the box 10 px taller or use font size 16"}},
		{"shape label overflows", "{id: s, type: shape, shape: rect, label: 'Light energy is captured in the thylakoids', x: 0, y: 0, w: 120, h: 40}",
			[]string{"s's label does not fit its 120x40 box: text needs"}},
		{"font too small to read", "{id: t, type: text, text: tiny, x: 0, y: 0, w: 200, h: 40, style: {font_size: 10}}",
			[]string{"t has font size 10, too small to read on a 1280px-wide canvas; use at least 14"}},
		// The floor scales with the canvas: 14 px at 1280 is 7 px at 640.
		{"small font on a small canvas", "{id: t, type: text, text: tiny, x: 0, y: 0, w: 200, h: 40, style: {font_size: 10}}\ncanvas: {width: 640, height: 360}", nil},
		{"heading overflows its band", "{id: t, type: text, text: A, x: 40, y: 200, w: 100, h: 40}\nheading: '" + strings.Repeat("A very long heading ", 8) + "'",
			[]string{"the heading does not fit the heading band: text needs"}},
		{"heading that fits", "{id: t, type: text, text: A, x: 40, y: 200, w: 100, h: 40}\nheading: Photosynthesis in one line", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "elements:\n  - " + tt.els + "\n"
			b, warnings := decode(t, src)
			var got []string
			for _, w := range b.Defects() {
				got = append(got, w.Message)
			}
			// Messages are compared whole, or by their start where the
			// hint's figures are textfit's to choose.
			if !slices.EqualFunc(got, tt.want, strings.HasPrefix) {
				t.Errorf("defects = %q, want %q", got, tt.want)
			}
			for _, m := range got {
				if strings.Contains(m, "does not fit") && !strings.Contains(m, " px ") {
					t.Errorf("overflow without a hint by how much: %q", m)
				}
			}
			if len(warnings) != len(tt.want) {
				t.Errorf("decode warned %d times for %d defects: %v", len(warnings), len(tt.want), warnings)
			}
			// Decode warnings point at the element concerned, not the board.
			for _, w := range warnings {
				if w.Line < 2 {
					t.Errorf("warning at line %d, want the element's line: %v", w.Line, w)
				}
			}
			// A change that touches none of them only counts the defects;
			// describe_whiteboard lists them all.
			s := session.New("board", b)
			res := dispatch(t, s, whiteboard.SetLayout{Layout: "one column"})
			if len(res.Warnings) != 0 || res.WarningsElsewhere != len(tt.want) {
				t.Errorf("dispatch warnings = %v, elsewhere %d; want none listed, %d counted", res.Warnings, res.WarningsElsewhere, len(tt.want))
			}
			res = dispatch(t, s, whiteboard.DescribeWhiteboard{})
			var described []string
			for _, w := range res.Warnings {
				described = append(described, w.Message)
			}
			if !slices.EqualFunc(described, tt.want, strings.HasPrefix) {
				t.Errorf("describe warnings = %q, want %q", described, tt.want)
			}
		})
	}
}

func TestDispatchReportsNewDefects(t *testing.T) {
	s, b := newSession(t, "elements:\n  - {id: a, type: text, text: A, x: 0, y: 0, w: 100, h: 40}\n")
	res := apply(t, s, b, whiteboard.AddText{Box: box(50, 20, 100, 40), Text: "B"})
	if len(res.Warnings) != 1 || res.Warnings[0].Path != "elements[text1]" || !strings.Contains(res.Warnings[0].Message, "text1 overlaps a by 50x20 px") {
		t.Errorf("warnings = %+v", res.Warnings)
	}
	// Moving it clear fixes the defect.
	res = apply(t, s, b, whiteboard.MoveElement{ID: "text1", X: 500, Y: 20})
	if len(res.Warnings) != 0 {
		t.Errorf("warnings after moving clear: %+v", res.Warnings)
	}
	// A canvas too small for text1 (right edge 600) is refused (see
	// TestCanvasPreconditions); one that holds it is fine.
	res = apply(t, s, b, whiteboard.SetCanvas{Width: 600, Height: 400})
	if len(res.Warnings) != 0 {
		t.Errorf("warnings = %+v", res.Warnings)
	}
	// A box may start on the canvas and run past it: that is a warning, not a rejection.
	res = apply(t, s, b, whiteboard.ResizeElement{ID: "text1", W: 2000, H: 40})
	if len(res.Warnings) == 0 {
		t.Error("no warning for a box running off the canvas")
	}
}

// A result lists the defects its call caused or that concern the element it
// names, and only counts the rest, so results stay small on a crowded board.
func TestWarningsConcernWhatTheCallTouched(t *testing.T) {
	// a and b overlap; c stands apart.
	s, b := newSession(t, "elements:\n"+
		"  - {id: a, type: text, text: A, x: 0, y: 0, w: 100, h: 40}\n"+
		"  - {id: b, type: text, text: B, x: 50, y: 20, w: 100, h: 40}\n"+
		"  - {id: c, type: text, text: C, x: 600, y: 0, w: 100, h: 40}\n")
	messages := func(res session.Result) []string {
		var out []string
		for _, w := range res.Warnings {
			out = append(out, w.Message)
		}
		return out
	}
	// An element added far away: the old overlap is elsewhere.
	res := apply(t, s, b, whiteboard.AddText{Box: box(300, 300, 50, 40), Text: "D"})
	if len(res.Warnings) != 0 || res.WarningsElsewhere != 1 {
		t.Errorf("far add: %q, elsewhere %d", messages(res), res.WarningsElsewhere)
	}
	// An element added across c: the call caused it, so it sees it.
	res = apply(t, s, b, whiteboard.AddText{Box: box(650, 20, 100, 40), Text: "E"})
	if got := messages(res); len(got) != 1 || !strings.Contains(got[0], "text2 overlaps c") || res.WarningsElsewhere != 1 {
		t.Errorf("overlapping add: %q, elsewhere %d", got, res.WarningsElsewhere)
	}
	// Changing a's text leaves its overlap as it was, but the call touched a
	// (the earlier of the pair, whose warning is filed under b).
	res = apply(t, s, b, whiteboard.UpdateElement{ID: "text1", Text: ptr("D2")})
	if len(res.Warnings) != 0 || res.WarningsElsewhere != 2 {
		t.Errorf("update elsewhere: %q, elsewhere %d", messages(res), res.WarningsElsewhere)
	}
	b.Protect = false
	res = apply(t, s, b, whiteboard.ResizeElement{ID: "a", W: 100, H: 40})
	if got := messages(res); len(got) != 1 || !strings.Contains(got[0], "b overlaps a") || res.WarningsElsewhere != 1 {
		t.Errorf("touching a: %q, elsewhere %d", got, res.WarningsElsewhere)
	}
	// Moving b clear ends its overlap: nothing listed, one left elsewhere.
	res = apply(t, s, b, whiteboard.MoveElement{ID: "b", X: 300, Y: 100})
	if len(res.Warnings) != 0 || res.WarningsElsewhere != 1 {
		t.Errorf("moved clear: %q, elsewhere %d", messages(res), res.WarningsElsewhere)
	}
}

func TestDescribe(t *testing.T) {
	b, _ := decode(t, allKinds)
	d := b.Describe()
	for _, want := range []string{
		"1600x900", "#fdf6e3", `headed "Photosynthesis"`, "Layout: equation on top, diagram below.", "It has 6 elements:",
		`text t at (10,150) size 500x60.5: reading "Light + water"`,
		`rect box at (10,230) size 300x200, labelled "Leaf"`,
		"ellipse inner",
		"arrow a from t to box, labelled (pending)",
		`equation eq at (600,150) size 900x80: LaTeX "6CO_2 \\to C_6H_{12}O_6"`,
		"image img at (600,300) size 400x300",
		"alt (pending)",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("description lacks %q:\n%s", want, d)
		}
	}
	// One line per element, after the summary.
	if n := strings.Count(d, "\n- "); n != 6 {
		t.Errorf("%d element lines, want 6:\n%s", n, d)
	}
	// Summary is the same without where each element sits.
	sum := b.Summary()
	for _, want := range []string{`headed "Photosynthesis"`, `text t: reading "Light + water"`, `rect box, labelled "Leaf"`, `equation eq: LaTeX`, "image img:"} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
	if strings.Contains(sum, " at (") || strings.Count(sum, "\n- ") != 6 {
		t.Errorf("summary has boxes or lost elements:\n%s", sum)
	}
}

func TestDescribeEmptyAndPendingBoards(t *testing.T) {
	d := whiteboard.Todo("a chloroplast.").Describe()
	for _, want := range []string{"A 1280x720 whiteboard", "heading not written yet", "It has no elements yet.", "Brief for this whiteboard: a chloroplast."} {
		if !strings.Contains(d, want) {
			t.Errorf("description lacks %q:\n%s", want, d)
		}
	}
	b, _ := decode(t, "heading: H\nelements:\n  - {id: a, type: text, text: A, x: 0, y: 0, w: 1, h: 1}\n  - !pending \"more\"\n")
	if d := b.Describe(); !strings.Contains(d, "It has 1 element:") || strings.Contains(d, "more") {
		t.Errorf("placeholders are not elements:\n%s", d)
	}
}

func TestIDsAreGeneratedUniquely(t *testing.T) {
	// The author already used the ids the counter would produce next.
	s, b := newSession(t, "elements:\n  - {id: text1, type: text, text: A, x: 0, y: 0, w: 1, h: 1}\n  - {id: text2, type: text, text: B, x: 0, y: 2, w: 1, h: 1}\n")
	res := dispatch(t, s, whiteboard.AddText{Box: box(0, 10, 1, 1), Text: "C"})
	wantOutputs(t, res, whiteboard.Added{ID: "text3", Type: whiteboard.KindText})
	seen := map[string]bool{}
	for i := range 20 {
		in := []session.Intent{
			whiteboard.AddText{Box: box(float64(i*10), 100, 5, 5), Text: fmt.Sprint(i)},
			whiteboard.AddShape{Box: box(float64(i*10), 200, 5, 5), Shape: "rect"},
			whiteboard.AddEquation{Box: box(float64(i*10), 300, 5, 5), Latex: "x"},
			whiteboard.AddImage{Box: box(float64(i*10), 400, 5, 5), Description: "d", Alt: "a"},
		}[i%4]
		dispatch(t, s, in)
	}
	for _, id := range ids(b) {
		if seen[id] {
			t.Errorf("id %q used twice", id)
		}
		seen[id] = true
	}
	if len(seen) != 23 {
		t.Errorf("%d distinct ids for 23 elements", len(seen))
	}
}

// A huge value reaches a model only by its start, with a marker saying how
// large it is.
func TestDescribeClipsHugeValues(t *testing.T) {
	huge := strings.Repeat("word ", 200_000) // 1 MB
	b, _ := decode(t, "heading: "+huge+"\nelements:\n  - {id: a, type: text, text: "+huge+", x: 0, y: 0, w: 100, h: 40}\n")
	d := b.Describe()
	if strings.Count(d, "… [truncated, 1.0 MB]") != 2 || len(d) > 3*clip.MaxValue {
		t.Errorf("%d bytes:\n%.300s", len(d), d)
	}
}

// An author's arrow to an element that does not exist, on a board with
// nothing left to generate, is an error at the arrow, not a warning.
func TestDanglingArrowIsAnError(t *testing.T) {
	ps := decodeProblems(t, "elements:\n  - {id: a, type: text, text: A, x: 0, y: 0, w: 100, h: 40}\n  - {id: x, type: arrow, from: a, to: nowhere}\n")
	err := ps.Err()
	if err == nil || !strings.Contains(err.Error(), `board.yaml:3:5: whiteboard: element "x" (2): arrow x points at "nowhere", which does not exist`) {
		t.Errorf("err = %v, want an error at the arrow's line", err)
	}
}

// The prompt's geometry is numbers: canvas, margins, heading band, font
// sizes, and the strips the elements leave free.
func TestBriefStatesGeometry(t *testing.T) {
	b, _ := decode(t, "canvas: {width: 1280, height: 720}\nheading: H\nelements:\n  - {id: a, type: text, text: A, x: 40, y: 200, w: 300, h: 100}\n  - !pending more\n")
	got := b.Brief()
	for _, want := range []string{
		"the canvas is 1280x720; keep elements inside x 40–1240, y 120–680 (margins 40)",
		"The heading is drawn at the top of the canvas, in the band x 40–1240, y 40–104, one line at font size 40 bold",
		"24 for body text (one line is 30 tall), never below 14",
		"Free full-width strips: y 120–200, y 300–680.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("brief lacks %q:\n%s", want, got)
		}
	}
	// The canvas's rules do not depend on the elements: boards of one size
	// share them, and only the free space differs.
	empty, _ := decode(t, "canvas: {width: 1280, height: 720}\nheading: H\nelements: []\n")
	if b.CanvasRules() != empty.CanvasRules() || b.FreeSpace() == empty.FreeSpace() || strings.Contains(b.CanvasRules(), "Free") {
		t.Errorf("canvas rules %q / %q, free space %q / %q", b.CanvasRules(), empty.CanvasRules(), b.FreeSpace(), empty.FreeSpace())
	}
	// Without a heading the band is free for content.
	b, _ = decode(t, "canvas: {width: 1280, height: 720}\nelements:\n  - {id: a, type: text, text: A, x: 40, y: 200, w: 300, h: 100}\n")
	if got := b.Brief(); !strings.Contains(got, "y 40–680") || strings.Contains(got, "heading") {
		t.Errorf("brief without a heading: %s", got)
	}
	// On a half-size canvas every figure halves.
	b, _ = decode(t, "canvas: {width: 640, height: 360}\nelements: []\n")
	if got := b.Brief(); !strings.Contains(got, "never below 7") || !strings.Contains(got, "y 20–340") {
		t.Errorf("scaled brief: %s", got)
	}
}
