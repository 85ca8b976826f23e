package quiz_test

import (
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/internal/sessiontest"
	"github.com/lessongen/lessongen/quiz"
	"github.com/lessongen/lessongen/session"
)

// Markup in every text of every question type (options, order items,
// match pairs, unit, hint, whys, model answer) is drawn as text on the
// slide and in the answer key alike.
func TestMarkupInEveryTypeIsDrawnAsText(t *testing.T) {
	q := decode(t, `questions:
  - {id: q1, prompt: p, answers: [{text: "<i>a</i>", why: "<u>w</u>"}], distractors: [b]}
  - {id: q2, type: numeric, prompt: p, answer: 3, unit: "<sup>2</sup>"}
  - {id: q3, type: order, prompt: p, items: ["<em>1</em>", two, three]}
  - {id: q4, type: match, prompt: p, pairs: [{left: "<s>l</s>", right: "<q>r</q>"}, {left: x, right: y}], hint: "<b>h</b>"}
  - {id: q5, type: short, prompt: p, model_answer: "<mark>m</mark>"}
`)
	r := quiz.Render(q, nil)
	for _, tag := range []string{"<i>a", "<u>w", "<sup>2", "<em>1", "<s>l", "<q>r", "<b>h", "<mark>m"} {
		if strings.Contains(r.Body, tag) || strings.Contains(r.Notes, tag) {
			t.Errorf("%s drawn as markup:\nbody %s\nnotes %s", tag, r.Body, r.Notes)
		}
	}
}

// A model's hint may not hold a choice answer's why word for word; with
// protect off the model may rewrite the author's hint, and its own is
// checked like any other.
func TestHintChecksWhysAndAModelsRewrite(t *testing.T) {
	const src = `questions:
  - id: ch
    prompt: Which wall?
    answers: [{text: Hadrian's Wall, why: It runs from coast to coast.}]
    distractors: [Offa's Dyke]
    hint: !pending
  - id: au
    type: short
    prompt: Why walls?
    model_answer: Walls keep raiders out.
    hint: Think of raiders.
`
	s, q := newSession(t, src)
	o := observe(t, q)
	sessiontest.Rejected(t, s, quiz.UpdateQuestion{ID: "ch", Hint: ptr("It runs from coast to coast.")}, session.KindInvalidArgs, "hint", "without writing it", o)
	q.Protect = false
	sessiontest.Rejected(t, s, quiz.UpdateQuestion{ID: "au", Hint: ptr("Walls keep raiders out.")}, session.KindInvalidArgs, "hint", "without writing it", o)
}

// Order items are never shown in their correct order, whatever the id
// seeds: over many ids, not one shows them as written.
func TestOrderNeverShownInTheCorrectOrder(t *testing.T) {
	for i := range 200 {
		id := "q" + strings.Repeat("x", i)
		q := decode(t, "questions:\n  - {id: "+id+", type: order, prompt: p, items: [a, b]}\n")
		if seen := quiz.Seen(q.Questions.Value[0], false); seen[0] == "a" {
			t.Fatalf("question %s shows its items in the correct order: %q", id, seen)
		}
	}
}

// The PowerPoint key holds the feedback; the slide does not.
func TestPPTXFeedbackInTheKeyOnly(t *testing.T) {
	q := decode(t, "questions:\n  - {id: q1, prompt: p, answers: [a], distractors: [b], feedback: Because of reasons.}\n")
	out := quiz.RenderPPTX(q, nil, pptx.Box{W: 1000, H: 1000})
	var key strings.Builder
	for _, p := range out.Key {
		for _, r := range p.Runs {
			key.WriteString(r.Text)
		}
	}
	if !strings.Contains(key.String(), "Because of reasons.") {
		t.Errorf("key lacks the feedback: %q", key.String())
	}
	for _, sh := range out.Shapes {
		if sp, ok := sh.(*pptx.Sp); ok {
			for _, p := range sp.Paras {
				for _, r := range p.Runs {
					if strings.Contains(r.Text, "reasons") {
						t.Errorf("the slide shows the feedback: %q", r.Text)
					}
				}
			}
		}
	}
}
