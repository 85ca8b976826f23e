package render_test

import (
	"bytes"
	"context"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/lessongen/lessongen/render"
)

// teacherOnly is what only the teacher's copy of allkinds holds: speaker
// notes, a note for the author, the answer key with its feedback, the
// overview's misconceptions with their responses, and the notes' headings.
var teacherOnly = []string{
	"Point at each box in turn", // speaker notes
	"check the Hebrew options",  // a note for the author
	"Answer key", "0 °C at sea level", "Quiz sources", "Notes for the author",
	"It is water vapour condensing into droplets", // a misconception's response, on the overview
	`class="notes"`,
	// the answer key of every question type: a why of an option and of a
	// true/false answer, a model answer, a numeric answer with its
	// tolerance, an order's and a match's solution
	"WHY-HIDDEN-steam-is-not-boiling", "WHY-HIDDEN-ice-floats", "MODEL-HIDDEN-the-water-evaporates",
	"7.2 ± 0.05 cm", "In order: ", "(melt → solid to liquid)",
}

var handoutNotes = []render.AuthorNote{{Node: "slides/states/quiz", About: "quiz", Text: "check the Hebrew options"}}

// write renders path with w, with handoutNotes as the author's notes.
func write(t *testing.T, path string, w render.Writer) []byte {
	t.Helper()
	reg := registry(t)
	var b bytes.Buffer
	if err := w(&b, load(t, path, reg), reg, handoutNotes); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The pupil copy holds nothing that is for the teacher alone — not hidden,
// absent, so viewing the source shows none of it — while the slides and
// questions are all there; the teacher's copy holds it all.
func TestHandoutLeavesOutNotesAndAnswers(t *testing.T) {
	for _, f := range []struct {
		name string
		w    func(bool) render.Writer
	}{{"html", render.HTMLWriter}, {"md", render.MarkdownWriter}} {
		teacher, pupil := write(t, allKinds, f.w(false)), write(t, allKinds, f.w(true))
		for _, s := range teacherOnly {
			if f.name == "md" && strings.Contains(s, "class=") {
				continue // Marp's notes are comments, not asides
			}
			if !bytes.Contains(teacher, []byte(s)) {
				t.Errorf("%s: the teacher copy lacks %q", f.name, s)
			}
			if bytes.Contains(pupil, []byte(s)) {
				t.Errorf("%s: the handout holds %q", f.name, s)
			}
		}
		for _, s := range []string{"At what temperature does water freeze?", "Three states", "Ice 冰",
			"Put the cycle in order.", "precipitation", "solid to liquid", "answer-space", "Think of a kettle."} {
			if !bytes.Contains(pupil, []byte(s)) {
				t.Errorf("%s: the handout lacks %q", f.name, s)
			}
		}
		if f.name == "md" && bytes.Contains(pupil, []byte("<!--")) {
			t.Error("md: the handout has a presenter note")
		}
	}
	pupil := write(t, allKinds, render.HTMLWriter(true))
	if bytes.Contains(pupil, []byte(`<fieldset class="print-switch"`)) || !bytes.Contains(pupil, []byte(`<body class="handout">`)) {
		t.Error("the handout page should be marked as one and have no teacher/pupil print switch")
	}
}

// printed reads, with print media emulated, whether each quiz page's notes
// show and what the first question leaves as room to answer.
func printed(t *testing.T, ctx context.Context) (notes string, room string) {
	t.Helper()
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[
		document.querySelector(".notes") ? getComputedStyle(document.querySelector(".notes")).display : "absent",
		getComputedStyle(document.querySelector(".quiz li.question"), "::after").content]`))
	if err != nil {
		t.Fatal(err)
	}
	return got[0], got[1]
}

// In the browser, the teacher's page prints the teacher copy (notes
// shown, even after N hid them on screen) until its print switch is set
// to the pupil copy (no notes, room to answer); the handout prints the
// pupil copy; no slide footer prints over the notes.
func TestPrintSwitchInTheBrowser(t *testing.T) {
	ctx := newBrowser(t)
	dir := t.TempDir()
	for _, handout := range []bool{false, true} {
		file := filepath.Join(dir, "lesson-"+strconv.FormatBool(handout)+".html")
		if err := os.WriteFile(file, write(t, allKinds, render.HTMLWriter(handout)), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file), chromedp.EmulateViewport(1200, 900)); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "screen"}); err != nil {
			t.Fatal(err)
		}
		if handout {
			if notes, room := printed(t, ctx); notes != "absent" || room != `"Answer:"` {
				t.Errorf("the handout prints notes %s and room to answer %s, want absent and \"Answer:\"", notes, room)
			}
			continue
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent("n")); err != nil { // hide the notes on screen
			t.Fatal(err)
		}
		if notes, room := printed(t, ctx); notes != "block" || room != "none" {
			t.Errorf("the teacher copy prints notes %s and room to answer %s, want block and none", notes, room)
		}
		footer, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector(".slide footer")).display`))
		if err != nil || footer != "none" {
			t.Errorf("slide footers print as %q (%v), want none: page numbers come from the printer", footer, err)
		}
		// The switch is on screen, not on paper: click it there.
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "screen"}); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("print-pupil"))); err != nil {
			t.Fatal(err)
		}
		if notes, room := printed(t, ctx); notes != "none" || room != `"Answer:"` {
			t.Errorf("with the switch on pupil copy the page prints notes %s and room to answer %s, want none and \"Answer:\"", notes, room)
		}
	}
}

// poppler finds pdfinfo, pdftotext, pdffonts and pdftoppm, or skips.
func poppler(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"pdfinfo", "pdftotext", "pdffonts", "pdftoppm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s on PATH (apt-get install poppler-utils): skipping the PDF checks", tool)
		}
	}
}

