package textfit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// Chromium draws a hyphen as a hyphen in the embedded fonts (#41): in
// text, "-" is drawn shorter than the en dash "–" (the Go fonts' own
// hyphen is longer), about a third of an em across; in code, Go Mono's
// "-" bar is clearly shorter than its "–" bar. Widths are of the ink
// (canvas measureText's bounding box), at 100 px.
func TestBrowserHyphenIsAHyphen(t *testing.T) {
	ctx := newBrowser(t)
	page := "<!doctype html><meta charset=utf-8><style>" + FontFaceCSS() + MonoFontFaceCSS() + "</style><canvas id=c></canvas>"
	file := filepath.Join(t.TempDir(), "hyphen.html")
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	const js = `(async () => {
  await document.fonts.load('100px "` + FontFamily + `"');
  await document.fonts.load('bold 100px "` + FontFamily + `"');
  await document.fonts.load('100px "` + MonoFamily + `"');
  const c = document.getElementById("c").getContext("2d");
  const ink = (font, s) => { c.font = font; const m = c.measureText(s); return m.actualBoundingBoxRight + m.actualBoundingBoxLeft; };
  const out = {};
  for (const [k, f] of [["text", '100px "` + FontFamily + `"'], ["bold", 'bold 100px "` + FontFamily + `"'], ["mono", '100px "` + MonoFamily + `"']]) {
    out[k] = [ink(f, "-"), ink(f, "\u2013")];
  }
  return out;
})()`
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file)); err != nil {
		t.Fatal(err)
	}
	res, err := chromedp.Run(ctx, chromedp.Evaluate[map[string][2]float64](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"text", "bold", "mono"} {
		hyphen, dash := res[k][0], res[k][1]
		t.Logf("%s: hyphen %.1f px, en dash %.1f px", k, hyphen, dash)
		if hyphen <= 0 || hyphen > 0.75*dash {
			t.Errorf("%s: the hyphen's bar is %.1f px, the en dash's %.1f px: a hyphen reads as a dash", k, hyphen, dash)
		}
	}
	for _, k := range []string{"text", "bold"} {
		if h := res[k][0]; h > 30 {
			t.Errorf("%s: the hyphen's bar is %.1f px at 100 px, want about a quarter of an em", k, h)
		}
	}
}
