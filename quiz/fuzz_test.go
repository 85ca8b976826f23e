package quiz_test

import (
	"testing"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/quiz"
)

// FuzzDecode feeds arbitrary quizzes to the decoder. Whatever it accepts
// must save unchanged byte for byte, and its saved form must load again to
// the same quiz. It must never panic.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		romansSrc,
		everyShape,
		everyType,
		pendingTypes,
		"kind: exit\nquestions: !pending \"five\"\n",
		"questions:\n  - {id: a, prompt: P, answers: [x, y], distractors: !pending }\n  - !pending\n",
		"instructions: |\n  Work alone.\nquestions: []\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := yamlsrc.Parse("quiz.yaml", data)
		if err != nil {
			return
		}
		r := &yamlsrc.Reporter{File: "quiz.yaml"}
		q := quiz.Decode(s.Root, r, "quiz")
		if len(r.Problems) != 0 {
			return
		}
		n, _ := q.EncodeNode()
		out, err := s.Patch(n)
		if err != nil {
			t.Fatalf("saving an unchanged quiz: %v", err)
		}
		if string(out) != string(data) {
			t.Fatalf("an unchanged quiz saves differently:\n--- in\n%s\n--- out\n%s", data, out)
		}
		_ = q.Describe()
		_ = q.Pending()
		saved := render(t, q)
		if again := render(t, decode(t, saved)); again != saved {
			t.Fatalf("saved form does not load to the same quiz:\n%s\n---\n%s", saved, again)
		}
	})
}
