package render_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/lessongen/lessongen/render"
)

// presentPage renders the lesson at path as `render --present` does, with
// a note for the author on its first slide and one on the lesson, and
// writes it to a temporary file.
func presentPage(t *testing.T, path, slide string) string {
	t.Helper()
	reg := registry(t)
	notes := []render.AuthorNote{
		{Node: "slides/" + slide + "/whiteboard", About: "board", Text: "AUTHOR-NOTE-SLIDE"},
		{Node: "lesson", Text: "AUTHOR-NOTE-LESSON"},
	}
	var b bytes.Buffer
	if err := render.HTMLWriterWith(render.HTMLOptions{Present: true})(&b, load(t, path, reg), reg, notes); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "lesson.html")
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + file
}

// crowdedLesson writes a lesson whose overview and quiz slide are too
// full for a 16:9 slide at their usual size.
func crowdedLesson(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("version: 1\nmetadata:\n  title: A crowded lesson\n  objectives:\n")
	for i := range 16 {
		fmt.Fprintf(&b, "    - Objective number %d, long enough to take most of a line in its column\n", i+1)
	}
	b.WriteString("slides:\n  - id: quiz\n    title: Many questions\n    duration_minutes: 5\n    whiteboard:\n      elements:\n")
	b.WriteString("        - {id: a, type: text, x: 40, y: 40, w: 600, h: 80, text: Answer them all}\n    quiz:\n      questions:\n")
	for i := range 7 {
		fmt.Fprintf(&b, "        - {id: q%d, prompt: \"Question %d asks something a little longer than usual?\", answers: [\"yes\"], distractors: [\"no\", \"maybe\", \"never\"]}\n", i+1, i+1)
	}
	path := filepath.Join(t.TempDir(), "crowded.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// tab is one browser tab under test.
type tab struct {
	t   *testing.T
	ctx context.Context
}

func (b tab) eval(js string, out any) {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[any](js, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	data, _ := json.Marshal(v)
	if err := json.Unmarshal(data, out); err != nil {
		b.t.Fatal(err)
	}
}

func (b tab) keys(ks ...string) {
	b.t.Helper()
	for _, k := range ks {
		if err := chromedp.Do(b.ctx, chromedp.KeyEvent(k)); err != nil {
			b.t.Fatal(err)
		}
	}
}

func (b tab) page() (n int) {
	b.t.Helper()
	b.eval(`+document.body.dataset.page`, &n)
	return n
}

// fitProblems is what is wrong with the current page as the class sees
// it: not inside the window, not 16:9, not filling the window's width or
// height, a part outside the page, a board not at its canvas's aspect,
// or anything of the notes, author notes or answers visible.
const fitProblems = `(() => {
  const out = [], p = document.querySelector(".page.current"), r = p.getBoundingClientRect();
  const inside = (b, o) => b.left >= o.left - 1 && b.top >= o.top - 1 && b.right <= o.right + 1 && b.bottom <= o.bottom + 1;
  if (!inside(r, {left: 0, top: 0, right: innerWidth, bottom: innerHeight})) out.push("page " + JSON.stringify(r) + " is not inside " + innerWidth + "x" + innerHeight);
  if (Math.abs(r.width / r.height - 16 / 9) > 0.01) out.push("page is " + r.width + "x" + r.height + ", not 16:9");
  if (Math.max(r.width / innerWidth, r.height / innerHeight) < 0.99) out.push("page does not fill the window");
  for (const e of p.querySelectorAll("*")) {
    if (e.parentElement && e.parentElement.closest("svg")) continue;
    const b = e.getBoundingClientRect();
    if ((b.width || b.height) && !inside(b, r)) out.push(e.tagName + "." + e.getAttribute("class") + " sticks out of the page: " + JSON.stringify(b));
  }
  for (const c of p.querySelectorAll("svg.whiteboard rect.canvas")) {
    const b = c.getBoundingClientRect(), vb = c.ownerSVGElement.viewBox.baseVal;
    if (Math.abs(b.width / b.height - vb.width / vb.height) > 0.02) out.push("board drawn at " + b.width + "x" + b.height + ", canvas " + vb.width + "x" + vb.height);
  }
  for (const e of document.querySelectorAll(".notes, .answer-key, .author-notes, .quiz li.correct"))
    if (e.getClientRects().length) out.push("visible to the class: " + e.getAttribute("class") + ": " + e.textContent.slice(0, 40));
  return out;
})()`

// TestBrowserPresentFits opens the example in present mode at a laptop's
// and a projector's size: each page fits the window whole at 16:9 with
// its boards' aspect kept, arrowheads are drawn, nothing of the notes,
// author notes or answers shows; keys and #slide links work after
// scrolling, and Escape goes back to the reading view. Screenshots of the
// equation slide go to $RENDER_SHOTS (with -update, to docs/img/).
func TestBrowserPresentFits(t *testing.T) {
	ctx := newBrowserFor(t, 4*time.Minute)
	b := tab{t, ctx}
	url := presentPage(t, example, "hook")
	others := []string{presentPage(t, allKinds, "states"), presentPage(t, crowdedLesson(t), "quiz")}
	for _, size := range [][2]int64{{1366, 768}, {1920, 1080}} {
		for _, o := range others {
			checkFits(b, o, size)
		}
		// The all-kinds lesson's "states" board has arrow elements; the
		// example's equation arrow is MathML, which has no head to find.
		if _, err := chromedp.Run(b.ctx, chromedp.Navigate(others[0])); err != nil {
			t.Fatal(err)
		}
		b.eval(`location.hash = "#slide-states"; new Promise(r => setTimeout(r, 50))`, new(any))
		checkArrowheads(t, b, fmt.Sprintf("states at %d", size[0]))
		n := checkFits(b, url, size)
		if n < 6 {
			t.Fatalf("the example has %d pages, want 6", n)
		}
		b.eval(`location.hash = "#slide-equation"; new Promise(r => setTimeout(r, 50))`, new(any))
		shot, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		keepShot(t, fmt.Sprintf("present-%d.png", size[0]), shot)
		checkKeysAfterScroll(t, b, n)
	}
}

// checkFits opens url in present mode at size and steps through its
// pages and their parts with →, checking each (fitProblems and
// boardTextProblems); it returns how many pages there are.
func checkFits(b tab, url string, size [2]int64) (n int) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(size[0], size[1]), chromedp.Navigate(url)); err != nil {
		b.t.Fatal(err)
	}
	b.eval(`document.fonts.ready.then(() => document.querySelectorAll("#deck > .page").length)`, &n)
	b.keys(kb.Home)
	k := 0
	for presses := 0; k < n; presses++ {
		if presses > 3*n {
			b.t.Fatalf("%dx%d: %d presses of → did not reach the last page", size[0], size[1], presses)
		}
		var problems []string
		b.eval(fitProblems, &problems)
		b.eval(boardTextProblems, &problems)
		for _, p := range problems {
			b.t.Errorf("%s at %dx%d, page %d: %s", filepath.Base(url), size[0], size[1], k, p)
		}
		var before, after string
		b.eval(`document.body.dataset.page + "." + document.body.dataset.step`, &before)
		b.keys(kb.ArrowRight)
		b.eval(`document.body.dataset.page + "." + document.body.dataset.step`, &after)
		if after == before {
			break // the last part of the last page
		}
		if got := b.page(); got != k && got != k+1 {
			b.t.Fatalf("%dx%d: → went from page %d to %d", size[0], size[1], k, got)
		} else {
			k = got
		}
	}
	if k != n-1 {
		b.t.Errorf("%dx%d: → stopped on page %d of %d", size[0], size[1], k, n)
	}
	return n
}

// minBoardText is how small, in CSS pixels on the screen, a board's
// 24 px text may be drawn in present mode: at the back of a classroom,
// 16 px of a 1366x768 projector is about as small as reads.
const minBoardText = 16.0 / 24

// boardTextProblems lists each text of the boards the class sees that is
// drawn smaller than minBoardText times its font size: its size on the
// screen is its font size times the board's scale (its drawn width over
// its canvas's) times the page's.
var boardTextProblems = fmt.Sprintf(`(() => {
  const out = [];
  for (const svg of document.querySelectorAll(".page.current svg.whiteboard")) {
    if (!svg.getClientRects().length) continue;
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    for (const t of svg.querySelectorAll("text")) {
      const size = parseFloat(getComputedStyle(t).fontSize), drawn = size * scale;
      if (drawn < size * %f - 0.01) out.push("board text " + JSON.stringify(t.textContent.slice(0, 30)) + " of " + size + " px drawn at " + drawn.toFixed(1) + " px");
    }
  }
  return out;
})()`, minBoardText)

// checkArrowheads screenshots the current page and finds each arrowhead
// drawn: the pixel at its triangle's centroid is the line's dark ink.
func checkArrowheads(t *testing.T, b tab, name string) {
	t.Helper()
	var pts [][2]float64
	b.eval(`[...document.querySelectorAll(".page.current path.head")].map(h => {
	  const n = h.getAttribute("d").match(/-?[\d.]+/g).map(Number), s = h.ownerSVGElement.createSVGPoint();
	  s.x = (n[0] + n[2] + n[4]) / 3; s.y = (n[1] + n[3] + n[5]) / 3;
	  const q = s.matrixTransform(h.getScreenCTM()); return [q.x, q.y];
	})`, &pts)
	if len(pts) == 0 {
		t.Fatal("the slide has no arrowhead")
	}
	shot, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pts {
		r, g, bl, _ := img.At(int(p[0]), int(p[1])).RGBA()
		if r>>8+g>>8+bl>>8 > 200 {
			t.Errorf("%s: no arrowhead drawn at (%.0f,%.0f): the pixel is #%02x%02x%02x", name, p[0], p[1], r>>8, g>>8, bl>>8)
		}
	}
}

// keepShot writes a screenshot to $RENDER_SHOTS, and with -update to
// docs/img/ for the README and docs/reference.md.
func keepShot(t *testing.T, name string, png []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(shotDir(t), name), png, 0o644); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(filepath.Join("..", "docs", "img", name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checkKeysAfterScroll scrolls the page away and presses the keys a
// keyboard and a clicker send; a #slide link and a timeline link jump;
// Escape leaves present mode.
func checkKeysAfterScroll(t *testing.T, b tab, n int) {
	t.Helper()
	for _, step := range []struct {
		keys []string
		want int
	}{
		{[]string{kb.Home}, 0}, {[]string{kb.ArrowRight, kb.ArrowRight}, 2}, {[]string{kb.PageDown}, 3},
		{[]string{kb.PageUp}, 2}, {[]string{" "}, 3}, {[]string{kb.ArrowLeft}, 2}, {[]string{kb.End}, n - 1},
	} {
		b.eval(`window.scrollTo(0, 5000); document.querySelector("#deck").scrollTop = 5000; true`, new(bool))
		b.keys(step.keys...)
		if got := b.page(); got != step.want {
			t.Errorf("after scrolling and %q: page %d, want %d", step.keys, got, step.want)
		}
	}
	var at string
	b.eval(`location.hash = "#slide-light"; new Promise(r => setTimeout(() => r(document.querySelector(".page.current").id), 50))`, &at)
	if at != "slide-light" {
		t.Errorf("#slide-light shows %q", at)
	}
	b.keys(kb.Home)
	b.eval(`document.querySelector('#overview a[href="#slide-equation"]').click(); new Promise(r => setTimeout(() => r(document.querySelector(".page.current").id), 50))`, &at)
	if at != "slide-equation" {
		t.Errorf("the timeline's link to the equation slide shows %q", at)
	}
	var full bool
	b.keys("f")
	if b.eval(`new Promise(r => setTimeout(() => r(document.fullscreenElement === document.documentElement), 200))`, &full); !full {
		t.Error("F did not make the page fullscreen")
	}
	b.keys("f")
	if b.eval(`new Promise(r => setTimeout(() => r(document.fullscreenElement !== null), 200))`, &full); full {
		t.Error("a second F did not leave fullscreen")
	}
	b.keys(kb.Escape)
	var present bool
	if b.eval(`document.body.classList.contains("present")`, &present); present {
		t.Error("Escape did not leave present mode")
	}
}

// TestBrowserPresentReveal reveals a quiz's answers one question per
// press of A, and hides them again after the last.
func TestBrowserPresentReveal(t *testing.T) {
	ctx := newBrowser(t)
	b := tab{t, ctx}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(presentPage(t, allKinds, "states")+"#slide-states")); err != nil {
		t.Fatal(err)
	}
	// The slide's board shows alone first: A has no question to reveal
	// there, and → brings the quiz.
	var before []string
	b.eval(`[...document.querySelectorAll(".page.current .quiz li.question")].filter(q => q.getClientRects().length).map(q => q.textContent)`, &before)
	if len(before) != 0 {
		t.Errorf("the board's part of the slide shows questions: %q", before)
	}
	b.keys("a", kb.ArrowRight)
	// The allkinds quiz: question 1's answer is B (0 °C, the options
	// ascending), question 2's B (a shuffle seeded by its id).
	shown := func() (marks []string) {
		b.eval(`[...document.querySelectorAll(".page.current .quiz li.question")].map(q =>
		  [...q.querySelectorAll("ol.options > li")].map(o => getComputedStyle(o).boxShadow !== "none" ? "x" : "-").join(""))`, &marks)
		return marks
	}
	for i, want := range [][]string{{"----", "--"}, {"-x--", "--"}, {"-x--", "-x"}, {"----", "--"}} {
		if got := shown(); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("after %d × A the marked options are %q, want %q", i, got, want)
		}
		if i < 3 {
			b.keys("a")
		}
	}
	var problems []string
	b.eval(fitProblems, &problems)
	for _, p := range problems {
		t.Errorf("the quiz slide: %s", p)
	}
	// A click on the second question shows its answer alone.
	b.eval(`document.querySelectorAll(".page.current .quiz li.question")[1].querySelector(".prompt").click(); true`, new(bool))
	if got := shown(); strings.Join(got, " ") != "---- -x" {
		t.Errorf("after a click on question 2 the marked options are %q", got)
	}
	// Printing while presenting prints the page as it is, not scaled.
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
		t.Fatal(err)
	}
	var printed string
	if b.eval(`[...document.querySelectorAll(".page")].map(p => getComputedStyle(p).transform + "/" + getComputedStyle(p).position).join(" ")`, &printed); strings.Contains(printed, "matrix") || strings.Contains(printed, "fixed") {
		t.Errorf("printed while presenting, the pages are %s", printed)
	}
}

