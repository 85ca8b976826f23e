package whiteboard_test

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/textfit"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

// worksheetSrc is a board an author writes for a shell lesson and a
// statistics worksheet: code with its output, a table of values with blank
// cells, and an answer space, in the flow style the issue writes them.
const worksheetSrc = `heading: Counting words
elements:
  - {id: c1, type: code, language: bash, code: "rm -i thesis_backup/quotations.txt", output: "rm: remove regular file 'thesis_backup/quotations.txt'?", x: 80, y: 140, w: 1120, h: 120}
  - id: loop
    type: code
    code: |
      for f in *.txt
      do
          wc -l "$f"   # count lines
      done
    x: 80
    y: 280
    w: 500
    h: 150
  - {id: t1, type: table, header: [x, frequency], rows: [[1, ""], ["2", ""], ["3", "4"]], x: 640, y: 280, w: 300, h: 200}
  - {id: b1, type: blank, label: "x̄ =", x: 80, y: 520, w: 300, h: 60}
  - {id: b2, type: blank, x: 400, y: 520, w: 300, h: 60}
`

// Loading and saving the new elements keeps every byte the author wrote.
func TestNewElementsKeepEveryByte(t *testing.T) {
	s, err := yamlsrc.Parse("board.yaml", []byte(worksheetSrc))
	if err != nil {
		t.Fatal(err)
	}
	b, warnings := decode(t, worksheetSrc)
	if len(warnings) > 0 {
		t.Errorf("a well-made board warns:\n%v", warnings)
	}
	n, _ := b.EncodeNode()
	if !yamlsrc.Equal(s.Root, n) {
		t.Errorf("encoding loses or changes data:\n%s", render(t, b))
	}
	if out, err := s.Patch(n); err != nil || string(out) != worksheetSrc {
		t.Errorf("saving the unchanged board changed the file (err %v):\n%s", err, out)
	}
	loop := element(t, b, "loop")
	if !strings.Contains(loop.Code.Value, "\n    wc -l \"$f\"   # count lines\n") {
		t.Errorf("code lost its indentation or spacing: %q", loop.Code.Value)
	}
	if got := element(t, b, "t1").Rows.Value[0]; got[0] != "1" || got[1] != "" {
		t.Errorf("row 1 = %q, want [1 \"\"]", got)
	}
}

// A table row that is not as wide as the header is an error at that row,
// naming both widths and what "" means; misplaced keys are refused too.
func TestNewElementProblemsHavePositions(t *testing.T) {
	src := `elements:
  - id: t1
    type: table
    header: [x, frequency]
    rows:
      - [1, ""]
      - [2, "", extra]
      - [3]
    x: 40
    y: 100
    w: 300
    h: 200
  - {id: c1, type: code, x: 40, y: 400, w: 300, h: 60}
  - {id: b1, type: blank, code: "ls", x: 400, y: 400, w: 300, h: 60}
  - {id: t2, type: table, rows: [[a]], x: 800, y: 100, w: 300, h: 200}
`
	got := decodeProblems(t, src).Err()
	if got == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`board.yaml:7:9: whiteboard: element "t1" (1): row 2 has 3 cells, the header has 2; give every row one cell per column ("" for a blank cell to fill in)`,
		`board.yaml:8:9: whiteboard: element "t1" (1): row 3 has 1 cells, the header has 2`,
		`board.yaml:13:14: whiteboard: element "c1" (2): a code element needs "code"`,
		`board.yaml:14:27: whiteboard: element "b1" (3): a blank element has no "code"`,
		`board.yaml:15:14: whiteboard: element "t2" (4): a table element needs "header"`,
	} {
		if !strings.Contains(got.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, got)
		}
	}
}

// pendingSrc leaves a code's code and output, a table's rows and an answer
// space's label to generation.
const pendingSrc = `elements:
  - {id: c1, type: code, language: bash, code: !pending "a command that lists files", output: !pending, x: 80, y: 140, w: 800, h: 160}
  - {id: t1, type: table, header: [x, frequency], rows: !pending "five values of x, frequencies blank", x: 80, y: 320, w: 400, h: 300}
  - {id: b1, type: blank, label: !pending "the mean", x: 600, y: 320, w: 300, h: 60}
`

