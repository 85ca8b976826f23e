package quiz_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/quiz"
	"github.com/lessongen/lessongen/session"
)

// A run stopped after adding part of a placeholder's questions leaves
// generated_for on them; the rerun is shown them with the placeholder, and
// closing it drops the key.
func TestStoppedFillIsNotRepeated(t *testing.T) {
	s, q := newSession(t, "questions:\n  - !pending \"two questions on the Romans\"\n")
	apply(t, s, q, quiz.AddQuestion{Prompt: "Who led the revolt of AD 60?", Choices: choices([]string{"Boudica"}, "Caratacus")})
	saved := render(t, q)
	if !strings.Contains(saved, "generated_for: two questions on the Romans\n") || !strings.Contains(saved, "!pending \"two questions on the Romans\"") {
		t.Fatalf("saved:\n%s", saved)
	}

	s, q = newSession(t, saved)
	var got []session.Pending
	for _, p := range q.Pending() {
		if p.ID != "" {
			got = append(got, p)
		}
	}
	if len(got) != 1 || !reflect.DeepEqual(got[0].Generated, []string{"q1"}) {
		t.Fatalf("pending = %+v, want the placeholder listing q1", got)
	}
	apply(t, s, q, quiz.AddQuestion{Prompt: "What language did the Romans speak?", Choices: choices([]string{"Latin"}, "Greek")})
	apply(t, s, q, quiz.ClosePlaceholders{})
	out := render(t, q)
	if strings.Count(out, "Boudica") != 1 || strings.Contains(out, "generated_for") || strings.Contains(out, "!pending") {
		t.Errorf("after the rerun:\n%s", out)
	}
}