// TestBrowserPresenterView opens the presenter view with S: a second
// window showing the current slide's notes and answer key, the next
// slide, the slide's minutes and a timer, kept in step with the first in
// both directions; no id repeats in it.
func TestBrowserPresenterView(t *testing.T) {
	ctx := newBrowser(t)
	aud := tab{t, ctx}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(presentPage(t, example, "equation")+"#slide-equation")); err != nil {
		t.Fatal(err)
	}
	pv := openPresenter(aud)
	pctx := pv.ctx
	var state struct {
		Page                  int
		Notes, Clock, Info    string
		UpNext                string
		Next                  bool
		IDsUnique, AuthorNote bool
	}
	read := func() {
		pv.eval(`new Promise(r => setTimeout(r, 100)).then(() => document.fonts.ready).then(() => { const ids = [...document.querySelectorAll("[id]")].map(e => e.id); return {
		  page: +document.body.dataset.page, notes: document.querySelector(".pv-notes").innerText,
		  clock: document.querySelector(".pv-clock").textContent, info: document.querySelector(".pv-info").textContent, upNext: document.querySelectorAll(".pv-info")[1].textContent,
		  next: !!document.querySelector(".pv-next .page.preview"), idsUnique: new Set(ids).size === ids.length,
		  authorNote: document.querySelector(".pv-notes").innerText.includes("AUTHOR-NOTE-SLIDE")}})`, &state)
	}
	read()
	if state.Page != 3 || !strings.Contains(state.Notes, "Walk through reactants") || !state.AuthorNote || !state.Next || !state.IDsUnique ||
		!strings.Contains(state.Info, "of 6 min planned") || !strings.Contains(state.Clock, ":") || !strings.HasPrefix(state.UpNext, "Next: In what order?") {
		t.Errorf("the presenter view of the equation slide: %+v", state)
	}
	// One numbering everywhere: the presenter view names the slide as its
	// footer and the overview's timeline number it (the equation slide is
	// the third of five; the pending placeholder is not counted).
	var footer, row string
	aud.eval(`document.querySelector(".page.current footer").textContent`, &footer)
	aud.eval(`[...document.querySelectorAll("#overview table.timeline tr")].find(r => r.querySelector('a[href="#slide-equation"]')).cells[0].textContent`, &row)
	if footer != "3 / 5" || row != "3" || !strings.HasPrefix(state.Info, "Slide 3 of 5 ") {
		t.Errorf("the equation slide: footer %q, timeline row %q, presenter view %q; want 3 / 5, 3 and Slide 3 of 5", footer, row, state.Info)
	}
	if err := chromedp.Do(pctx, chromedp.EmulateViewport(1366, 768)); err != nil {
		t.Fatal(err)
	}
	keepShot(t, "presenter.png", mustShot(t, pctx))
	pv.keys(kb.ArrowRight)
	if got := aud.page(); got != 4 {
		t.Errorf("→ in the presenter view: the class's window is on page %d, want 4", got)
	}
	aud.keys(kb.ArrowLeft, kb.ArrowLeft)
	if read(); state.Page != 2 {
		t.Errorf("← ← in the class's window: the presenter view is on page %d, want 2", state.Page)
	}
}