// Each pending field is listed, filled through update_element (undoably),
// and the rest of the author's bytes stay.
func TestPendingFieldsOfNewElements(t *testing.T) {
	s, b := newSession(t, pendingSrc)
	var got []string
	for _, p := range b.Pending() {
		got = append(got, p.Path)
	}
	if got, want := strings.Join(got, " "), "elements[c1].code elements[c1].output elements[t1].rows elements[b1].label"; got != want {
		t.Errorf("pending = %s, want %s", got, want)
	}
	apply(t, s, b, whiteboard.UpdateElement{ID: "c1", Code: ptr("ls -l\n"), Output: ptr("total 0")})
	apply(t, s, b, whiteboard.UpdateElement{ID: "t1", Rows: [][]string{{"1", ""}, {"2", ""}}})
	apply(t, s, b, whiteboard.UpdateElement{ID: "b1", Label: ptr("x̄ =")})
	if ps := b.Pending(); len(ps) != 0 {
		t.Errorf("still pending: %+v", ps)
	}
	out := render(t, b)
	for _, want := range []string{"code: ls -l", "output: total 0", `- - "1"`, "label: x̄ ="} {
		if !strings.Contains(out, want) {
			t.Errorf("saved board lacks %q:\n%s", want, out)
		}
	}
	// The header the author wrote stays theirs; a row of the wrong width,
	// or a field the element's type lacks, is refused.
	for _, in := range []whiteboard.UpdateElement{
		{ID: "t1", Header: []string{"y", "f"}},
		{ID: "c1", Rows: [][]string{{"1"}}},
		{ID: "b1", Code: ptr("ls")},
	} {
		if _, err := s.Dispatch(context.Background(), in); err == nil {
			t.Errorf("%+v accepted", in)
		}
	}
	gen, _ := newSession(t, "elements: !pending\n")
	dispatch(t, gen, whiteboard.AddTable{Box: box(40, 100, 300, 200), Header: []string{"x", "f"}, Rows: [][]string{{"1", ""}}, Placing: whiteboard.Placing{ID: "t"}})
	_, err := gen.Dispatch(context.Background(), whiteboard.UpdateElement{ID: "t", Rows: [][]string{{"1", "2", "3"}}})
	var se *session.Error
	if !errors.As(err, &se) || !strings.Contains(se.Error(), "row 1 has 3 cells, the header has 2") {
		t.Errorf("a row of the wrong width: %v", err)
	}
}

