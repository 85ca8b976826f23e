package render_test

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/lessongen/lessongen/activity"
	"github.com/lessongen/lessongen/internal/pptx/pptxtest"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/quiz"
	"github.com/lessongen/lessongen/render"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

const allkinds = "testdata/allkinds/lesson.yaml"

func renderPPTX(t testing.TB, path string, handout bool) []byte {
	t.Helper()
	reg := registry(t)
	var b bytes.Buffer
	if err := render.PPTX(&b, load(t, path, reg), reg, []render.AuthorNote{{Node: "slides/states/whiteboard", About: "caption", Text: "Check the Arabic."}}, handout); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// expected is what a lesson's deck must show, read from the lesson itself:
// per slide of the deck, its title and the text that must be on it.
type expected struct {
	title string
	texts []string
	// board is the whiteboard drawn on the slide, if any; bound the
	// values the slide's props bind into it.
	board *whiteboard.Board
	bound map[string]string
	// heading is the board's heading: the slide's title when it reads
	// so; another keeps the title off the slide (titleOff).
	heading  string
	titleOff bool
}

// expect walks the lesson as the deck lays it out: the overview, each
// slide (a quiz beside a whiteboard on a slide of its own), and the
// answer key in the teacher's copy.
func expect(t testing.TB, path string, handout bool) []expected {
	t.Helper()
	doc := load(t, path, registry(t))
	var out []expected
	var pages []lesson.SlidePage
	bound := map[string]map[string]string{}
	doc.View(func(p *lesson.Plan) {
		out = append(out, expected{title: p.Title()})
		pages = p.SlidePages()
		for _, pg := range pages {
			if pg.ID != "" {
				bound[pg.ID], _ = p.Bindings(pg.ID)
			}
		}
	})
	answers := false
	for _, pg := range pages {
		if pg.ID == "" {
			out = append(out, expected{title: pg.Title})
			continue
		}
		main := expected{title: pg.Title, bound: bound[pg.ID]}
		var extra []expected
		if c, err := doc.Child(pg.ID, "whiteboard"); err == nil {
			c.View(func(st session.State) {
				b := st.(*whiteboard.Board)
				main.board = b
				main.texts = append(main.texts, b.Heading.Value, main.bound["heading"])
				main.heading = b.Heading.Value
				if !b.Heading.Set {
					main.heading = main.bound["heading"]
				}
				main.titleOff = main.heading != "" && main.heading != pg.Title
				for _, e := range b.Elements.Value {
					if !e.IsPlaceholder {
						main.texts = append(main.texts, e.Text.Value, e.Label.Value, e.Description.Value, e.Code.Value, e.Output.Value)
						main.texts = append(main.texts, e.Header.Value...)
						for _, row := range e.Rows.Value {
							main.texts = append(main.texts, row...)
						}
					}
				}
			})
		}
		hasQuiz := false
		if c, err := doc.Child(pg.ID, "quiz"); err == nil {
			hasQuiz = true
			var texts []string
			c.View(func(st session.State) {
				q := st.(*quiz.Quiz)
				texts = append(texts, q.Instructions.Value)
				for _, qu := range q.Questions.Value {
					if qu.IsPlaceholder {
						continue
					}
					answers = true
					texts = append(texts, qu.Prompt.Value)
					texts = append(texts, quiz.Seen(qu, q.Shuffle)...)
				}
			})
			if main.board != nil {
				extra = append(extra, expected{title: pg.Title + " (quiz)", texts: texts})
			} else {
				main.texts = append(main.texts, texts...)
			}
		}
		if c, err := doc.Child(pg.ID, "activity"); err == nil {
			var texts []string
			c.View(func(st session.State) {
				a := st.(*activity.Activity)
				texts = append(texts, a.Instructions.Value, a.Support.Value)
				for _, c := range a.SuccessCriteria.Value {
					texts = append(texts, c.Text)
				}
			})
			// Like the quiz: a slide already drawn on gives the activity a slide of its own.
			if main.board != nil || hasQuiz {
				extra = append(extra, expected{title: pg.Title + " (activity)", texts: texts})
			} else {
				main.texts = append(main.texts, texts...)
			}
		}
		for _, p := range pg.Callouts {
			for _, r := range p.Runs {
				main.texts = append(main.texts, r.Text)
			}
		}
		out = append(out, main)
		out = append(out, extra...)
	}
	if answers && !handout {
		out = append(out, expected{title: "Answer key (teacher copy)"})
	}
	return out
}

// shapes are the top-level shapes of a slide part: each one's element
// (sp, cxnSp, pic, grpSp, or the sp inside an AlternateContent's Choice)
// and name.
type shape struct{ kind, name string }

func shapes(t testing.TB, part []byte) []shape {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(part))
	var out []shape
	depth, tree := 0, -1
	var cur *shape
	for {
		tok, err := d.Token()
		if err != nil {
			return out
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			depth++
			switch {
			case tok.Name.Local == "spTree" && tree < 0:
				tree = depth
			case tree > 0 && depth == tree+1:
				switch tok.Name.Local {
				case "sp", "cxnSp", "pic", "grpSp", "AlternateContent", "graphicFrame":
					out = append(out, shape{kind: tok.Name.Local})
					cur = &out[len(out)-1]
				}
			case tok.Name.Local == "cNvPr" && cur != nil && cur.name == "":
				for _, a := range tok.Attr {
					if a.Name.Local == "name" {
						cur.name = a.Value
					}
				}
			}
		case xml.EndElement:
			if tree > 0 && depth == tree+1 {
				cur = nil
			}
			depth--
		}
	}
}

