package quiz_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/quiz"
	"github.com/lessongen/lessongen/session"
)

// A question may be added under an id the model chose; a clash names a
// free one.
func TestQuestionChosenID(t *testing.T) {
	s, q := newSession(t, romansSrc)
	in := quiz.AddQuestion{Prompt: "Who led the revolt of AD 60?", Choices: choices([]string{"Boudica"}, "Caratacus")}
	in.ID = "revolt"
	wantOutputs(t, apply(t, s, q, in), quiz.Added{ID: "revolt", Position: 3, PendingID: "p1"})
	_, err := s.Dispatch(context.Background(), in)
	e, ok := session.AsError(err)
	if !ok || e.Kind != session.KindInvalidArgs || e.Path != "id" || !strings.Contains(e.Hint, `"revolt-2" is free`) {
		t.Errorf("clash: %v", err)
	}
}

// A question written without an id goes by qN, N its place among those
// written without one; an explicit q1 wins, and the derived id is not
// saved when its pending feedback is filled.
func TestDerivedQuestionIDs(t *testing.T) {
	s, q := newSession(t, `questions:
  - prompt: Who built the wall?
    answers: [Hadrian]
    distractors: [Caesar]
    feedback: !pending
  - {id: q1, prompt: "When?", answers: [AD 122], distractors: [AD 43]}
`)
	apply(t, s, q, quiz.UpdateQuestion{ID: "q1-2", Feedback: ptr("Hadrian ordered it.")})
	got := render(t, q)
	if strings.Count(got, "id:") != 1 || !strings.Contains(got, "feedback: Hadrian ordered it.") {
		t.Errorf("saved:\n%s", got)
	}
}