// The new tools add their elements (undo and redo exact), which save,
// describe and render as the author's do.
func TestAddCodeTableAnswerSpace(t *testing.T) {
	s, b := newSession(t, "heading: Mean\nelements: !pending \"a worksheet\"\n")
	apply(t, s, b, whiteboard.AddCode{Box: box(40, 130, 700, 130), Language: "python", Code: "\nfor x in xs:\n    total += x\n\n", Output: "42", Placing: whiteboard.Placing{ID: "sum"}})
	apply(t, s, b, whiteboard.AddTable{Box: box(780, 130, 400, 300), Header: []string{"x", "f"}, Rows: [][]string{{"1", ""}, {"2", ""}, {"3", "5"}}})
	apply(t, s, b, whiteboard.AddAnswerSpace{Box: box(40, 460, 400, 60), Label: "x̄ ="})
	if ws := b.Defects(); len(ws) > 0 {
		t.Errorf("a clean worksheet warns: %v", ws)
	}
	out := render(t, b)
	for _, want := range []string{"type: code", "language: python", "    total += x", "output: \"42\"", "type: table", "type: blank", "label: x̄ ="} {
		if !strings.Contains(out, want) {
			t.Errorf("saved board lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "code: |-\n        \n") {
		t.Errorf("leading blank line kept:\n%s", out)
	}
	d := b.Describe()
	for _, want := range []string{`python code sum at (40,130) size 700x130: reading "for x in xs:`, `with output "42"`,
		`table table1 at (780,130) size 400x300: headings ["x", "f"], 3 rows (2 blank cells, _, for pupils to fill in): ["1", _] ["2", _] ["3", "5"]`,
		`answer space blank2 at (40,460) size 400x60, labelled "x̄ ="`} {
		if !strings.Contains(d, want) {
			t.Errorf("description lacks %q:\n%s", want, d)
		}
	}
	for _, in := range []session.Intent{
		whiteboard.AddTable{Box: box(40, 600, 200, 80), Header: []string{"a", "b"}, Rows: [][]string{{"1"}}},
		whiteboard.AddTable{Box: box(40, 600, 200, 80)},
		whiteboard.AddCode{Box: box(40, 600, 200, 80), Code: " \n "},
	} {
		if _, err := s.Dispatch(context.Background(), in); err == nil {
			t.Errorf("%+v accepted", in)
		}
	}
}

// The checks measure the new elements as drawn: code in the monospace face
// (text that fits proportionally does not fit as code), a table's cells, an
// answer space's room to write, contrast, overlap and arrows.
func TestNewElementDefects(t *testing.T) {
	if w := textfit.Measure(strings.Repeat("i", 40), textfit.Style{FontSize: 20}).Width; w > 376 {
		t.Fatalf("40 i's are %g px proportionally: the case below cannot tell the faces apart", w)
	}
	for _, c := range []struct{ name, els, want string }{
		// 40 i's are about 180 px in Go Regular at 20 px, 480 in Go Mono.
		{"code is measured monospace", "{id: c, type: code, code: " + strings.Repeat("i", 40) + ", x: 40, y: 100, w: 400, h: 60}",
			"c's code does not fit its 400x60 box (each line as written, in a monospace face, 12 px inside each panel's edge): code needs 481×25 px, the box is 376×36: shorten its lines to at most 31 characters, make the box 105 px wider, or use font size 15"},
		{"code output counts", "{id: c, type: code, code: ls, output: \"a\\nb\\nc\", x: 40, y: 100, w: 400, h: 60}",
			"c's code does not fit its 400x60 box"},
		{"thin table rows", "{id: t, type: table, header: [x], rows: [[1], [2], [3], [4], [5], [6], [7], [8], [9]], x: 40, y: 100, w: 200, h: 150}",
			"t's text is 7 px in rows 15 px tall, too small to read"},
		{"table cell overflows", "{id: t, type: table, header: [x, y], rows: [[photosynthesis, \"\"]], x: 40, y: 100, w: 200, h: 100}",
			"t's cell in row 1, column 1 does not fit its 100x50 cell"},
		{"answer space too narrow", "{id: b, type: blank, label: \"The mean of the thirty values is\", x: 40, y: 100, w: 300, h: 60}",
			"b's label leaves too little room to write"},
		{"table text contrast", "{id: t, type: table, header: [x], rows: [[\"1\"]], style: {color: \"#dddddd\"}, x: 40, y: 100, w: 200, h: 100}",
			"t's table text colour #dddddd on its fill (white) has contrast"},
		{"code overlaps text", "{id: c, type: code, code: ls, x: 40, y: 100, w: 400, h: 100}\n  - {id: x, type: text, text: X, x: 300, y: 150, w: 200, h: 100}",
			"x overlaps c by 140x50 px"},
		{"arrow crosses a table", "{id: a, type: text, text: A, x: 40, y: 300, w: 100, h: 40}\n  - {id: t, type: table, header: [x], rows: [[\"1\"]], x: 400, y: 250, w: 200, h: 140}\n  - {id: z, type: text, text: Z, x: 900, y: 300, w: 100, h: 40}\n  - {id: r, type: arrow, from: a, to: z}",
			"crosses t"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, _ := decode(t, "elements:\n  - "+c.els+"\n")
			var all []string
			for _, d := range b.Defects() {
				all = append(all, d.Message)
			}
			if !strings.Contains(strings.Join(all, "\n"), c.want) {
				t.Errorf("defects lack %q:\n%s", c.want, strings.Join(all, "\n"))
			}
		})
	}
}

// The SVG draws code in the monospace stack with its spaces kept and its
// output on a panel of its own; blank cells as empty boxes with nothing in
// them; an answer space as its label and empty lines.
func TestRenderNewElements(t *testing.T) {
	b, _ := decode(t, worksheetSrc)
	svg := whiteboard.Render(b, nil).Body
	code := group(t, svg, "loop")
	for _, want := range []string{`font-family="'Lessongen Go Mono',monospace"`, `style="white-space:pre"`, `    wc -l &#34;$f&#34;   # count lines`} {
		if !strings.Contains(code, want) {
			t.Errorf("code lacks %q:\n%s", want, code)
		}
	}
	if strings.Contains(code, "Lessongen Go'") {
		t.Errorf("code drawn in the proportional face:\n%s", code)
	}
	c1 := group(t, svg, "c1")
	if !strings.Contains(c1, `class="code-output"`) || !strings.Contains(c1, "rm: remove regular file") {
		t.Errorf("output not drawn on its own panel:\n%s", c1)
	}
	table := group(t, svg, "t1")
	if n := strings.Count(table, `class="blank-cell"`); n != 2 {
		t.Errorf("%d blank cells drawn, want 2:\n%s", n, table)
	}
	if n := strings.Count(table, "<tspan"); n != 6 {
		t.Errorf("%d cell texts drawn, want 6 (2 headings, 4 written cells)", n)
	}
	blank := group(t, svg, "b1")
	if !strings.Contains(blank, "x̄ =") || !strings.Contains(blank, `class="answer-line"`) || strings.Count(blank, "<tspan") != 1 {
		t.Errorf("answer space not a label and a line:\n%s", blank)
	}
	if b2 := group(t, svg, "b2"); strings.Contains(b2, "<text") || !strings.Contains(b2, "answer-line") {
		t.Errorf("an unlabelled answer space draws text or no line:\n%s", b2)
	}
}

// group is the SVG group of element id.
func group(t *testing.T, svg, id string) string {
	t.Helper()
	m := regexp.MustCompile(`<g class="el [a-z]+" data-id="` + regexp.QuoteMeta(id) + `">.*?</g>`).FindString(svg)
	if m == "" {
		t.Fatalf("no group for %q in:\n%s", id, svg)
	}
	return m
}

// A placeholder in the element list is filled by the new tools as by any
// other: the table lands where the placeholder stood, and closing leaves
// nothing pending.
func TestPlaceholderFilledWithATable(t *testing.T) {
	s, b := newSession(t, "elements:\n  - {id: a, type: text, text: Data, x: 40, y: 40, w: 200, h: 40}\n  - !pending \"a table of the five values\"\n  - {id: z, type: text, text: End, x: 40, y: 600, w: 200, h: 40}\n")
	ph := b.Pending()[0].Path
	res := apply(t, s, b, whiteboard.AddTable{Box: box(40, 120, 400, 300), Header: []string{"x"}, Rows: [][]string{{"1"}, {""}}, Placing: whiteboard.Placing{ID: "t"}})
	if added, ok := res.Outputs[0].(whiteboard.Added); !ok || added.PendingID == "" {
		t.Errorf("the table did not fill the placeholder %s: %+v", ph, res.Outputs)
	}
	dispatch(t, s, whiteboard.ClosePlaceholders{})
	if got := strings.Join(ids(b), " "); got != "a t z" {
		t.Errorf("elements = %s, want a t z", got)
	}
	if !strings.Contains(render(t, b), "rows:\n      - [\"1\"]\n      - [\"\"]") {
		t.Errorf("saved table:\n%s", render(t, b))
	}
}
