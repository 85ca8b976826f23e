package render_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// mathsLesson has one board of the equations a maths lesson writes.
const mathsLesson = "testdata/maths/lesson.yaml"

// mathsMeasure reads, in the real page, the boxes the browser drew the
// equations in (px): the element's font size and box, a fraction's and
// its numerator's height, a bar's top and its base's top, and each
// equation's drawn width against its box.
const mathsMeasure = `(() => {
  const eq = id => document.querySelector('[data-id="' + id + '"] foreignObject');
  const r = el => el.getBoundingClientRect();
  // The board is scaled to the page: font sizes in screen px.
  const size = el => parseFloat(getComputedStyle(el.querySelector("div")).fontSize) * r(el).width / el.width.baseVal.value;
  const frac = eq("sum").querySelector("mfrac");
  const bar = eq("mean").querySelector("mrow[style*=border-top]");
  const gap = eq("gap").querySelector("mrow[style*=border-bottom]");
  const out = {
    fontSize: size(eq("sum")), frac: r(frac).height, num: r(frac.firstElementChild).height,
    barTop: r(bar).top, baseTop: r(bar.firstElementChild).top,
    gapWidth: r(gap).width, rootIndex: !!eq("roots").querySelector("mroot"),
    tableRows: eq("matrix").querySelectorAll("mtr").length,
    over: []};
  for (const fo of document.querySelectorAll("foreignObject.equation")) {
    const m = r(fo.querySelector("math")), b = r(fo);
    if (m.width > b.width + 1 || m.height > b.height + 1) out.over.push(fo.parentNode.dataset.id);
  }
  return out;
})()`

// TestBrowserMaths: in the real page a stacked fraction is drawn taller
// than a line of its text, a bar sits above its base, \underline{\qquad}
// is a blank to write on, and every equation fits inside its box.
func TestBrowserMaths(t *testing.T) {
	ctx := newBrowser(t)
	dir := shotDir(t)
	file := filepath.Join(t.TempDir(), "maths.html")
	if err := os.WriteFile(file, renderHTML(t, mathsLesson), 0o644); err != nil {
		t.Fatal(err)
	}
	var got struct {
		FontSize, Frac, Num, BarTop, BaseTop, GapWidth float64
		RootIndex                                      bool
		TableRows                                      int
		Over                                           []string
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](`document.fonts.ready.then(() => true)`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
	v, err := chromedp.Run(ctx, chromedp.Evaluate[any](mathsMeasure))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Frac < 1.6*got.FontSize || got.Frac < 1.8*got.Num {
		t.Errorf("1/4 is %.1f px tall at font size %.1f (numerator %.1f): not stacked", got.Frac, got.FontSize, got.Num)
	}
	if got.BarTop >= got.BaseTop {
		t.Errorf("the bar of \\bar{x} (top %.1f) is not above its x (top %.1f)", got.BarTop, got.BaseTop)
	}
	if got.GapWidth < got.FontSize {
		t.Errorf("\\underline{\\qquad} is %.1f px wide, not a blank to write on", got.GapWidth)
	}
	if !got.RootIndex || got.TableRows != 2 {
		t.Errorf("root index drawn %v, matrix rows %d (want 2)", got.RootIndex, got.TableRows)
	}
	if len(got.Over) > 0 {
		t.Errorf("equations drawn past their box: %v", got.Over)
	}
	png, err := chromedp.Run(ctx, chromedp.Screenshot(`#slide-fractions svg`))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "maths.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
