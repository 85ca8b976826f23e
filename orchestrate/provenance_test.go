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
	if err := prov.close(); err != nil {
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

// TestProvenanceBytesLinear (issue #39): a checkpoint after every node
// (interval 0) writes the record's changes, not the whole record, so a
// run writes it in bytes about what it holds at the end, however many
// nodes and checkpoints: rewritten whole, its bytes grew with the
// square of the nodes (69 MB for a 400-board run).
func TestProvenanceBytesLinear(t *testing.T) {
	const boards = 80
	doc, err := compose.Load(writeLesson(t, boards, ""), testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	opts := options(t, newSolver(), 4)
	opts.StateDir = state
	var written, last int64
	var lastFile os.FileInfo
	count := func() {
		fi, err := os.Stat(filepath.Join(state, ProvenanceFile))
		switch {
		case err != nil:
		case lastFile != nil && os.SameFile(fi, lastFile):
			written += fi.Size() - last // appended
		default:
			written += fi.Size() // replaced whole
		}
		if err == nil {
			lastFile, last = fi, fi.Size()
		}
	}
	saves := 0
	opts.Checkpoint = func(bool) ([]string, error) {
		saves++
		count()
		return nil, nil
	}
	if _, err := Run(context.Background(), doc, Scope{}, opts); err != nil {
		t.Fatal(err)
	}
	count()
	if saves < 5 || last == 0 {
		t.Fatalf("%d saves, record of %d bytes", saves, last)
	}
	if written > 2*last {
		t.Errorf("the record was written %d bytes over %d checkpoints for %d at the end (%.1fx); want at most 2x", written, saves, last, float64(written)/float64(last))
	}
}

// TestProvenanceMigrates: a state folder of an earlier lessongen, whose
// record is one provenance.json, is still read, and the first write
// replaces it with the log, which names everything both knew.
func TestProvenanceMigrates(t *testing.T) {
	state := t.TempDir()
	legacy := `{"format": 1, "nodes": {"slides/old/whiteboard": {"heading": "sha256:aa"}}}`
	if err := os.WriteFile(filepath.Join(state, "provenance.json"), []byte(legacy), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := loadProvenance(state, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.nodes["slides/old/whiteboard"]["heading"]; got != "sha256:aa" {
		t.Fatalf("the earlier record was not read: %v", p.nodes)
	}
	if err := p.close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(state, "provenance.json")); err != nil {
		t.Fatal("nothing was written, yet the earlier record is gone")
	}
	p, _ = loadProvenance(state, true)
	p.nodes["slides/new/whiteboard"] = map[string]string{"layout": "sha256:bb"}
	p.changed["slides/new/whiteboard"] = true
	if err := p.close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(state, "provenance.json")); !os.IsNotExist(err) {
		t.Errorf("provenance.json is still there after the first write: %v", err)
	}
	p, err = loadProvenance(state, false)
	if err != nil {
		t.Fatal(err)
	}
	if p.nodes["slides/old/whiteboard"]["heading"] != "sha256:aa" || p.nodes["slides/new/whiteboard"]["layout"] != "sha256:bb" {
		t.Errorf("after the migration the record reads %v", p.nodes)
	}
}

// TestProvenanceLogTornAndCompacted: a line a kill cut short is dropped
// and the next one starts on a line of its own; a log mostly of
// superseded lines is rewritten with the live ones at the next run's
// first write.
func TestProvenanceLogTornAndCompacted(t *testing.T) {
	state := t.TempDir()
	path := filepath.Join(state, ProvenanceFile)
	os.WriteFile(path, []byte("{\"format\":1}\n{\"node\":\"a\",\"generated\":{\"k\":\"sha256:1\"}}\n{\"node\":\"b\",\"gen"), 0o644)
	p, err := loadProvenance(state, true)
	if err != nil || len(p.nodes) != 1 || p.nodes["a"]["k"] != "sha256:1" {
		t.Fatalf("torn log read as %v (%v)", p.nodes, err)
	}
	p.nodes["b"] = map[string]string{"k": "sha256:2"}
	p.changed["b"] = true
	if err := p.close(); err != nil {
		t.Fatal(err)
	}
	if p, _ = loadProvenance(state, false); len(p.nodes) != 2 || p.nodes["b"]["k"] != "sha256:2" {
		t.Fatalf("after the torn line, the log reads %v", p.nodes)
	}

	// 2 MB of one node's superseded lines.
	var b strings.Builder
	b.WriteString("{\"format\":1}\n")
	for i := 0; b.Len() < 2<<20; i++ {
		fmt.Fprintf(&b, "{\"node\":\"a\",\"generated\":{\"k\":\"sha256:%064d\"}}\n", i)
	}
	os.WriteFile(path, []byte(b.String()), 0o644)
	p, _ = loadProvenance(state, true)
	want := p.nodes["a"]["k"]
	p.changed["a"] = true
	if err := p.close(); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Size() > 1000 {
		t.Errorf("a log mostly superseded was not compacted: %d bytes", fi.Size())
	}
	if p, _ = loadProvenance(state, false); p.nodes["a"]["k"] != want {
		t.Errorf("after compaction a = %v, want %s", p.nodes["a"], want)
	}
}

// TestProvenanceLegacyLeftBeside: a provenance.json left beside the log
// (a run stopped while migrating) is not read, and goes at the next write.
func TestProvenanceLegacyLeftBeside(t *testing.T) {
	state := t.TempDir()
	os.WriteFile(filepath.Join(state, "provenance.json"), []byte(`{"format": 1, "nodes": {"old": {"k": "sha256:0"}}}`), 0o644)
	os.WriteFile(filepath.Join(state, ProvenanceFile), []byte("{\"format\":1}\n{\"node\":\"a\",\"generated\":{\"k\":\"sha256:1\"}}\n"), 0o644)
	p, err := loadProvenance(state, true)
	if err != nil || p.nodes["old"] != nil || p.nodes["a"]["k"] != "sha256:1" {
		t.Fatalf("read %v (%v); want the log alone", p.nodes, err)
	}
	p.nodes["b"] = map[string]string{"k": "sha256:2"}
	p.changed["b"] = true
	if err := p.close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(state, "provenance.json")); !os.IsNotExist(err) {
		t.Errorf("provenance.json is still there: %v", err)
	}
}