// TestPPTXShapesPerElement: every whiteboard element is one native shape
// named by its id, of the kind it is drawn as (a connector for an arrow,
// a group holding a picture for an image, Office Math in an
// AlternateContent for an equation), and nothing else is on the slide but
// the title, the heading, the canvas's fill, arrow labels and placeholders.
func TestPPTXShapesPerElement(t *testing.T) {
	for _, path := range []string{example, allkinds} {
		parts := pptxtest.Parts(t, renderPPTX(t, path, false))
		slides := pptxtest.Slides(parts)
		want := expect(t, path, false)
		if len(slides) != len(want) {
			t.Fatalf("%s: %d slides, want %d", path, len(slides), len(want))
		}
		boards := 0
		for i, w := range want {
			b := w.board
			if b == nil {
				continue
			}
			boards++
			got := shapes(t, slides[i])
			byName := map[string]string{}
			for _, s := range got {
				byName[s.name] = s.kind
			}
			n := 1 // the title
			if (b.Heading.Set || b.Heading.Pending || w.bound["heading"] != "") && w.heading != w.title {
				n++ // the heading, unless it is the title
			}
			if b.CanvasSize().Background != "" {
				n++
			}
			if b.Elements.Pending {
				n++
			}
			kinds := map[whiteboard.Kind]string{whiteboard.KindText: "sp", whiteboard.KindShape: "sp", whiteboard.KindArrow: "cxnSp", whiteboard.KindEquation: "AlternateContent", whiteboard.KindImage: "grpSp",
				whiteboard.KindCode: "grpSp", whiteboard.KindTable: "graphicFrame", whiteboard.KindBlank: "grpSp"}
			for _, e := range b.Elements.Value {
				n++
				if e.IsPlaceholder {
					continue
				}
				if e.Type == whiteboard.KindArrow && (e.Label.Set || e.Label.Pending) {
					n++
				}
				k := kinds[e.Type]
				switch {
				case e.Text.Pending || e.Latex.Pending || e.Code.Pending || e.Header.Pending:
					k = "sp" // a dashed placeholder
				case e.Rows.Pending:
					k = "grpSp" // the header over a placeholder
				}
				if byName[e.ID] != k {
					t.Errorf("%s slide %d: element %s (%s) is drawn as %q, want %q", path, i+1, e.ID, e.Type, byName[e.ID], k)
				}
			}
			if len(got) != n {
				t.Errorf("%s slide %d: %d shapes, want %d: %v", path, i+1, len(got), n, got)
			}
		}
		if boards == 0 {
			t.Errorf("%s: no whiteboard checked", path)
		}
	}
}