func tool(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		t.Fatalf("%s %q: %v", name, args, err)
	}
	return string(out)
}

var pdfPages = regexp.MustCompile(`(?m)^Pages:\s+(\d+)$`)

// The PDF, through the real browser, as poppler reads it: each page of
// the lesson (overview and slides) starts a sheet with its title, a page
// too long for one goes on over the next (never shrunk: see
// TestPDFTextSizes), page numbers, every font embedded; the handout
// without notes or answers.
// With -update the second sheet of each goes to docs/img as a picture.
func TestPDF(t *testing.T) {
	browser, err := render.FindBrowser("")
	if err != nil {
		t.Skipf("%v: skipping the PDF test", err)
	}
	poppler(t)
	dir := shotDir(t) // $RENDER_SHOTS keeps the PDFs for a look
	for i, c := range []struct {
		lesson  string
		handout bool
		img     string // a picture of one sheet, for the README and docs/reference.md
		sheet   string // which sheet img shows: the one its slide's title starts, or "" for the second
		has     string // what only the teacher copy holds
	}{
		{example, false, "print-teacher.png", "", "Hold up a leaf"},
		{allKinds, false, "", "", "0 °C at sea level"}, // taller than a sheet: shrunk to fit
		{allKinds, true, "", "", ""},
		{example, true, "print-handout.png", "In what order?", ""}, // an activity, an order and a short question
	} {
		pdf := filepath.Join(dir, "print-"+strconv.Itoa(i)+".pdf")
		if err := os.WriteFile(pdf, write(t, c.lesson, render.PDFWriter(t.Context(), browser, c.handout)), 0o644); err != nil {
			t.Fatal(err)
		}
		page := write(t, c.lesson, render.HTMLWriter(c.handout))
		pages := bytes.Count(page, []byte(`<section class="page`))
		m := pdfPages.FindStringSubmatch(tool(t, "pdfinfo", pdf))
		sheets, _ := strconv.Atoi(m[1])
		if sheets < pages {
			t.Errorf("%s (handout %v): pdfinfo says %d pages, want at least %d (each page of the lesson on its own)", c.lesson, c.handout, sheets, pages)
		}
		text := tool(t, "pdftotext", pdf, "-")
		for _, title := range regexp.MustCompile(`<header><h2>([^<]+)</h2>`).FindAllStringSubmatch(string(page), -1) {
			if sheetStarting(text, html.UnescapeString(title[1])) == 0 {
				t.Errorf("%s: no sheet of the PDF starts with the slide title %q", c.lesson, title[1])
			}
		}
		if n := strconv.Itoa(sheets); !strings.Contains(text, "page 2 / "+n) || !strings.Contains(text, "page "+n+" / "+n) {
			t.Errorf("%s: no page numbers (page 2 / %s) in the PDF's text", c.lesson, n)
		}
		checkFonts(t, c.lesson, tool(t, "pdffonts", pdf))
		if c.handout {
			for _, s := range teacherOnly[:5] {
				if strings.Contains(text, s) {
					t.Errorf("%s: the handout PDF holds %q", c.lesson, s)
				}
			}
		} else if !strings.Contains(text, c.has) {
			t.Errorf("%s: the teacher copy lacks %q", c.lesson, c.has)
		}
		if *update && c.img != "" {
			sheet := "2"
			if c.sheet != "" {
				sheet = strconv.Itoa(sheetStarting(text, c.sheet))
			}
			tool(t, "pdftoppm", "-r", "60", "-f", sheet, "-l", sheet, "-singlefile", "-png", pdf, filepath.Join("..", "docs", "img", strings.TrimSuffix(c.img, ".png")))
		}
	}
}

// sheetStarting is the 1-based sheet of pdftotext's text whose first
// line is title, 0 for none. pdftotext sets a run of another script
// (a title's Chinese) apart, so a first line that begins the title will
// do.
func sheetStarting(text, title string) int {
	for i, sheet := range strings.Split(text, "\f") {
		if first, _, _ := strings.Cut(strings.TrimSpace(sheet), "\n"); first != "" && strings.HasPrefix(title, first) && len(first) >= min(len(title), 6) {
			return i + 1
		}
	}
	return 0
}

// checkFonts fails unless pdffonts lists fonts, each embedded.
func checkFonts(t *testing.T, name, list string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(list), "\n")
	if len(lines) < 3 {
		t.Errorf("%s: pdffonts lists no fonts:\n%s", name, list)
		return
	}
	for _, l := range lines[2:] {
		// name type encoding emb sub uni object ID: emb is 5th from the end.
		f := strings.Fields(l)
		if len(f) < 6 || f[len(f)-5] != "yes" {
			t.Errorf("%s: a font is not embedded: %s", name, l)
		}
	}
}

// The overview's citations (an objective's, a term's, a response's) are
// the teacher's, as a slide's are: the handout leaves them out.
func TestHandoutLeavesOutOverviewSources(t *testing.T) {
	for name, w := range map[string]func(bool) render.Writer{"html": render.HTMLWriter, "md": render.MarkdownWriter} {
		teacher, pupil := write(t, allKinds, w(false)), write(t, allKinds, w(true))
		if !bytes.Contains(teacher, []byte("states.md:1-4")) {
			t.Errorf("%s: the teacher copy lacks the objective's citation", name)
		}
		if bytes.Contains(pupil, []byte("states.md:1-4")) || bytes.Contains(pupil, []byte(`class="sources"`)) {
			t.Errorf("%s: the handout holds the overview's citations", name)
		}
		if !bytes.Contains(pupil, []byte("Name the states of water")) {
			t.Errorf("%s: the handout lacks the objective", name)
		}
	}
}
