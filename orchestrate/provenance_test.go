package orchestrate

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/quiz"
	"github.com/lessongen/lessongen/session"
)

const provenanceLesson = `version: 1
metadata:
  title: Magnets
  subject: science
  grade: "4"
  objectives: !pending "two objectives"
  materials:
    - two bar magnets
slides:
  - id: a
    title: Poles
    notes: Poles come in pairs.
    quiz:
      kind: check
      questions:
        - id: mine
          prompt: Which poles attract?
          answers: [opposite poles]
          distractors: [like poles]
        - !pending "one more question"
`

// TestProvenanceRoundTrip: what a run wrote in the lesson's metadata and
// in a quiz is recorded, saved, and after a reload is the next run's to
// change; what a person edited since, and what the author wrote, stay
// locked.
func TestProvenanceRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lesson.yaml")
	state := filepath.Join(dir, ".lessongen")
	os.WriteFile(path, []byte(provenanceLesson), 0o644)
	reg := goldenRegistry(t)
	ctx := context.Background()

	doc, err := compose.Load(path, reg)
	if err != nil {
		t.Fatal(err)
	}
	qz, err := doc.Child("a", "quiz")
	if err != nil {
		t.Fatal(err)
	}
	must := func(_ session.Result, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(doc.Session().Dispatch(ctx, lesson.SetObjectives{Objectives: []lesson.Item{{Text: "Name the poles"}, {Text: "Predict attraction"}}}))
	must(qz.Dispatch(ctx, quiz.AddQuestion{Prompt: "What does a compass needle point to?", Choices: quiz.Choices{Options: []quiz.Option{{Text: "north", Correct: true}, {Text: "east"}}}, Placing: quiz.Placing{ID: "ours"}}))
	prov, err := loadProvenance(state, true)
	if err != nil {
		t.Fatal(err)
	}
	for node, sess := range map[string]*session.Session{"lesson": doc.Session(), "slides/a/quiz": qz} {
		if err := prov.record(node, sess); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := compose.NewSaver(doc).Save(""); err != nil {
		t.Fatal(err)
	}

	reload := func() (*session.Session, *session.Session) {
		t.Helper()
		doc, err := compose.Load(path, reg)
		if err != nil {
			t.Fatal(err)
		}
		qz, err := doc.Child("a", "quiz")
		if err != nil {
			t.Fatal(err)
		}
		prov, err := loadProvenance(state, false)
		if err != nil {
			t.Fatal(err)
		}
		prov.adopt("lesson", doc.Session())
		prov.adopt("slides/a/quiz", qz)
		return doc.Session(), qz
	}
	root, qz := reload()
	locked, editable := ownership(root, session.LevelMetadata)
	if !slices.Contains(editable, "objectives") || !slices.Contains(locked, "materials") || !slices.Contains(locked, "title") {
		t.Errorf("lesson: locked %v, editable %v", locked, editable)
	}
	locked, editable = ownership(qz, session.LevelNode)
	if !slices.Equal(locked, []string{`question "mine" (1)`}) || !slices.Equal(editable, []string{`question "ours" (2)`}) {
		t.Errorf("quiz: locked %v, editable %v", locked, editable)
	}
	if locked, editable = ownership(qz, session.LevelMetadata); !slices.Equal(locked, []string{"kind"}) || len(editable) > 0 {
		t.Errorf("quiz metadata: locked %v, editable %v", locked, editable)
	}
	must(root.Dispatch(ctx, lesson.SetObjectives{Objectives: []lesson.Item{{Text: "Name both poles"}}}))
	easier := "Where does a compass needle point?"
	must(qz.Dispatch(ctx, quiz.UpdateQuestion{ID: "ours", Prompt: &easier}))
	if _, err := qz.Dispatch(ctx, quiz.UpdateQuestion{ID: "mine", Prompt: &easier}); err == nil || !strings.Contains(err.Error(), "author") {
		t.Errorf("changing the author's question: %v", err)
	}
	if _, err := root.Dispatch(ctx, lesson.SetMaterials{Materials: []lesson.Item{{Text: "a compass"}}}); err == nil {
		t.Error("the author's materials were replaced")
	}

	// A person edits the generated question: it is theirs now.
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(data), "What does a compass needle point to?", "Where does a compass point?", 1)), 0o644)
	_, qz = reload()
	if locked, _ := ownership(qz, session.LevelNode); !slices.Contains(locked, `question "ours" (2)`) {
		t.Errorf("after the person's edit the question is not locked: %v", locked)
	}
	if _, err := qz.Dispatch(ctx, quiz.UpdateQuestion{ID: "ours", Prompt: &easier}); err == nil {
		t.Error("a question the person edited was changed")
	}
}