// TestPPTXNotes: the notes pages hold the slide's notes with their line
// breaks, minutes, sources, notes for the author and the answer key; a
// handout has no notes pages and no answer-key slide.
func TestPPTXNotes(t *testing.T) {
	parts := pptxtest.Parts(t, renderPPTX(t, allkinds, false))
	notes := strings.Join(pptxtest.Texts(pptxtest.Notes(parts, 2)), "\n")
	for _, want := range []string{"Section: Explore · 8 min", "Point at each box in turn.", "Notes for the author", "Check the Arabic.", "Whiteboard sources: equation eq: heat.md:12"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes of slide 2 lack %q:\n%s", want, notes)
		}
	}
	quizNotes := strings.Join(pptxtest.Texts(pptxtest.Notes(parts, 3)), "\n")
	for _, want := range []string{"Answer key", "0 °C at sea level.", "Quiz sources: question q1: states.md:2, states.md:9-10"} {
		if !strings.Contains(quizNotes, want) {
			t.Errorf("notes of the quiz slide lack %q:\n%s", want, quizNotes)
		}
	}
	slides := pptxtest.Slides(parts)
	if last := strings.Join(pptxtest.Texts(slides[len(slides)-1]), " "); !strings.Contains(last, "Answer key") || !strings.Contains(last, "0 °C") {
		t.Errorf("the last slide is not the answer key: %s", last)
	}
	if !bytes.Contains(parts["docProps/core.xml"], []byte("<dc:subject>science</dc:subject>")) || !bytes.Contains(parts["docProps/core.xml"], []byte("<cp:keywords>Year 5, taught in three languages, science</cp:keywords>")) {
		t.Errorf("document properties lack the subject or grade:\n%s", parts["docProps/core.xml"])
	}

	// A paragraph break in the notes is a new paragraph; a line break a
	// <a:br>.
	dir := t.TempDir()
	src, _ := os.ReadFile(allkinds)
	lessonPath := filepath.Join(dir, "lesson.yaml")
	src = regexp.MustCompile(`notes: Point at each box in turn\..*`).ReplaceAll(src, []byte(`notes: "First line\nsecond line\n\nNext paragraph"`))
	if err := os.WriteFile(lessonPath, src, 0o644); err != nil {
		t.Fatal(err)
	}
	n2 := string(pptxtest.Notes(pptxtest.Parts(t, renderPPTX(t, lessonPath, false)), 2))
	if !strings.Contains(n2, "First line</a:t></a:r><a:br>") || !strings.Contains(n2, "<a:t>Next paragraph</a:t>") || strings.Contains(n2, "second line\n") {
		t.Errorf("notes lost their line breaks:\n%s", n2)
	}

	handout := pptxtest.Parts(t, renderPPTX(t, allkinds, true))
	for name := range handout {
		if strings.HasPrefix(name, "ppt/notesSlides/") {
			t.Errorf("a handout has a notes page: %s", name)
		}
	}
	for i, s := range pptxtest.Slides(handout) {
		if text := strings.Join(pptxtest.Texts(s), " "); strings.Contains(text, "Answer key") || strings.Contains(text, "sea level") {
			t.Errorf("handout slide %d shows the answers: %s", i+1, text)
		}
	}
	if got, want := len(pptxtest.Slides(handout)), len(slides)-1; got != want {
		t.Errorf("handout has %d slides, want %d", got, want)
	}
}

