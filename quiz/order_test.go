package quiz_test

import (
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
