package render_test

import (
	"bytes"
	"context"
	"fmt"
	stdhtml "html"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/yuin/goldmark"
	gmhtml "github.com/yuin/goldmark/renderer/html"

	"github.com/lessongen/lessongen/render"
)

// attacks are hostile texts a model or a planted lesson can put in any
// field. Each that runs sets window.__pwned; each that fetches aims at a
// closed loopback port, so a request shows without leaving the machine.
var attacks = map[string]string{
	"script":        `<script>window.__pwned="script"</script>`,
	"textarea":      `</textarea><script>window.__pwned="textarea"</script>`,
	"raw text ends": `</title></textarea></style></script></noscript><script>window.__pwned="ends"</script>`,
	"attribute":     `"><img src=x onerror="window.__pwned='attribute'">`,
	"single quote":  `'><img src=x onerror=window.__pwned='single'>`,
	"javascript":    `javascript:window.__pwned="javascript"`,
	"style":         `</style><script>window.__pwned="style"</script>`,
	"svg":           `</text></svg><svg onload="window.__pwned='svg'"><foreignObject><img xmlns="http://www.w3.org/1999/xhtml" src="x" onerror="window.__pwned='foreign'"/></foreignObject></svg>`,
	"css url":       `x" style="background:url(http://127.0.0.1:9/css)`,
	"comment end":   `--!><script>window.__pwned="bang"</script>`,
	"comment":       `--><script>window.__pwned="comment"</script><!--`,
	"controls":      "\x1b[2J\x1b]0;title\x07\x08\x7f\u0085",
	"bidi":          "\u202e\u2066evil\u2069\u202c",
	"markdown":      "x\r\r![i](http://127.0.0.1:9/md.png) [l](javascript:window.__pwned='md') <img src=x onerror=window.__pwned='md'>",
	"entity":        `&lt;script&gt;window.__pwned="entity"&lt;/script&gt; &#60;img src=x onerror=window.__pwned=1&#62;`,
	"image url":     `<img src="http://127.0.0.1:9/img.png">`,
	"template":      `{{ .lesson.title }}<script>window.__pwned="template"</script>`,
}

// hostileLesson puts a in every text field of every modality: the
// lesson's metadata, a slide's title, section and notes, the whiteboard's
// heading and every element kind's text, and the quiz; as values and as
// the hints of pending spots, and in citations.
func hostileLesson(t testing.TB, a string) string {
	q := func(suffix string) string { return yamlString(t, a+suffix) }
	p := func(suffix string) string { return "!pending " + q(suffix) }
	return fmt.Sprintf(`version: 1
metadata:
  title: %[1]s
  subject: %[2]s
  grade: %[3]s
  duration_minutes: 20
  objectives: [{text: %[4]s, sources: [%[50]s]}]
  key_learning_points: [%[5]s]
  vocabulary:
    - {term: %[6]s, definition: %[7]s, sources: [%[50]s]}
    - {term: %[8]s, definition: %[9]s}
  misconceptions: [{misconception: %[10]s, response: %[11]s, sources: [%[50]s]}]
  materials: [%[12]s]
  prerequisites: [%[13]s]
  standards: [%[14]s]
  outcome: %[51]s
  key_questions: [%[52]s]
  licence: %[53]s
  attribution: %[54]s
  sections: [{name: %[16]s, outcome: %[55]s}]
slides:
  - id: s1
    title: %[15]s
    section: %[16]s
    duration_minutes: 5
    notes: %[17]s
    sources: [%[50]s]
    whiteboard:
      heading: %[18]s
      layout: %[19]s
      elements:
        - {id: t, type: text, x: 40, y: 100, w: 500, h: 100, text: %[20]s, sources: [%[50]s]}
        - {id: b, type: shape, shape: rect, x: 600, y: 100, w: 300, h: 100, label: %[21]s}
        - {id: c, type: shape, shape: ellipse, x: 600, y: 300, w: 300, h: 100, label: %[22]s}
        - {id: ar, type: arrow, from: b, to: c, label: %[23]s}
        - {id: eq, type: equation, x: 40, y: 300, w: 500, h: 100, latex: %[24]s}
        - {id: im, type: image, x: 40, y: 450, w: 300, h: 200, description: %[25]s, alt: %[26]s}
        - {id: p, type: text, x: 600, y: 450, w: 300, h: 100, text: %[27]s}
        - {id: sp, type: shape, shape: rect, x: 950, y: 100, w: 300, h: 100, label: %[28]s}
        - %[29]s
    quiz:
      kind: check%.0[30]s
      instructions: %[31]s
      questions:
        - {id: q1, prompt: %[32]s, answers: [%[33]s], distractors: [%[34]s, %[35]s], feedback: %[36]s, sources: [%[50]s]}
        - {id: q2, prompt: %[37]s, answers: %[38]s, distractors: %[39]s, feedback: %[40]s}
        - %[41]s
  - id: s2
    title: %[42]s
    section: %[43]s
    duration_minutes: %[44]s
    notes: %[45]s
    whiteboard: %[46]s
    quiz:
      instructions: %[47]s
      questions: %[48]s
  - %[49]s
`,
		q(" title"), q(" subject"), q(" grade"), q(" objective"), q(" point"),
		q(" term"), q(" definition"), q(" term 2"), p(" definition hint"),
		q(" misconception"), q(" response"), q(" material"), q(" prerequisite"), q(" standard"),
		q(" slide title"), q(" section"), q(" notes"),
		q(" heading"), q(" layout"), q(" text"), q(" rect label"), q(" ellipse label"), q(" arrow label"),
		q(" latex"), q(" description"), q(" alt"), p(" text hint"), p(" label hint"), p(" element hint"),
		"", q(" instructions"), q(" prompt"), q(" answer"), q(" distractor"), q(" distractor 2"), q(" feedback"),
		p(" prompt hint"), p(" answers hint"), p(" distractors hint"), p(" feedback hint"), p(" question hint"),
		q(" slide 2 title"), p(" section hint"), p(" minutes hint"), p(" notes hint"), p(" whiteboard hint"),
		p(" instructions hint"), p(" questions hint"), p(" slide hint"),
		q(" source.md:1"),
		q(" outcome"), q(" key question"), q(" licence"), q(" attribution"), q(" section outcome"))
}