// hostileDeckLesson puts text no field should be able to break a deck with —
// control characters, XML syntax, bidi controls, noncharacters, an
// unpaired surrogate — in every field a deck shows.
const hostileDeckLesson = `version: 1
metadata:
  title: "T\x01\x1b <b>&amp; ]]> \u202Eevil\u202C \uFFFF end"
  subject: "sci\x7f<"
  grade: "5 & <6>"
  duration_minutes: 10
  objectives: ["obj\x00 ]]> <", "o2 &"]
  key_learning_points: ["k\x0b <x/>"]
  materials: ["m\x1f &lt;"]
  vocabulary: [{term: "t\x02<", definition: "d&\x03"}, {term: "v", definition: !pending "h\x04<"}]
  misconceptions: [{misconception: "m<\x04", response: "r]]>\x05"}]
slides:
  - id: s1
    title: "Slide\x06 <1> & ]]>"
    section: "sec\x07<"
    duration_minutes: 3
    sources: ["src\x1c<.md:1"]
    notes: "line1\x08 <\nline2 &\r\n\nPara2 ]]>\u2066iso\u2069 \U0001F600"
    whiteboard:
      canvas: {width: 1280, height: 720, background: "rgba(0,0,0,0.1)"}
      heading: "head\x0e <&>"
      elements:
        - {id: t1, type: text, text: "text\x0f <&> ]]>\u202E", x: 40, y: 140, w: 400, h: 80, style: {color: "#123", align: right}}
        - {id: s1, type: shape, shape: rect, label: "lab\x10<", x: 500, y: 140, w: 300, h: 100}
        - {id: a1, type: arrow, from: t1, to: s1, label: "arr\x11&"}
        - {id: a2, type: arrow, from: t1, to: nowhere}
        - {id: e1, type: equation, latex: "\\frac{<}{&}\x12 x^{]]>} \\sqrt[3]{\\frac{\\frac{a}{b}}{c}} \\unknown{ _ ^ \\", x: 40, y: 300, w: 600, h: 120}
        - {id: i1, type: image, description: "img\x13 <&>", alt: "alt\x14\"'", x: 700, y: 300, w: 300, h: 200}
        - {id: t2, type: text, text: !pending "hint\x15 <&>", x: 40, y: 560, w: 400, h: 80}
        - !pending "more\x16 ]]>"
    quiz:
      kind: check
      instructions: "ins\x15<"
      questions:
        - {id: q1, prompt: "p\x16 <&>?", answers: ["a\x17<"], distractors: ["d\x18&", "]]>"], feedback: "f\x19 ]]>"}
        - !pending "q\x1d<"
  - !pending "slide\x1e <&>"
`

// writeLessons writes the hostile lesson and a 500-slide lesson to dir.
func writeLessons(t testing.TB, dir string) (hostile, big string) {
	t.Helper()
	hostile = filepath.Join(dir, "hostile.yaml")
	if err := os.WriteFile(hostile, []byte(hostileDeckLesson), 0o644); err != nil {
		t.Fatal(err)
	}
	return hostile, bigLesson(t, 500)
}

// TestPPTXHostileText: hostile text in every field gives a valid deck,
// escaped, with the control characters dropped.
func TestPPTXHostileText(t *testing.T) {
	hostile, _ := writeLessons(t, t.TempDir())
	data := renderPPTX(t, hostile, false)
	pptxtest.Check(t, data)
	parts := pptxtest.Parts(t, data)
	var all []string
	for name, b := range parts {
		if strings.HasSuffix(name, ".xml") {
			all = append(all, pptxtest.Texts(b)...)
			for _, r := range string(b) {
				if unicode.IsControl(r) && r != '\n' {
					t.Errorf("%s keeps control character %U", name, r)
				}
			}
		}
	}
	text := strings.Join(all, "\n")
	for _, want := range []string{"T <b>&amp; ]]> \u202Eevil\u202C  end", "Slide <1> & ]]>", "text <&> ]]>", "lab<", "arr&", "p <&>?", "f ]]>", "line1 <", "\U0001F600"} {
		if !strings.Contains(text, want) {
			t.Errorf("the deck lost %q", want)
		}
	}
	if strings.ContainsRune(text, '\uFFFD') || strings.ContainsRune(text, '\uFFFF') {
		t.Error("the deck shows a replacement or noncharacter")
	}
}

