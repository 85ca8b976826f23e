package textfit

import (
	"context"
	"flag"
	"fmt"
	"html"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chromedp/chromedp"
	"github.com/rivo/uniseg"
)

var (
	corpusSize = flag.Int("textfit.corpus", 240, "text boxes in the browser agreement corpus")
	corpusSeed = flag.Uint64("textfit.seed", 9, "seed of the browser agreement corpus")
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
	path := browserPath()
	if path == "" {
		t.Skip("no Chromium or Chrome on PATH: skipping the real-browser test (.ci/run installs chromium)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	return bctx
}

// browserText is what the browser measured of one rendered text.
type browserText struct {
	I      int       `json:"i"`
	Widths []float64 `json:"widths"` // getComputedTextLength of each drawn line
	Top    float64   `json:"top"`    // getBBox of the whole text
	Bottom float64   `json:"bottom"`
	Left   float64   `json:"left"` // the drawn characters' advances
	Right  float64   `json:"right"`
	Lines  int       `json:"lines"`
}

const measureJS = `(async () => {
  await document.fonts.load('16px "` + FontFamily + `"');
  await document.fonts.load('bold 16px "` + FontFamily + `"');
  await document.fonts.ready;
  const faces = [...document.fonts].map(f => f.weight + ":" + f.status);
  const texts = [...document.querySelectorAll("svg[data-i]")].map(svg => {
    const t = svg.querySelector("text"), spans = [...t.querySelectorAll("tspan")];
    const b = spans.length ? t.getBBox() : {y: 0, height: 0};
    // Horizontally, where the characters' advances are (getBBox also takes
    // in ink that overhangs them, such as the tail of a j).
    let left = Infinity, right = -Infinity;
    for (const s of spans) {
      for (let k = 0; k < s.getNumberOfChars(); k++) {
        let e;
        try { e = s.getExtentOfChar(k); } catch { continue; }
        if (e.width > 0) { left = Math.min(left, e.x); right = Math.max(right, e.x + e.width); }
      }
    }
    return {i: +svg.dataset.i, widths: spans.map(s => s.getComputedTextLength()),
      left, right, top: b.y, bottom: b.y + b.height, lines: spans.length};
  });
  const probe = document.querySelector("#emoji-probe tspan");
  return {faces, texts, emoji: probe.getComputedTextLength() / 100};
})()`

// TestBrowserAgrees renders a corpus of text boxes as SVG in Chromium with
// the embedded font and checks that the browser's measurements give the
// same fits/overflows verdict as Fit. The browser draws our lines, so it
// judges each drawn line's width (getComputedTextLength) against the box's
// width and the text's drawn extent (getBBox) against the box.
func TestBrowserAgrees(t *testing.T) {
	ctx := newBrowser(t)
	const margin = 6
	cases := corpus(*corpusSize, *corpusSeed)
	verdicts := make([]Verdict, len(cases))
	var page strings.Builder
	page.WriteString("<!doctype html><meta charset=utf-8><style>" + FontFaceCSS() +
		`body{margin:8px;font:12px sans-serif;display:flex;flex-wrap:wrap;gap:10px;align-items:flex-start;width:1560px}
figure{margin:0}svg{overflow:visible;display:block}figcaption{color:#555}
rect{fill:none;stroke-width:1}.fits{stroke:#2a7}.over{stroke:#d33;stroke-dasharray:4 3}</style>`)
	for i, c := range cases {
		v := Fit(c.text, c.style, c.box)
		verdicts[i] = v
		box := Box{X: margin, Y: margin, W: c.box.W, H: c.box.H}
		class := "fits"
		if !v.Fits {
			class = "over"
		}
		fmt.Fprintf(&page, `<figure><svg data-i="%d" width="%g" height="%g"><rect class="%s" x="%d" y="%d" width="%g" height="%g"/>%s</svg><figcaption>#%d %s %s %gpx</figcaption></figure>`+"\n",
			i, math.Ceil(max(c.box.W, v.Need.W))+2*margin, math.Ceil(max(c.box.H, v.Need.H))+2*margin,
			class, margin, margin, c.box.W, c.box.H, v.SVG(box, c.align, "#222"),
			i, c.script, html.EscapeString(c.kind), c.style.FontSize)
	}
	page.WriteString(`<svg id="emoji-probe" width="1" height="1"><text font-size="100"><tspan>🌱</tspan></text></svg>`)
	dir := t.TempDir()
	file := filepath.Join(dir, "corpus.html")
	if err := os.WriteFile(file, []byte(page.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	start := time.Now()
	type result struct {
		Faces []string      `json:"faces"`
		Texts []browserText `json:"texts"`
		Emoji float64       `json:"emoji"` // em width of an emoji as drawn
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1580, 2400), chromedp.Navigate("file://"+file)); err != nil {
		t.Fatalf("load the corpus page: %v", err)
	}
	loaded := time.Now()
	res, err := chromedp.Run(ctx, chromedp.Evaluate[result](measureJS, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("measure in the browser: %v", err)
	}
	if got := strings.Join(res.Faces, " "); got != "400:loaded 700:loaded" {
		t.Fatalf("embedded fonts did not load in the browser: %s", got)
	}
	measured := time.Now()
	// The whole page can exceed what one capture may hold; the top of it
	// shows every script.
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	shot := filepath.Join(shotDir(t), "textfit-corpus.png")
	if err := os.WriteFile(shot, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("browser: started and loaded the page in %v, measured %d texts in %v, screenshot in %v: %s",
		loaded.Sub(start).Round(time.Millisecond), len(res.Texts), measured.Sub(loaded).Round(time.Millisecond), time.Since(measured).Round(time.Millisecond), shot)
	if len(res.Texts) != len(cases) {
		t.Fatalf("browser measured %d texts, want %d", len(res.Texts), len(cases))
	}

	// Without a colour emoji font (fonts-noto-color-emoji, which .ci/run
	// installs) a browser draws each code point of an emoji sequence as a
	// missing-glyph box, which no viewer with emoji would see.
	emojiFont := math.Abs(res.Emoji-emojiAdvance) < 0.05
	if !emojiFont {
		t.Logf("no colour emoji font in the browser (an emoji is %.2f em wide): text with emoji left out of the figure", res.Emoji)
	}

	// Widths are compared to float noise. A drawn text's vertical extent is
	// its font's ascent and descent, which browsers round to whole pixels
	// (Chromium on Linux also moves a pixel from ascent to descent when
	// rounding shortens the descent), so it may stand up to a pixel past the
	// line boxes without any ink doing so.
	const eps, epsV = 0.01, 1.0
	agree, total := 0, 0
	var maxCovered float64 // largest |ours - browser| line width, px
	var maxUnder float64   // largest amount a fallback-drawn line is wider than measured, em
	var worstUnder string
	for _, m := range res.Texts {
		c, v := cases[m.I], verdicts[m.I]
		if !emojiFont && hasEmoji(c.text) {
			continue
		}
		total++
		var drawn []int // indexes of the lines the browser drew
		for j, line := range v.Lines {
			if line != "" {
				drawn = append(drawn, j)
			}
		}
		if len(drawn) != m.Lines {
			t.Fatalf("case %d: browser drew %d lines, we laid out %d non-blank: %v", m.I, m.Lines, len(drawn), c)
		}
		wide := false
		for k, w := range m.Widths {
			ours := v.Widths[drawn[k]]
			if covered(v.Lines[drawn[k]], c.style.Bold) {
				maxCovered = max(maxCovered, math.Abs(w-ours))
			} else {
				if d := (w - ours) / c.style.Size(); d > maxUnder {
					maxUnder, worstUnder = d, v.Lines[drawn[k]]
				}
			}
			wide = wide || w > c.box.W+eps
		}
		// Aligned lines stay inside the box: the SVG puts them where the
		// measurement says.
		wide = wide || m.Lines > 0 && (m.Left < margin-eps || m.Right > margin+c.box.W+eps)
		tall := m.Lines > 0 && (m.Top < margin-epsV || m.Bottom > margin+c.box.H+epsV)
		browserFits := !wide && !tall
		if browserFits == v.Fits {
			agree++
			continue
		}
		t.Logf("disagree on case %d (ours fits=%v; browser: widths %.2f, extent %.2f..%.2f × %.2f..%.2f in a %g×%g box: too wide %v, too tall %v; our widths %.2f): %v",
			m.I, v.Fits, m.Widths, m.Left-margin, m.Right-margin, m.Top-margin, m.Bottom-margin, c.box.W, c.box.H, wide, tall, v.Widths, c)
	}
	rate := float64(agree) / float64(total)
	t.Logf("agreement with the browser: %d of %d text boxes (%.1f%%); largest line-width difference %.3f px where the embedded font has every character, a line drawn partly by fallback fonts is at most %.2f em wider than measured (%q)",
		agree, total, 100*rate, maxCovered, maxUnder, worstUnder)
	if rate < 0.98 {
		t.Errorf("fits/overflows verdict agrees with the browser on %.1f%% of text boxes, want at least 98%%", 100*rate)
	}
	// Where the embedded font draws every character, the widths must be the
	// same measurement, not merely the same verdict.
	if maxCovered > 0.05 {
		t.Errorf("line widths differ from the browser's by up to %.3f px where the embedded font has every character; want at most 0.05", maxCovered)
	}
}

// covered reports whether the embedded font has every character of s, so
// the browser needs no fallback font to draw it.
func covered(s string, bold bool) bool {
	fc := faceFor(bold)
	for _, r := range s {
		if g, _ := fc.lookup(r); g == 0 && r != ' ' {
			return false
		}
	}
	return true
}

func hasEmoji(s string) bool {
	for i := 0; i < len(s); {
		cl, _, cells, _ := uniseg.FirstGraphemeClusterInString(s[i:], -1)
		r, _ := utf8.DecodeRuneInString(cl)
		if isEmoji(r, cl, cells) {
			return true
		}
		i += len(cl)
	}
	return false
}

// shotDir is where screenshots go: $TEXTFIT_SHOTS to keep them for a look,
// else the test's temporary directory.
func shotDir(t *testing.T) string {
	if d := os.Getenv("TEXTFIT_SHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}
