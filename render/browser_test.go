package render_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// browserPath finds a Chromium or Chrome binary, "" when there is none.
func browserPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// newBrowser starts a headless browser for the test, or skips it.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	return newBrowserFor(t, 2*time.Minute)
}

// newBrowserFor is newBrowser for a test that may take up to d.
func newBrowserFor(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	path := browserPath()
	if path == "" {
		t.Skip("no Chromium or Chrome on PATH: skipping the real-browser test (.ci/run installs chromium)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.WindowSize(1200, 900))
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	return bctx
}

// shotDir is where screenshots go: $RENDER_SHOTS to keep them for a look,
// else the test's temporary directory.
func shotDir(t *testing.T) string {
	if d := os.Getenv("RENDER_SHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// TestBrowserExample opens the rendered example in a real browser: every
// page is there, the arrow keys move between pages, N toggles the notes,
// printing gives one slide per page, and the slides screenshot. With
// -update it writes docs/render-example.png, the README's picture.
func TestBrowserExample(t *testing.T) {
	ctx := newBrowser(t)
	file := filepath.Join(t.TempDir(), "lesson.html")
	if err := os.WriteFile(file, renderHTML(t, example), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file)); err != nil {
		t.Fatal(err)
	}
	eval := func(js string, out any) {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[any](js, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		b, _ := json.Marshal(v)
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatal(err)
		}
	}
	var pages, current int
	var fontsOK bool
	eval(`document.fonts.ready.then(() => [...document.fonts].length == 2 && [...document.fonts].every(f => f.status === "loaded"))`, &fontsOK)
	eval(`document.querySelectorAll(".page").length`, &pages)
	// The overview, five slides and the pending slide placeholder.
	if pages != 7 {
		t.Fatalf("the page has %d pages, want 7 (overview, 5 slides, 1 placeholder)", pages)
	}
	if !fontsOK {
		t.Error("the embedded fonts did not load")
	}

	// Navigation: right twice, left once, past both ends, Home.
	keys := func(k string, n int) {
		t.Helper()
		for range n {
			if err := chromedp.Do(ctx, chromedp.KeyEvent(k)); err != nil {
				t.Fatal(err)
			}
		}
		eval(`+document.body.dataset.page`, &current)
	}
	for _, step := range []struct {
		key  string
		n    int
		want int
	}{{kb.ArrowRight, 2, 2}, {kb.ArrowLeft, 1, 1}, {kb.ArrowLeft, 5, 0}, {kb.ArrowRight, 9, pages - 1}, {kb.Home, 1, 0}} {
		keys(step.key, step.n)
		if current != step.want {
			t.Errorf("after %d × %q the current page is %d, want %d", step.n, step.key, current, step.want)
		}
	}

	// N hides the notes and shows them again.
	notesShown := func() (shown bool) {
		t.Helper()
		eval(`getComputedStyle(document.querySelector("#slide-hook .notes")).display !== "none"`, &shown)
		return shown
	}
	if !notesShown() {
		t.Fatal("notes are hidden before N is pressed")
	}
	keys("n", 1)
	if notesShown() {
		t.Error("N did not hide the notes")
	}
	keys("N", 1)
	if !notesShown() {
		t.Error("a second N did not show the notes again")
	}

	// Screenshots of a few slides.
	dir := shotDir(t)
	for _, id := range []string{"overview", "slide-hook", "slide-equation", "slide-summary"} {
		sel := chromedp.CSS("#" + id)
		if err := chromedp.Do(ctx, chromedp.ScrollIntoView(sel)); err != nil {
			t.Fatal(err)
		}
		png, err := chromedp.Run(ctx, chromedp.Screenshot(sel))
		if err != nil {
			t.Fatal(err)
		}
		if len(png) < 1000 {
			t.Errorf("screenshot of %s is only %d bytes", id, len(png))
		}
		if err := os.WriteFile(filepath.Join(dir, id+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
		if *update && id == "slide-equation" {
			if err := os.WriteFile("../docs/render-example.png", png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}

	// Print: each page breaks after itself, and the PDF the browser prints
	// has a sheet or more per page.
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
		t.Fatal(err)
	}
	var breaks []string
	eval(`[...document.querySelectorAll(".page")].map(p => getComputedStyle(p).breakAfter + "/" + getComputedStyle(p).display)`, &breaks)
	for i, b := range breaks[:len(breaks)-1] {
		if b != "page/block" {
			t.Errorf("page %d prints as %s, want a page break after it and shown", i, b)
		}
	}
	yes := true
	res, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{Landscape: &yes, PreferCSSPageSize: &yes})
	if err != nil {
		t.Fatal(err)
	}
	pdf := res.Data
	if sheets := len(pdfPage.FindAll(pdf, -1)); sheets < pages {
		_ = os.WriteFile(filepath.Join(dir, "print.pdf"), pdf, 0o644)
		t.Errorf("printing gives %d sheets for %d pages, want each page on its own (PDF in %s)", sheets, pages, dir)
	}
	t.Logf("screenshots in %s; %d pages printed to %d bytes of PDF", dir, pages, len(pdf))
}

// pdfPage matches a page object of a PDF (not the /Pages tree).
var pdfPage = regexp.MustCompile(`/Type\s*/Page\b[^s]`)