// TestPPTXInImpress opens every deck in LibreOffice Impress: the example,
// the lessons under testdata (teacher's copy and handout) and the hostile
// lesson, in one soffice run. Each must open (a PDF is written) with one
// page per slide, each page showing its slide's title, board text and quiz.
func TestPPTXInImpress(t *testing.T) {
	dir := t.TempDir()
	hostile, _ := writeLessons(t, dir)
	impress(t, dir, []deck{{example, false}, {allkinds, false}, {allkinds, true}, {hostile, false}, {mathsLesson, false}})
}

// TestPPTXInImpressBig is TestPPTXInImpress on a 500-slide lesson (1,000
// slides with its quizzes). Impress takes minutes over it, past go test's
// default timeout on a busy machine, so it runs when asked:
//
//	LESSONGEN_IMPRESS_BIG=1 go test ./render/ -run InImpressBig -timeout 30m
func TestPPTXInImpressBig(t *testing.T) {
	if os.Getenv("LESSONGEN_IMPRESS_BIG") == "" {
		t.Skip("set LESSONGEN_IMPRESS_BIG=1 to open a 500-slide deck in Impress (minutes)")
	}
	dir := t.TempDir()
	_, big := writeLessons(t, dir)
	impress(t, dir, []deck{{big, false}})
}

type deck struct {
	lesson  string
	handout bool
}

func impress(t *testing.T, dir string, list []deck) {
	if _, err := exec.LookPath("soffice"); err != nil {
		t.Skip("LibreOffice (soffice) is not installed: the Impress check is skipped; apt-get install libreoffice-impress libreoffice-math poppler-utils")
	}
	decks := map[string]deck{}
	var paths []string
	for i, d := range list {
		p := filepath.Join(dir, "deck"+string(rune('a'+i))+".pptx")
		data := renderPPTX(t, d.lesson, d.handout)
		pptxtest.Check(t, data)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		decks[p] = d
		paths = append(paths, p)
	}
	pdfs := pptxtest.Impress(t, paths...)
	for _, p := range paths {
		d, pdf := decks[p], pdfs[p]
		want := expect(t, d.lesson, d.handout)
		if len(pdf.Pages) != len(want) {
			t.Errorf("%s (handout %v): %d pages, want %d", d.lesson, d.handout, len(pdf.Pages), len(want))
			continue
		}
		for i, w := range want {
			page := squeeze(pdf.Pages[i])
			texts := w.texts
			if !w.titleOff {
				texts = append([]string{w.title}, texts...)
			}
			for _, s := range texts {
				for _, word := range asciiWords(s) {
					if !strings.Contains(page, word) {
						t.Errorf("%s page %d (%s) lacks %q", d.lesson, i+1, w.title, word)
					}
				}
			}
		}
		for i, w := range want {
			monoFace(t, pdf.Path, i+1, w.board)
		}
		for i, w := range want {
			if d.lesson == example && w.title == "The overall equation" && *update {
				screenshot(t, pdf.Path, i+1)
			}
		}
	}
}

// monoFace checks that Impress set a page's code in a monospace face:
// code drawn proportional would not fit its box as the checks measured it.
func monoFace(t *testing.T, pdf string, page int, b *whiteboard.Board) {
	t.Helper()
	code := false
	for _, e := range elementsOf(b) {
		code = code || e.Type == whiteboard.KindCode && e.Code.Set
	}
	if !code {
		return
	}
	n := strconv.Itoa(page)
	out, err := exec.Command("pdffonts", "-f", n, "-l", n, pdf).Output()
	if err != nil {
		t.Skipf("pdffonts: %v", err)
	}
	if !regexp.MustCompile(`(?i)mono|courier`).Match(out) {
		t.Errorf("page %d draws code in no monospace face:\n%s", page, out)
	}
}

func elementsOf(b *whiteboard.Board) []*whiteboard.Element {
	if b == nil {
		return nil
	}
	return b.Elements.Value
}

var bidiOverride = regexp.MustCompile("\u202E[^\u202C]*(\u202C|$)")