// openPresenter presses S in the class's window and returns the
// presenter view it opens.
func openPresenter(aud tab) tab {
	aud.t.Helper()
	opened := chromedp.WaitNewTarget(aud.ctx, func(i *target.Info) bool { return strings.HasSuffix(i.URL, "#presenter") })
	aud.keys("s")
	var id target.ID
	select {
	case id = <-opened:
	case <-time.After(20 * time.Second):
		aud.t.Fatal("S opened no presenter window")
	}
	pctx, cancel := chromedp.NewContext(aud.ctx, chromedp.WithTargetID(id))
	aud.t.Cleanup(cancel)
	return tab{aud.t, pctx}
}

// TestBrowserPresenterReveal: the presenter view shows the quiz's answer
// key, and A pressed there reveals the answer in the class's window.
func TestBrowserPresenterReveal(t *testing.T) {
	ctx := newBrowser(t)
	aud := tab{t, ctx}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(presentPage(t, allKinds, "states")+"#slide-states")); err != nil {
		t.Fatal(err)
	}
	aud.keys(kb.ArrowRight) // the quiz, after the board
	pv := openPresenter(aud)
	var key string
	pv.eval(`new Promise(r => setTimeout(r, 200)).then(() => { const k = document.querySelector(".pv-notes .answer-key"); return k && k.getClientRects().length ? k.innerText : "" })`, &key)
	if !strings.Contains(key, "B. 0 °C") {
		t.Errorf("the presenter view shows no answer key: %q", key)
	}
	pv.keys("a")
	var marked []string
	aud.eval(`new Promise(r => setTimeout(r, 200)).then(() => [...document.querySelectorAll(".page.current .quiz li.correct")].map(o => o.textContent))`, &marked)
	if len(marked) != 1 || marked[0] != "0 °C" {
		t.Errorf("A in the presenter view: the class's window marks %q, want the first question's answer", marked)
	}
}

