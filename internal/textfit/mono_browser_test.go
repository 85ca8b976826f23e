package textfit

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// Chromium draws code as measured: in the embedded Go Mono, every line as
// wide as Layout.Widths says, leading spaces and expanded tabs kept.
func TestBrowserMonoAgrees(t *testing.T) {
	ctx := newBrowser(t)
	code := "for f in *.txt\ndo\n\twc -l \"$f\"   # two spaces kept\n    echo done\n}"
	st := Style{FontSize: 20, Mono: true}
	l := Wrap(code, st, 1000)
	page := "<!doctype html><meta charset=utf-8><style>" + MonoFontFaceCSS() + "</style><svg width=800 height=300>" +
		l.SVG(Box{X: 10, Y: 10, W: 780, H: 280}, "left", "#222") + "</svg>"
	file := filepath.Join(t.TempDir(), "mono.html")
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	const js = `(async () => {
  await document.fonts.load('16px "` + MonoFamily + `"');
  await document.fonts.ready;
  return {status: [...document.fonts].map(f => f.status).join(" "),
    widths: [...document.querySelectorAll("tspan")].map(s => s.getComputedTextLength())};
})()`
	type result struct {
		Status string    `json:"status"`
		Widths []float64 `json:"widths"`
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file)); err != nil {
		t.Fatal(err)
	}
	res, err := chromedp.Run(ctx, chromedp.Evaluate[result](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "loaded" {
		t.Fatalf("Go Mono did not load: %q", res.Status)
	}
	if len(res.Widths) != len(l.Lines) {
		t.Fatalf("browser drew %d lines, want %d", len(res.Widths), len(l.Lines))
	}
	for i, w := range res.Widths {
		if math.Abs(w-l.Widths[i]) > 0.05 {
			t.Errorf("line %d %q: browser %.2f px, measured %.2f px (spaces lost or another face?)", i+1, l.Lines[i], w, l.Widths[i])
		}
	}
}