// hostileNotes are notes for the author (note_for_author) carrying a, on
// a slide's child and on the lesson.
func hostileNotes(a string) []render.AuthorNote {
	return []render.AuthorNote{
		{Node: "slides/s1/whiteboard", About: a + " about", Text: a + " note"},
		{Node: "lesson", About: a + " lesson about", Text: a + " lesson note"},
	}
}

// renderHostile renders lesson with notes as HTML and as Markdown.
func renderHostile(t *testing.T, lesson string, notes []render.AuthorNote) (html, md []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "lesson.yaml")
	if err := os.WriteFile(path, []byte(lesson), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := registry(t)
	doc := load(t, path, reg)
	var h, m bytes.Buffer
	if err := render.HTMLWithNotes(&h, doc, reg, notes); err != nil {
		t.Fatal(err)
	}
	if err := render.MarkdownWithNotes(&m, doc, reg, notes); err != nil {
		t.Fatal(err)
	}
	return h.Bytes(), m.Bytes()
}

// markdownPage is md as a Markdown previewer that passes HTML through
// shows it (goldmark, CommonMark, raw HTML kept), front matter and all.
func markdownPage(t *testing.T, md []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n")
	if err := goldmark.New(goldmark.WithRendererOptions(gmhtml.WithUnsafe())).Convert(md, &b); err != nil {
		t.Fatal(err)
	}
	b.WriteString("</body></html>\n")
	return b.Bytes()
}

// pageCheck is what a page did once loaded in the browser.
type pageCheck struct {
	Pwned    any      `json:"pwned"`
	Links    []string `json:"links"` // hrefs that leave the page
	Requests []string // URLs requested other than the page and data:
}

// openPage loads page from a file in the real browser and reports any
// script that ran, any link off the page and any request that left it.
func openPage(t *testing.T, ctx context.Context, name string, page []byte) pageCheck {
	t.Helper()
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, page, 0o644); err != nil {
		t.Fatal(err)
	}
	url := "file://" + file
	tctx, cancel := chromedp.NewContext(ctx)
	defer cancel()
	var mu sync.Mutex
	var requests []string
	if err := chromedp.Listen(tctx, func(ev any) {
		if r, ok := ev.(*network.EventRequestWillBeSent); ok {
			if u := r.Request.URL; u != url && !strings.HasPrefix(u, "data:") {
				mu.Lock()
				requests = append(requests, u)
				mu.Unlock()
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(tctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	// Give onerror and onload handlers and fonts time to run, then look.
	got, err := chromedp.Run(tctx, chromedp.Evaluate[pageCheck](`new Promise(r => setTimeout(r, 300)).then(() => ({
		pwned: window.__pwned ?? null,
		links: [...document.querySelectorAll("[href],[src],[action],[formaction]")]
			.flatMap(e => ["href", "src", "action", "formaction", "xlink:href"].map(a => e.getAttribute(a)))
			.filter(h => h !== null && !h.startsWith("#")),
	}))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	mu.Lock()
	got.Requests = requests
	mu.Unlock()
	return got
}

// Every text field of every modality, with every attack, rendered as HTML
// and as Markdown (through a previewer that passes HTML through) and
// opened in a real browser: no script runs, no link or request leaves the
// page, the page keeps its pages, and the text arrives as text.
func TestHostileFieldsInTheBrowser(t *testing.T) {
	bctx := newBrowserFor(t, 10*time.Minute)  // 32 pages on a busy machine
	if err := chromedp.Do(bctx); err != nil { // start the browser once
		t.Fatal(err)
	}
	for name, a := range attacks {
		t.Run(name, func(t *testing.T) {
			html, md := renderHostile(t, hostileLesson(t, a), hostileNotes(a))
			// The embedded fonts, 400 kB of data: URLs that no field
			// reaches, are left out of the pages: 32 loads stay quick.
			noFonts := func(b []byte) []byte { return fontFaces.ReplaceAll(b, []byte("${1}@font-face{}")) }
			for _, pg := range []struct {
				name string
				page []byte
			}{{"lesson.html", noFonts(html)}, {"lesson.md.html", markdownPage(t, noFonts(md))}} {
				got := openPage(t, bctx, pg.name, pg.page)
				if got.Pwned != nil {
					t.Errorf("%s: a script ran: window.__pwned = %v", pg.name, got.Pwned)
				}
				if len(got.Links) > 0 {
					t.Errorf("%s: links or sources off the page: %q", pg.name, got.Links)
				}
				if len(got.Requests) > 0 {
					t.Errorf("%s: requests left the page: %q", pg.name, got.Requests)
				}
			}
			// The HTML holds each field's text as text: the prompt's
			// hostile text is there, escaped, not dropped.
			if !bytes.Contains(html, []byte(stdhtml.EscapeString(a+" prompt"))) {
				t.Errorf("the quiz prompt is not in the page as escaped text")
			}
		})
	}
}
