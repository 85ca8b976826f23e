package quiz_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/quiz"
)

func shown(q *quiz.Quiz, id string, shuffle bool) []string {
	qu, _ := q.Question(id)
	var out []string
	for _, o := range quiz.Shown(qu, shuffle) {
		out = append(out, o.Text)
	}
	return out
}

// Options show in the order the model gave them, answers where it put
// them, across a save; shuffle sorts options that are all numbers.
func TestOptionsKeepTheirOrder(t *testing.T) {
	s, q := newSession(t, "questions: !pending \"one question\"\n")
	apply(t, s, q, quiz.AddQuestion{Placing: quiz.Placing{ID: "quarter"}, Prompt: "Which is a quarter?", Choices: quiz.Choices{Options: []quiz.Option{
		{Text: "1"}, {Text: "4"}, {Text: "0.25", Correct: true}, {Text: "2"}}}})
	if got, want := shown(q, "quarter", false), []string{"1", "4", "0.25", "2"}; !slices.Equal(got, want) {
		t.Errorf("shown %v, want the order given %v", got, want)
	}
	if got, want := shown(q, "quarter", true), []string{"0.25", "1", "2", "4"}; !slices.Equal(got, want) {
		t.Errorf("shuffled numbers %v, want sorted %v", got, want)
	}
	saved := render(t, q)
	if !regexp.MustCompile(`answer_at:\s+- 3\n`).MatchString(saved) {
		t.Fatalf("the order is not saved:\n%s", saved)
	}
	again := decode(t, saved)
	if got, want := shown(again, "quarter", false), []string{"1", "4", "0.25", "2"}; !slices.Equal(got, want) {
		t.Errorf("after a save: shown %v, want %v", got, want)
	}
	if r := quiz.Render(again, nil); !strings.Contains(r.Notes, "C. 0.25") {
		t.Errorf("the key names another letter:\n%s", r.Notes)
	}
}

// answer_at that does not fit the question is an error at its line.
func TestAnswerAtChecked(t *testing.T) {
	for src, want := range map[string]string{
		"answer_at: [5]":    "position 5 is outside the 3 options",
		"answer_at: [1, 2]": "gives 2 positions for 1 answer",
	} {
		ps := decodeProblems(t, "questions:\n  - id: q1\n    prompt: Which?\n    answers: [a]\n    distractors: [b, c]\n    "+src+"\n")
		if len(ps) != 1 || !strings.Contains(ps[0].Message, want) || ps[0].Line != 6 {
			t.Errorf("%s: %v, want %q at line 6", src, ps, want)
		}
	}
}

// An author's question without answer_at is not shown answers first: its
// options are shuffled, seeded by its id (the same on every run), so the
// answer's letter varies across questions; options that are all numbers
// read in ascending order; a model's question written answers first keeps
// that order (answer_at: [1] is saved).
func TestAuthorsOptionsShuffled(t *testing.T) {
	var src strings.Builder
	src.WriteString("questions:\n")
	for i := range 12 {
		fmt.Fprintf(&src, "  - {id: q%d, prompt: \"Which?\", answers: [right], distractors: [w1, w2, w3]}\n", i)
	}
	src.WriteString("  - {id: temp, prompt: \"When does it freeze?\", answers: [\"0 °C\"], distractors: [\"100 °C\", \"−10 °C\"]}\n")
	src.WriteString("  - {id: legs, prompt: \"How many legs?\", answers: [\"6\"], distractors: [\"3\", \"1\", \"4\", \"2\"]}\n")
	q := decode(t, src.String())
	places := map[int]bool{}
	for i := range 12 {
		id := fmt.Sprintf("q%d", i)
		got := shown(q, id, false)
		if !slices.Equal(got, shown(q, id, false)) {
			t.Fatalf("%s: two orders on two calls", id)
		}
		places[slices.Index(got, "right")] = true
	}
	if len(places) < 3 {
		t.Errorf("over 12 author's questions the answer stands in only %d places: %v", len(places), places)
	}
	if got, want := shown(q, "temp", false), []string{"−10 °C", "0 °C", "100 °C"}; !slices.Equal(got, want) {
		t.Errorf("numbers with a unit shown %v, want ascending %v", got, want)
	}
	if got, want := shown(q, "legs", false), []string{"1", "2", "3", "4", "6"}; !slices.Equal(got, want) {
		t.Errorf("numbers shown %v, want ascending %v", got, want)
	}

	s, m := newSession(t, "questions: !pending \"one question\"\n")
	apply(t, s, m, quiz.AddQuestion{Placing: quiz.Placing{ID: "gas"}, Prompt: "Which is a gas?", Choices: quiz.Choices{Options: []quiz.Option{
		{Text: "oxygen", Correct: true}, {Text: "water"}, {Text: "sand"}}}})
	again := decode(t, render(t, m))
	if got, want := shown(again, "gas", false), []string{"oxygen", "water", "sand"}; !slices.Equal(got, want) {
		t.Errorf("a model's order after a save: %v, want %v", got, want)
	}
}
