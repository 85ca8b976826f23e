package render_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/pptx/pptxtest"
	"github.com/lessongen/lessongen/render"
)

// gapsLesson has a pending spot of every kind a deck draws: the
// lesson's, a slide's, a board's text, label, arrow label, image and
// equation, a quiz's question between two and a prompt. Every hint
// reads HINT-, so none may reach the pupil's deck.
const gapsLesson = `version: 1
metadata:
  title: Leaves
  objectives: !pending "HINT-OBJECTIVES three on leaves"
slides:
  - id: hook
    title: Why are leaves green?
    notes: !pending "HINT-NOTES what to ask first"
    whiteboard:
      elements:
        - {id: label, type: text, x: 40, y: 40, w: 600, h: 80, text: !pending "HINT-BOARD"}
        - {id: box, type: shape, shape: rect, x: 40, y: 200, w: 300, h: 120, label: !pending "HINT-LABEL\nover two lines"}
        - {id: pic, type: image, x: 700, y: 200, w: 400, h: 200, description: !pending "HINT-IMAGE a leaf", alt: A leaf}
        - {id: arr, type: arrow, from: box, to: pic, label: !pending "HINT-ARROW"}
        - {id: eq, type: equation, x: 40, y: 500, w: 300, h: 100, latex: !pending "HINT-EQUATION"}
    quiz:
      questions:
        - {id: q1, prompt: "How many leaves has a clover?", answers: ["3"], distractors: ["2", "4"]}
        - !pending "HINT-QUESTION one on chlorophyll"
        - {id: q3, prompt: "Which colour is chlorophyll?", answers: [green], distractors: [red]}
  - !pending "HINT-SLIDES a slide on roots"
`

// gapShape is the XML of the sp named name in a slide part, "" if none.
func gapShape(part []byte, name string) string {
	for _, sp := range regexp.MustCompile(`(?s)<p:sp>.*?</p:sp>`).FindAll(part, -1) {
		if bytes.Contains(sp, []byte(`name="`+name+`"`)) {
			return string(sp)
		}
	}
	return ""
}

// TestPPTXHandoutGaps: the pupil's deck of a lesson with pending spots
// (render --handout --allow-pending --format pptx) has an empty gap
// where each spot is, and none of the hints in any of its parts, nor
// when Impress opens it; the teacher's deck still shows them.
func TestPPTXHandoutGaps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lesson.yaml")
	if err := os.WriteFile(path, []byte(gapsLesson), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := registry(t)
	var teacher, pupil bytes.Buffer
	if err := render.PPTX(&teacher, load(t, path, reg), reg, nil, false); err != nil {
		t.Fatal(err)
	}
	if err := render.PPTXWith(&pupil, load(t, path, reg), reg, nil, render.PPTXOptions{Handout: true, Gaps: true}); err != nil {
		t.Fatal(err)
	}
	for _, hint := range []string{"HINT-OBJECTIVES", "HINT-BOARD", "HINT-LABEL", "HINT-IMAGE", "HINT-ARROW", "HINT-EQUATION", "HINT-QUESTION", "HINT-SLIDES"} {
		if !bytes.Contains(teacher.Bytes(), []byte(hint)) && !strings.Contains(strings.Join(allTexts(t, teacher.Bytes()), "\n"), hint) {
			t.Errorf("the teacher's deck lost the hint %s: the lesson no longer tests it", hint)
		}
	}
	pptxtest.Check(t, pupil.Bytes())
	parts := pptxtest.Parts(t, pupil.Bytes())
	for name, b := range parts {
		if bytes.Contains(b, []byte("HINT-")) {
			t.Errorf("%s holds a hint: %s", name, regexp.MustCompile(`HINT-[^<"]*`).Find(b))
		}
	}
	slides := pptxtest.Slides(parts)
	if len(slides) != 4 {
		t.Fatalf("%d slides, want 4 (overview, board, quiz, the pending slide)", len(slides))
	}
	for i, s := range slides {
		if text := strings.Join(pptxtest.Texts(s), " "); strings.Contains(strings.ToLower(text), "pending") {
			t.Errorf("slide %d says pending: %q", i+1, text)
		}
	}
	// Each placeholder is an empty box with a solid frame, not the
	// dashed amber one that says "pending".
	for _, g := range []struct {
		slide int
		name  string
	}{{2, "label"}, {2, "eq"}, {4, "gap"}} {
		sp := gapShape(slides[g.slide-1], g.name)
		switch {
		case sp == "":
			t.Errorf("slide %d has no gap %q", g.slide, g.name)
		case strings.Contains(sp, "<a:t>") || strings.Contains(sp, "prstDash") || !strings.Contains(sp, "<a:ln"):
			t.Errorf("slide %d's gap %q is not an empty framed box:\n%s", g.slide, g.name, sp)
		}
	}
	gap := "______________"
	want := map[int][]string{
		1: {"Objectives", gap},
		2: {"Why are leaves green?", gap, "Image: " + gap},
		3: {"1. ", "How many leaves has a clover?", "2. ", gap, "3. ", "Which colour is chlorophyll?"},
		4: {gap},
	}
	for n, texts := range want {
		got := strings.Join(pptxtest.Texts(slides[n-1]), "\x00")
		at := 0
		for _, w := range texts {
			i := strings.Index(got[at:], w)
			if i < 0 {
				t.Errorf("slide %d: %q missing (in order) from %q", n, w, pptxtest.Texts(slides[n-1]))
				break
			}
			at += i + len(w)
		}
	}
	// The box's label and the arrow's are each one line to write on.
	for _, name := range []string{"box", "arr label"} {
		if sp := gapShape(slides[1], name); strings.Count(sp, "<a:t>") != 1 || !strings.Contains(sp, gap) {
			t.Errorf("label %q is not one gap:\n%s", name, sp)
		}
	}

	deck := filepath.Join(dir, "handout.pptx")
	if err := os.WriteFile(deck, pupil.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	pdf := pptxtest.Impress(t, deck)[deck]
	all := strings.Join(pdf.Pages, "\f")
	for _, bad := range []string{"HINT-", "pending"} {
		if strings.Contains(all, bad) {
			t.Errorf("Impress shows %q:\n%s", bad, all)
		}
	}
	if len(pdf.Pages) != 4 || !strings.Contains(pdf.Pages[2], "How many leaves") || !strings.Contains(pdf.Pages[2], "2. ____") {
		t.Errorf("Impress's pages do not show the quiz with its numbered gap:\n%s", all)
	}
}

// allTexts is every text run of a deck's parts.
func allTexts(t *testing.T, deck []byte) []string {
	var out []string
	for _, b := range pptxtest.Parts(t, deck) {
		out = append(out, pptxtest.Texts(b)...)
	}
	return out
}