func mustShot(t *testing.T, ctx context.Context) []byte {
	t.Helper()
	// A window not in front may give a stale frame.
	if _, err := chromedp.Call(ctx, page.BringToFront, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	return shot
}

// TestBrowserPresentRevealsEveryAnswerKind presents the all-kinds slide
// of every question type: the class sees the questions, the shuffled
// order items, both match columns and the spaces to write in, and none
// of the answer key (whys, model answer, numeric answer, solutions) until
// A reveals it: each press shows the next question's answer, whatever
// its kind — marked options, or the answer written under the question —
// and never the key's whys.
func TestBrowserPresentRevealsEveryAnswerKind(t *testing.T) {
	ctx := newBrowser(t)
	b := tab{t, ctx}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(presentPage(t, allKinds, "kinds")+"#slide-kinds")); err != nil {
		t.Fatal(err)
	}
	// With no board beside it, the quiz takes the slide's width, not the
	// right-hand column beside an empty one.
	var share float64
	b.eval(`(() => { const p = document.querySelector(".page.current").getBoundingClientRect(), q = document.querySelector(".page.current .quiz").getBoundingClientRect(); return q.width / p.width })()`, &share)
	if share < 0.8 {
		t.Errorf("a quiz without a board is %.0f%% of the slide's width, want it whole", 100*share)
	}
	// What each press adds, question by question: the choice's and the
	// true/false's marked options, the model answer, the number with its
	// tolerance and unit, the order, the pairs.
	answers := []string{"100 °C", "True", "MODEL-HIDDEN-the-water-evaporates", "7.2 ± 0.05 cm",
		"C. evaporation", "1. melt → B. solid to liquid"}
	revealedText := `[...document.querySelectorAll(".page.current .quiz li.question")].map(q =>
	  [...q.querySelectorAll("li.correct, .revealed-answer")].filter(e => e.getClientRects().length).map(e => e.innerText).join("|"))`
	for press := range 8 {
		var seen string
		b.eval(`document.querySelector(".page.current").innerText`, &seen)
		for _, s := range []string{"Put the cycle in order.", "precipitation", "liquid to gas", "freeze", "True", "(2 marks)", "Think of a kettle."} {
			if !strings.Contains(seen, s) {
				t.Errorf("after %d × A the class does not see %q", press, s)
			}
		}
		for _, s := range []string{"WHY-HIDDEN", "In order", "Model answer"} {
			if strings.Contains(seen, s) {
				t.Errorf("after %d × A the class sees %q", press, s)
			}
		}
		var got []string
		b.eval(revealedText, &got)
		for j, a := range answers {
			shown := j < press && press <= len(answers)
			if len(got) <= j || strings.Contains(got[j], a) != shown {
				t.Errorf("after %d × A, question %d shows %q; want %q shown: %v", press, j+1, got, a, shown)
			}
		}
		var spaces int
		b.eval(`[...document.querySelectorAll(".page.current .answer-space")].filter(e => e.getBoundingClientRect().width > 40).length`, &spaces)
		if spaces != 2 {
			t.Errorf("%d spaces to write in are drawn, want 2 (short and numeric)", spaces)
		}
		if press == 3 {
			var problems []string
			b.eval(fitProblems, &problems)
			for _, p := range problems {
				if !strings.HasPrefix(p, "visible to the class: correct") { // revealed, as it should be
					t.Errorf("with answers revealed: %s", p)
				}
			}
		}
		b.keys("a")
	}
}

