package render_test

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/pptx/pptxtest"
)

const boardLesson = "testdata/board/lesson.yaml"

// word is a word Impress drew, in points from the page's top left.
type word struct {
	text                   string
	xMin, yMin, xMax, yMax float64
}

// words reads a PDF page's words with their boxes (pdftotext -bbox).
func words(t *testing.T, pdf string, page int) []word {
	t.Helper()
	n := strconv.Itoa(page)
	out, err := exec.Command("pdftotext", "-f", n, "-l", n, "-bbox", pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext -bbox: %v", err)
	}
	re := regexp.MustCompile(`<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>`)
	var ws []word
	for _, m := range re.FindAllStringSubmatch(string(out), -1) {
		f := func(i int) float64 { v, _ := strconv.ParseFloat(m[i], 64); return v }
		ws = append(ws, word{m[5], f(1), f(2), f(3), f(4)})
	}
	return ws
}

func find(ws []word, text string) []word {
	var out []word
	for _, w := range ws {
		if w.text == text {
			out = append(out, w)
		}
	}
	return out
}

// TestPPTXMatchesTheBoard opens a deck in Impress and compares it with
// the board it was drawn from (#41): text at the size drawn (48 px on a
// 1280 px canvas is 36 pt on a 13.333 in slide), a heading bound to the
// slide's title shown once, an SVG picture drawn, every arrow glued at
// both ends (pictures too), no stray glyph beside an equation, quiz
// questions at one margin with an author's numbers ascending, the grade
// as written, prerequisites and standards on the overview.
func TestPPTXMatchesTheBoard(t *testing.T) {
	data := renderPPTX(t, boardLesson, false)
	pptxtest.Check(t, data)

	// Glue, in the deck itself: each of the board's four arrows is glued
	// at both ends, and the SVG goes in beside its PNG.
	parts := pptxtest.Parts(t, data)
	slide := string(pptxtest.Slides(parts)[1])
	if n, st, end := strings.Count(slide, "<p:cxnSp>"), strings.Count(slide, "<a:stCxn "), strings.Count(slide, "<a:endCxn "); n != 4 || st != 4 || end != 4 {
		t.Errorf("slide 2: %d connectors, %d glued at the start and %d at the end, want 4 of each", n, st, end)
	}
	if !strings.Contains(slide, `<asvg:svgBlip xmlns:asvg="http://schemas.microsoft.com/office/drawing/2016/SVG/main" r:embed="`) {
		t.Error("slide 2 has no SVG picture (asvg:svgBlip)")
	}
	svgs := 0
	for name := range parts {
		if strings.HasPrefix(name, "ppt/media/") && strings.HasSuffix(name, ".svg") {
			svgs++
		}
	}
	if svgs != 1 {
		t.Errorf("%d SVG media parts, want 1", svgs)
	}

	deck := filepath.Join(t.TempDir(), "board.pptx")
	if err := os.WriteFile(deck, data, 0o644); err != nil {
		t.Fatal(err)
	}
	pdf := pptxtest.Impress(t, deck)[deck]
	if len(pdf.Pages) < 3 {
		t.Fatalf("%d pages, want the overview, the board and the quiz", len(pdf.Pages))
	}
	for i, p := range pdf.Pages {
		if strings.ContainsAny(p, "¿\uFFFD") {
			t.Errorf("page %d has a stray glyph: %q", i+1, p)
		}
	}

	// The overview: the grade as written, prerequisites and standards.
	overview := strings.Join(strings.Fields(pdf.Pages[0]), " ")
	for _, want := range []string{"Year 5 · science", "Prerequisites", "Counting to ten", "Standards", "NGSS 5-LS1-1"} {
		if !strings.Contains(overview, want) {
			t.Errorf("the overview lacks %q: %s", want, overview)
		}
	}
	if strings.Contains(overview, "Grade") {
		t.Errorf("the overview adds a word to the grade: %s", overview)
	}

	// The board: sizes as drawn. Poppler's box of a word set in Liberation
	// Sans (Impress's Arial) is 1.30 times its size in points.
	board := words(t, pdf.Path, 2)
	const boxPerPoint = 1.30
	for _, c := range []struct {
		word string
		pt   float64
	}{{"Type", 36}, {"Light", 30}} { // the text at 48 px, the heading at 40 px
		ws := find(board, c.word)
		if len(ws) == 0 {
			t.Errorf("the board page lacks %q", c.word)
			continue
		}
		if got := (ws[0].yMax - ws[0].yMin) / boxPerPoint; got < c.pt-0.75 || got > c.pt+0.75 {
			t.Errorf("%q is drawn at %.1f pt, want %.0f pt as the board draws it", c.word, got, c.pt)
		}
	}
	if n := len(find(board, "Light")); n != 1 {
		t.Errorf("the title bound to the heading is shown %d times, want once", n)
	}
	// ... and drawn over the board's fill, not under it: the heading's
	// ink (#1b1f24) in its band (canvas 20..1260 × 20..84).
	if !hasColour(t, pdf.Path, 2, image.Rect(15, 15, 400, 63), 0x1b, 0x1f, 0x24) {
		t.Error("the heading is not seen: drawn under the board's fill?")
	}
	// The SVG picture, drawn: its blue circle inside the picture's box
	// (canvas 700..1000 × 480..630, 0.75 pt a pixel).
	if !hasColour(t, pdf.Path, 2, image.Rect(700*3/4, 480*3/4, 1000*3/4, 630*3/4), 0x30, 0x70, 0xc0) {
		t.Error("the SVG picture is not drawn (no blue of its circle in its box)")
	}

	// The quiz: each question at the first's margin; an author's numbers
	// ascending, its other options not answer first.
	quiz := words(t, pdf.Path, 3)
	one, two, three := find(quiz, "1."), find(quiz, "2."), find(quiz, "3.")
	if len(one) == 0 || len(two) == 0 || len(three) == 0 {
		t.Fatalf("the quiz page lacks a question number: %v", quiz)
	}
	for _, q := range [][]word{two, three} {
		if d := q[0].xMin - one[0].xMin; d > 1 || d < -1 {
			t.Errorf("question %s is indented %.1f pt from question 1", q[0].text, d)
		}
	}
	page := strings.Join(strings.Fields(pdf.Pages[2]), " ")
	if !strings.Contains(page, "A. 3 B. 4 C. 6 D. 8") {
		t.Errorf("the numbers are not ascending: %s", page)
	}
	if strings.Contains(page, "A. oxygen") && strings.Contains(page, "A. fern") {
		t.Errorf("every answer is A: %s", page)
	}
}

// hasColour reports whether Impress's page shows colour (r, g, b), within
// a little, inside box (points).
func hasColour(t *testing.T, pdf string, page int, box image.Rectangle, r, g, b uint8) bool {
	t.Helper()
	n := strconv.Itoa(page)
	// 72 dpi: a pixel is a point.
	out, err := exec.Command("pdftoppm", "-f", n, "-l", n, "-r", "72", "-png", pdf).Output()
	if err != nil {
		t.Skipf("pdftoppm: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	near := func(a uint32, b uint8) bool { d := int(a>>8) - int(b); return d > -24 && d < 24 }
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if near(cr, r) && near(cg, g) && near(cb, b) {
				return true
			}
		}
	}
	return false
}
