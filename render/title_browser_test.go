package render_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lessongen/lessongen/render"
)

// TestBrowserBoundHeadingOnce: a slide whose board heading is bound to
// its title shows the title once, on the page and presenting (#41); the
// page's own heading is kept, unseen, for screen readers and the
// presenter's "Next".
func TestBrowserBoundHeadingOnce(t *testing.T) {
	ctx := newBrowser(t)
	b := tab{t, ctx}
	reg := registry(t)
	for _, present := range []bool{false, true} {
		var page bytes.Buffer
		if err := render.HTMLWriterWith(render.HTMLOptions{Present: present})(&page, load(t, boardLesson, reg), reg, nil); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "lesson.html")
		if err := os.WriteFile(file, page.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(1366, 768), chromedp.Navigate("file://"+file+"#slide-board")); err != nil {
			t.Fatal(err)
		}
		var shown struct {
			Seen  int    `json:"seen"`
			Title string `json:"title"`
		}
		b.eval(`new Promise(r => setTimeout(r, 200)).then(() => {
  const page = document.getElementById("slide-board");
  const seen = [...page.querySelectorAll("h2, g.wb-heading")].filter(e => {
    const r = e.getBoundingClientRect();
    return e.textContent.trim() === "Light and leaves" && r.width > 2 && r.height > 2;
  });
  return {seen: seen.length, title: (page.querySelector("h2") || {}).textContent || ""};
})`, &shown)
		if shown.Seen != 1 {
			t.Errorf("present %v: the title is shown %d times, want once", present, shown.Seen)
		}
		if shown.Title != "Light and leaves" {
			t.Errorf("present %v: the page's heading is %q, want the title kept", present, shown.Title)
		}
	}
}
