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
