package lesson_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

// A slide the model adds gets a pending whiteboard, and a pending quiz when
// the model asks for one and the quiz is registered; both are saved as
// slide fields and get slots of their own.
func TestAddSlidePlacesBriefedChildren(t *testing.T) {
	reg := testRegistry()
	if _, ok := reg.Child("quiz"); !ok {
		t.Skip("the quiz is not registered")
	}
	dir := writeFiles(t, map[string]string{"lesson.yaml": "version: 1\nmetadata:\n  title: Romans\nslides: !pending \"an exit quiz\"\n"})
	doc, err := compose.Load(filepath.Join(dir, "lesson.yaml"), reg)
	if err != nil {
		t.Fatal(err)
	}
	s := doc.Session()
	ctx := context.Background()
	for _, in := range []lesson.AddSlide{
		{Title: "Exit quiz", Section: "Evaluate", DurationMinutes: 5, Notes: "n", Briefs: map[string]string{"whiteboard": "the big question", "quiz": "three questions on the lesson"}},
		{Title: "Goodbye", Section: "Evaluate", DurationMinutes: 1, Notes: "n", Briefs: map[string]string{"whiteboard": "a wave"}},
	} {
		if _, err := s.Dispatch(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	added := s.ReconcileChildren()
	want := []session.Key{{Placement: "exit-quiz", Kind: "whiteboard"}, {Placement: "exit-quiz", Kind: "quiz"}, {Placement: "goodbye", Kind: "whiteboard"}}
	if len(added) != len(want) {
		t.Fatalf("slots %v, want %v", added, want)
	}
	for i := range want {
		if added[i] != want[i] {
			t.Errorf("slot %d = %v, want %v", i, added[i], want[i])
		}
	}
	data, err := doc.LessonBytes()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "    whiteboard: !pending \"the big question\"\n    quiz: !pending \"three questions on the lesson\"\n") ||
		strings.Count(string(data), "quiz: !pending") != 1 {
		t.Errorf("saved:\n%s", data)
	}

	// Without the quiz registered, a quiz brief places nothing.
	withoutQuiz, err := modality.New(lesson.Modality(), whiteboard.Modality())
	if err != nil {
		t.Fatal(err)
	}
	doc, err = compose.Load(filepath.Join(dir, "lesson.yaml"), withoutQuiz)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := doc.Session().Dispatch(ctx, lesson.AddSlide{Title: "T", Section: "S", DurationMinutes: 2, Notes: "n", Briefs: map[string]string{"whiteboard": "w", "quiz": "q"}}); err != nil {
		t.Fatal(err)
	}
	if added := doc.Session().ReconcileChildren(); len(added) != 1 || added[0].Kind != "whiteboard" {
		t.Errorf("slots %v", added)
	}
}