// TestBrowserPresentRevealsTheExample: A on the bundled example's quiz
// (an order and a short question) shows each answer in turn.
func TestBrowserPresentRevealsTheExample(t *testing.T) {
	ctx := newBrowser(t)
	b := tab{t, ctx}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(presentPage(t, example, "check")+"#slide-check")); err != nil {
		t.Fatal(err)
	}
	var shown string
	for i, want := range []string{"", "Chlorophyll absorbs light", "With no light, chlorophyll captures no energy"} {
		b.eval(`[...document.querySelectorAll(".page.current .revealed-answer")].map(e => e.innerText).join("|")`, &shown)
		if want == "" && shown != "" || !strings.Contains(shown, want) {
			t.Errorf("after %d × A the class sees %q, want %q", i, shown, want)
		}
		b.keys("a")
	}
}

var keyName = map[string]string{kb.ArrowRight: "→", kb.ArrowLeft: "←", kb.PageDown: "PageDown"}

// TestBrowserReadingKeysAfterScroll: in the reading view, after the
// reader scrolls to a slide, → brings the next one to the top of the
// window and ← the one before.
func TestBrowserReadingKeysAfterScroll(t *testing.T) {
	ctx := newBrowser(t)
	b := tab{t, ctx}
	file := filepath.Join(t.TempDir(), "lesson.html")
	if err := os.WriteFile(file, renderHTML(t, example), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1366, 768), chromedp.Navigate("file://"+file)); err != nil {
		t.Fatal(err)
	}
	top := func(id string) (y float64) {
		b.eval(`document.getElementById("`+id+`").getBoundingClientRect().top`, &y)
		return y
	}
	for _, c := range []struct{ to, key, want string }{
		{"slide-equation", kb.ArrowRight, "slide-check"},
		{"slide-light", kb.ArrowRight, "slide-equation"},
		{"slide-check", kb.ArrowLeft, "slide-equation"},
		{"slide-hook", kb.PageDown, "slide-light"},
	} {
		// The reader scrolls (a wheel, a scroll bar): no key, no hash.
		b.eval(`window.scrollTo(0, scrollY + document.getElementById("`+c.to+`").getBoundingClientRect().top + 40); new Promise(r => setTimeout(() => r(true), 50))`, new(bool))
		b.keys(c.key)
		if y := top(c.want); y < -1 || y > 30 {
			t.Errorf("scrolled to %s, %s: %s is at %.0f px from the top, want at the top", c.to, keyName[c.key], c.want, y)
		}
	}
}
