package render_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/yuin/goldmark"
	gmhtml "github.com/yuin/goldmark/renderer/html"

	"github.com/lessongen/lessongen/quiz"
	"github.com/lessongen/lessongen/render"
)

// marpMarkdown renders path as render -o lesson.md does: the style loads
// the font from lesson.fonts/.
func marpMarkdown(t *testing.T, path string) []byte {
	t.Helper()
	reg := registry(t)
	var b bytes.Buffer
	if err := render.MarkdownWriterFonts(false, "lesson.fonts")(&b, load(t, path, reg), reg, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var svgOpen = regexp.MustCompile(`<svg\b[^>]*>`)

// The Markdown holds no font as a data URI: the style loads each font
// file by a relative url into the folder it was given; every board keeps
// its viewBox, so Marp can scale it.
func TestMarkdownFontIsAFile(t *testing.T) {
	for _, path := range []string{example, allKinds} {
		md := string(marpMarkdown(t, path))
		if strings.Contains(md, "data:") || strings.Contains(md, "base64") {
			t.Errorf("%s: the Markdown holds a data URI", path)
		}
		for name := range render.FontFiles() {
			if !strings.Contains(md, "url('lesson.fonts/"+name+"')") {
				t.Errorf("%s: the style does not load lesson.fonts/%s", path, name)
			}
		}
		svgs := svgOpen.FindAllString(md, -1)
		if len(svgs) == 0 {
			t.Fatalf("%s: no board in the Markdown", path)
		}
		for _, s := range svgs {
			if strings.Contains(s, `class="whiteboard"`) && !strings.Contains(s, ` viewBox="0 0 `) {
				t.Errorf("%s: a board without a viewBox: %s", path, s)
			}
		}
	}
}

// A font folder named with spaces, quotes or a newline reaches the style
// percent-escaped: nothing in it ends the url, the CSS string or the
// YAML block it sits in.
func TestMarkdownFontURLEscaped(t *testing.T) {
	reg := registry(t)
	var b bytes.Buffer
	if err := render.MarkdownWriterFonts(false, "it's a (\"lesson\")\n.fonts")(&b, load(t, example, reg), reg, nil); err != nil {
		t.Fatal(err)
	}
	want := "url('it%27s%20a%20%28%22lesson%22%29%0A.fonts/LessongenGo-Bold.ttf')"
	if !strings.Contains(b.String(), want) {
		t.Errorf("the style lacks %s:\n%.1200s", want, b.String())
	}
}

// Without a font folder (-o -) the style names no font file.
func TestMarkdownWithoutFontFolder(t *testing.T) {
	md := write(t, example, render.MarkdownWriter(false))
	if bytes.Contains(md, []byte("@font-face")) || bytes.Contains(md, []byte(".ttf")) {
		t.Errorf("the style loads a font though none was written:\n%.800s", md)
	}
}

// marpBase is what Marp's default theme (marp-core 4.4) sets that bears on
// fit and labels: the 1280×720 slide, its padding and type, and the rule
// that numbers a list in a list i, ii, iii.
const marpBase = `body > section{box-sizing:border-box;display:block;width:1280px;height:720px;padding:78.5px;font-size:29px;
place-content:safe center center;flex-flow:column nowrap;align-items:stretch;overflow:hidden;position:relative;margin:0 0 8px}
h1{font-size:1.8em} h2{font-size:1.5em} ol ol{list-style-type:lower-roman} body{margin:0}`

// marpPage lays md out as Marp does, one 1280×720 section per slide under
// the theme's rules and the front matter's style, its HTML drawn by a
// CommonMark converter that passes HTML through (as marp --html does).
// Marp scopes a style's section selector to the slides (a section in a
// slide, the quiz's, is not one); so does this page.
func marpPage(t *testing.T, md []byte) string {
	t.Helper()
	front, body, ok := strings.Cut(strings.TrimPrefix(string(md), "---\n"), "\n---\n")
	_, style, ok2 := strings.Cut(front, "style: |\n")
	if !ok || !ok2 {
		t.Fatalf("no front matter style in:\n%.400s", md)
	}
	var page strings.Builder
	scoped := regexp.MustCompile(`(?m)^(\s*)section\b`).ReplaceAllString(style, "${1}body > section")
	page.WriteString("<!DOCTYPE html><meta charset=utf-8><style>" + marpBase + "\n" + scoped + "</style>\n")
	for _, slide := range strings.Split(body, "\n---\n") {
		var h bytes.Buffer
		if err := goldmark.New(goldmark.WithRendererOptions(gmhtml.WithUnsafe())).Convert([]byte(slide), &h); err != nil {
			t.Fatal(err)
		}
		page.WriteString("<section>" + h.String() + "</section>\n")
	}
	return page.String()
}

// fitJS measures every slide: content past the padding (scrollHeight over
// clientHeight, overflow being hidden), each board's height, and the
// marker type of each quiz option list; and whether the fonts loaded.
const fitJS = `document.fonts.ready.then(() => ({
  fonts: [...document.fonts].filter(f => f.status === "loaded").length,
  slides: [...document.querySelectorAll("body > section")].map(s => ({
    text: s.innerText.slice(0, 40), over: s.scrollHeight - s.clientHeight,
    boards: [...s.querySelectorAll("svg.whiteboard")].map(b => b.getBoundingClientRect().height),
  })),
  labels: [...document.querySelectorAll("ol.options")].map(o => getComputedStyle(o).listStyleType),
}))`

type fitResult struct {
	Fonts  int
	Slides []struct {
		Text   string
		Over   float64
		Boards []float64
	}
	Labels []string
}

// longLesson writes a lesson of 20 slides with a full overview, whose
// timeline alone is taller than a slide, and returns its path.
func longLesson(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("version: 1\nmetadata:\n  title: A long lesson on the water cycle and weather systems\n  subject: geography\n  grade: \"8\"\n  duration_minutes: 80\n")
	b.WriteString("  objectives: [Describe the stages of the water cycle, Explain how clouds form from rising air, Relate air pressure to the weather we see, Read a simple weather map]\n")
	b.WriteString("  vocabulary:\n")
	for _, term := range []string{"evaporation", "condensation", "precipitation", "front", "humidity"} {
		fmt.Fprintf(&b, "    - {term: %s, definition: a plain definition of %s for pupils}\n", term, term)
	}
	b.WriteString("  prerequisites: [States of matter, Heat makes particles move faster]\n  standards: [GEO 8.2, GEO 8.3]\nslides:\n")
	// The first slide's quiz has six questions of four options each.
	b.WriteString("  - id: s0\n    title: Check what you know\n    section: Engage\n    duration_minutes: 4\n    quiz:\n      questions:\n")
	for q := 1; q <= 6; q++ {
		fmt.Fprintf(&b, "        - {id: q%d, prompt: \"Which of these is stage %d of the water cycle?\", answers: [evaporation], distractors: [combustion, photosynthesis, erosion]}\n", q, q)
	}
	for i := 1; i <= 19; i++ {
		fmt.Fprintf(&b, "  - {id: s%d, title: Slide %d on part %d of the water cycle, section: Explore, duration_minutes: 4, notes: Part %d.}\n", i, i, i, i)
	}
	path := filepath.Join(t.TempDir(), "lesson.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Laid out as Marp lays it out (its theme, the Markdown's style, a real
// browser), every slide of the example, of allkinds and of a 20-slide
// lesson fits its 1280×720
// page with nothing cut off, every board is drawn large, the options are
// labelled as the HTML page labels them (quiz.OptionLabel: A, B, C), and
// the font files beside the Markdown load.
func TestBrowserMarkdownFitsMarp(t *testing.T) {
	ctx := newBrowser(t)
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "lesson.fonts"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range render.FontFiles() {
		if err := os.WriteFile(filepath.Join(dir, "lesson.fonts", name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	measure := func(name, page string) fitResult {
		t.Helper()
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file)); err != nil {
			t.Fatal(err)
		}
		v, err := chromedp.Run(ctx, chromedp.Evaluate[any](fitJS, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		var r fitResult
		b, _ := json.Marshal(v)
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	wantLabel := map[string]string{"A": "upper-alpha", "a": "lower-alpha", "1": "decimal"}[quiz.OptionLabel(0)]
	for i, path := range []string{example, allKinds, longLesson(t)} {
		md := measure(fmt.Sprintf("md%d.html", i), marpPage(t, marpMarkdown(t, path)))
		html := measure(fmt.Sprintf("page%d.html", i), string(renderHTML(t, path)))
		// A browser loads a face only when text uses it: Go Mono only
		// when a board draws code.
		wantFonts := len(render.FontFiles())
		if !strings.Contains(string(marpMarkdown(t, path)), "<g class=\"el code\"") {
			wantFonts--
		}
		if md.Fonts != wantFonts {
			t.Errorf("%s: %d of the font files beside the Markdown loaded, want %d", path, md.Fonts, wantFonts)
		}
		for n, s := range md.Slides {
			if s.Over > 0.5 {
				t.Errorf("%s: slide %d (%q) runs %.0f px past Marp's page", path, n+1, s.Text, s.Over)
			}
			for _, h := range s.Boards {
				if h < 400 {
					t.Errorf("%s: slide %d (%q): a board only %.0f px high", path, n+1, s.Text, h)
				}
			}
		}
		if len(md.Labels) != len(html.Labels) {
			t.Fatalf("%s: %d option lists in the Markdown, %d in the HTML", path, len(md.Labels), len(html.Labels))
		}
		for n := range md.Labels {
			if md.Labels[n] != wantLabel || html.Labels[n] != wantLabel {
				t.Errorf("%s: option list %d is labelled %s in Marp, %s in the HTML; want %s (%s, B, …)", path, n+1, md.Labels[n], html.Labels[n], wantLabel, quiz.OptionLabel(0))
			}
		}
	}
}