// squeeze drops whitespace: Impress breaks lines where it likes.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// asciiWords are the words of s made only of ASCII letters and digits:
// what pdftotext gives back unchanged whatever the script's shaping. Text
// inside a right-to-left override comes back reversed, so it is left out.
func asciiWords(s string) []string {
	s = bidiOverride.ReplaceAllString(s, " ")
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !(r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r))) }) {
		out = append(out, w)
	}
	return out
}

// screenshot writes docs/render-pptx.png: page of the example's deck (its
// equation slide) as Impress draws it.
func screenshot(t *testing.T, pdf string, page int) {
	out := filepath.Join(t.TempDir(), "shot")
	n := strconv.Itoa(page)
	cmd := exec.Command("pdftoppm", "-png", "-r", "72", "-f", n, "-l", n, "-singlefile", pdf, out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v\n%s", err, msg)
	}
	b, err := os.ReadFile(out + ".png")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("../docs/render-pptx.png", b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPPTXBigDeck exports a 500-slide lesson: a sound package with a slide
// for the overview, each lesson slide and its quiz, and the answer key.
func TestPPTXBigDeck(t *testing.T) {
	_, big := writeLessons(t, t.TempDir())
	data := renderPPTX(t, big, false)
	pptxtest.Check(t, data)
	if got, want := len(pptxtest.Slides(pptxtest.Parts(t, data))), 1+2*500+1; got != want {
		t.Errorf("%d slides, want %d", got, want)
	}
}

// TestPPTXArrowHeadsAndWidth: an arrow's heads (none, start, both, end)
// and a stroke_width are drawn in the deck as the page draws them.
func TestPPTXArrowHeadsAndWidth(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lesson.yaml")
	src := `version: 1
metadata:
  title: Arrows
  subject: maths
  grade: "4"
slides:
  - id: s
    title: Arrows
    whiteboard:
      elements:
        - {id: a, type: shape, shape: rect, x: 40, y: 100, w: 100, h: 60, style: {stroke_width: 12}}
        - {id: b, type: shape, shape: rect, x: 600, y: 100, w: 100, h: 60}
        - {id: none, type: arrow, from: a, to: b, heads: none}
        - {id: both, type: arrow, from: a, to: b, heads: both, style: {stroke_width: 9}}
        - {id: start, type: arrow, from: a, to: b, heads: start}
        - {id: end, type: arrow, from: a, to: b}
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	slides := pptxtest.Slides(pptxtest.Parts(t, renderPPTX(t, path, false)))
	var slide string
	for _, s := range slides {
		if strings.Contains(string(s), `name="both"`) {
			slide = string(s)
		}
	}
	if slide == "" {
		t.Fatal("no slide draws the arrows")
	}
	// shape names the cNvPr and everything up to the next shape.
	shape := func(name string) string {
		i := strings.Index(slide, `name="`+name+`"`)
		if i < 0 {
			t.Fatalf("no shape %q", name)
		}
		rest := slide[i:]
		if j := strings.Index(rest[1:], `<p:cNvPr `); j >= 0 {
			rest = rest[:j+1]
		}
		return rest
	}
	for name, want := range map[string][2]bool{"none": {false, false}, "both": {true, true}, "start": {true, false}, "end": {false, true}} {
		s := shape(name)
		if got := [2]bool{strings.Contains(s, "<a:headEnd"), strings.Contains(s, "<a:tailEnd")}; got != want {
			t.Errorf("arrow %s: head, tail = %v, want %v", name, got, want)
		}
	}
	width := regexp.MustCompile(`<a:ln w="(\d+)"`)
	w := func(name string) int {
		m := width.FindStringSubmatch(shape(name))
		if m == nil {
			t.Fatalf("shape %s has no line width", name)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	near := func(a, b int) bool { return a-b <= 3 && b-a <= 3 } // EMU rounding
	if !near(w("both"), 3*w("end")) {
		t.Errorf("arrow both (stroke_width 9) is %d EMU wide, arrow end (3) %d", w("both"), w("end"))
	}
	if !near(w("a"), 4*w("b")) {
		t.Errorf("shape a (stroke_width 12) is %d EMU wide, shape b (3) %d", w("a"), w("b"))
	}
}
