package orchestrate

import (
	"fmt"
	"sync"

	"context"
	"github.com/lessongen/lessongen/internal/event"
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
		prov.record(node, sess)
	}
	if err := prov.flush(); err != nil {
		t.Fatal(err)
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
	// The author's materials are locked: a set adds after them.
	var before []lesson.Item
	root.View(func(st session.State) { before = st.(*lesson.Plan).Metadata.Materials.Value })
	must(root.Dispatch(ctx, lesson.SetMaterials{Materials: []lesson.Item{{Text: "a compass"}}}))
	root.View(func(st session.State) {
		after := st.(*lesson.Plan).Metadata.Materials.Value
		if len(after) != len(before)+1 || !slices.Equal(lesson.Texts(after[:len(before)]), lesson.Texts(before)) {
			t.Errorf("the author's materials %v became %v", before, after)
		}
	})

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

// The record of what was generated is written before each checkpoint,
// not once per node: every save finds it naming the nodes done so far,
// and after the run it names them all, with checkpoints or without.
func TestProvenanceWrittenBeforeCheckpoint(t *testing.T) {
	t.Run("checkpoints", func(t *testing.T) { provenanceWritten(t, true) })
	t.Run("none", func(t *testing.T) { provenanceWritten(t, false) })
}

func provenanceWritten(t *testing.T, checkpoints bool) {
	doc, err := compose.Load(writeLesson(t, 4, ""), testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	opts := options(t, newSolver(), 1)
	opts.StateDir = state
	var done []string // boards finished, as the events tell
	var mu sync.Mutex
	events := opts.Events
	opts.Events = func(e event.Event) {
		if e.Kind == event.NodeEnd && e.Level == "whiteboard.node" {
			mu.Lock()
			done = append(done, e.Node)
			mu.Unlock()
		}
		if events != nil {
			events(e)
		}
	}
	saves := 0
	opts.Checkpoint = func(bool) ([]string, error) {
		saves++
		data, _ := os.ReadFile(filepath.Join(state, ProvenanceFile))
		mu.Lock()
		defer mu.Unlock()
		for _, node := range done {
			if !strings.Contains(string(data), `"`+node+`"`) {
				t.Errorf("save %d: the record does not name %s, done before it", saves, node)
			}
		}
		return nil, nil
	}
	if !checkpoints {
		opts.Checkpoint, saves = nil, -1
	}
	if _, err := Run(context.Background(), doc, Scope{}, opts); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(state, ProvenanceFile))
	if err != nil || saves == 0 {
		t.Fatalf("after the run: %d saves, record %v", saves, err)
	}
	for i := range 4 {
		if node := fmt.Sprintf("slides/s%d/whiteboard", i); !strings.Contains(string(data), `"`+node+`"`) {
			t.Errorf("the record does not name %s:\n%s", node, data)
		}
	}
}
