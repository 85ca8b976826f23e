package orchestrate

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/modalities"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/templates"
	"github.com/lessongen/lessongen/whiteboard"
	"gopkg.in/yaml.v3"
)

var update = flag.Bool("update", false, "rewrite the golden prompt files in testdata/prompts")

// goldenLesson has something pending at every level: metadata, slides,
// a whiteboard's heading and elements, a quiz's kind and questions, an
// activity's instructions and criteria.
const goldenLesson = `version: 1
metadata:
  title: Photosynthesis
  subject: Biology
  grade: "7"
  duration_minutes: 40
  objectives: !pending "two measurable objectives"
slides:
  - id: hook
    title: Why are leaves green?
    section: Engage
    duration_minutes: 5
    notes: Ask students what plants need.
    whiteboard: !pending "a leaf with light, water and carbon dioxide arrows going in"
    activity: !pending "pupils in pairs say what a leaf takes in"
  - !pending "three slides that explain and practise the light reactions"
  - id: check
    title: Check your understanding
    section: Evaluate
    duration_minutes: 10
    notes: Students answer alone, then compare.
    whiteboard: !pending "the three questions, numbered, for students to answer"
    quiz: !pending "three questions on where each stage happens"
`

// firstRequests records the first request of every level: the prompt a
// subagent starts from. It answers every turn with plain text.
type firstRequests struct {
	mu    sync.Mutex
	first map[string]llm.Request
}

func (f *firstRequests) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	m := nodeRE.FindStringSubmatch(taskText(req))
	if m == nil {
		return llm.Response{}, fmt.Errorf("no node line in the prompt")
	}
	f.mu.Lock()
	key := m[2]
	if m[1] == "slides/check/whiteboard" {
		key += ".check"
	}
	if _, seen := f.first[key]; !seen {
		f.first[key] = req
	}
	f.mu.Unlock()
	resp := llm.Response{Requests: 1}
	resp.Message.Role, resp.Message.Content = llm.RoleAssistant, "Done."
	return resp, nil
}

func goldenRegistry(t testing.TB) *modality.Registry {
	reg, err := modalities.Registry()
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// goldenFirstRequests runs goldenLesson with a model that only records, and
// returns the first request of each level (whiteboard levels twice: the
// hook slide's and the check slide's).
func goldenFirstRequests(t testing.TB) map[string]llm.Request {
	t.Helper()
	path := filepath.Join(t.TempDir(), "lesson.yaml")
	if err := os.WriteFile(path, []byte(goldenLesson), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := goldenRegistry(t)
	doc, err := compose.Load(path, reg)
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := templates.Load("", templates.LevelsOf(reg))
	if err != nil {
		t.Fatal(err)
	}
	br, err := bridge.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	model := &firstRequests{first: map[string]llm.Request{}}
	opts := Options{Bridge: br, Model: model, Templates: tmpl, Form: bridge.Strict, Approval: bridge.ApproveAuto, MaxSteps: 6, Concurrency: 1}
	if _, err := Run(context.Background(), doc, Scope{}, opts); err != nil {
		t.Fatal(err)
	}
	return model.first
}

// TestGoldenPrompts keeps the first request of every level in
// testdata/prompts, so a change of wording is reviewed as a diff. Run with
// -update to rewrite them.
func TestGoldenPrompts(t *testing.T) {
	first := goldenFirstRequests(t)
	// Every level goldenLesson places, and the second whiteboard node (the
	// check slide); and no level ran that is not among them.
	levels := append(goldenLevels(t, goldenRegistry(t)), "whiteboard.node.check")
	for level := range first {
		if !slices.Contains(levels, strings.TrimSuffix(level, ".check")) {
			t.Errorf("%s: a subagent ran, but its kind is not among the levels checked", level)
		}
	}
	for _, level := range levels {
		req, ok := first[level]
		if !ok {
			t.Errorf("%s: no subagent ran", level)
			continue
		}
		got := goldenText(req)
		file := filepath.Join("testdata", "prompts", level+".txt")
		if *update {
			if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%v (run go test ./orchestrate -run TestGoldenPrompts -update)", err)
		}
		if got != string(want) {
			t.Errorf("%s: the prompt changed; review with go test ./orchestrate -run TestGoldenPrompts -update && git diff %s", level, file)
		}
	}
}

// goldenLevels is every level of the kinds goldenLesson places: the
// root's, and each registered child that some slide names. A kind the
// lesson does not place (a new one, registered later) has no golden here.
func goldenLevels(t testing.TB, reg *modality.Registry) []string {
	t.Helper()
	var plan struct {
		Slides []yaml.Node `yaml:"slides"`
	}
	if err := yaml.Unmarshal([]byte(goldenLesson), &plan); err != nil {
		t.Fatal(err)
	}
	placed := map[string]bool{reg.Root().Name: true}
	for _, slide := range plan.Slides { // a pending slide has no keys
		for i := 0; slide.Kind == yaml.MappingNode && i < len(slide.Content); i += 2 {
			if _, ok := reg.Child(slide.Content[i].Value); ok {
				placed[slide.Content[i].Value] = true
			}
		}
	}
	var out []string
	for _, l := range reg.Levels() {
		if placed[l.Modality] {
			out = append(out, l.Name)
		}
	}
	return out
}

// goldenText is a request as a person reviews it: the tools offered (name
// and description; their schemas are bridge's golden catalog), then the
// messages.
func goldenText(req llm.Request) string {
	var b strings.Builder
	b.WriteString("=== tools\n")
	for _, tl := range req.Tools {
		fmt.Fprintf(&b, "%s: %s\n", tl.Name, tl.Description)
	}
	for _, m := range req.Messages {
		fmt.Fprintf(&b, "=== %s\n%s\n", m.Role, strings.TrimRight(m.Content, "\n"))
	}
	return b.String()
}

// refineGoldenLesson is a slide whose board holds the author's element and
// a placeholder a first run fills.
const refineGoldenLesson = `version: 1
metadata:
  title: Fractions
  subject: maths
  grade: "4"
slides:
  - id: why-not
    title: Why not?
    notes: Compare the halves.
    whiteboard:
      heading: Two halves
      elements:
        - id: title
          type: text
          x: 40
          y: 130
          w: 400
          h: 40
          text: Which is bigger?
        - !pending "two bars"
`

// TestGoldenRefinePrompt keeps the prompt of a refinement (fill --slide
// --instruction on a complete slide with no saved conversation) in
// testdata/prompts/whiteboard.node.refine.txt: it says nothing is pending,
// which values are locked and which may change, and starts with the
// instruction rather than "fill every pending item".
func TestGoldenRefinePrompt(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lesson.yaml")
	if err := os.WriteFile(path, []byte(refineGoldenLesson), 0o644); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(dir, ".lessongen")
	reg := goldenRegistry(t)
	ctx := context.Background()

	// A first run draws a bar, records it and saves.
	doc, err := compose.Load(path, reg)
	if err != nil {
		t.Fatal(err)
	}
	board, err := doc.Child("why-not", "whiteboard")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []session.Intent{
		whiteboard.AddShape{Box: whiteboard.Box{X: 40, Y: 200, W: 200, H: 60}, Shape: "rect", Label: "1/2", Placing: whiteboard.Placing{ID: "half-1"}},
		whiteboard.ClosePlaceholders{},
	} {
		if _, err := board.Dispatch(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	prov, err := loadProvenance(state, true)
	if err != nil {
		t.Fatal(err)
	}
	prov.record("slides/why-not/whiteboard", board)
	if err := prov.close(); err != nil {
		t.Fatal(err)
	}
	if _, err := compose.NewSaver(doc).Save(""); err != nil {
		t.Fatal(err)
	}

	// The refinement, on the saved file.
	doc, err = compose.Load(path, reg)
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := templates.Load("", templates.LevelsOf(reg))
	if err != nil {
		t.Fatal(err)
	}
	br, err := bridge.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	model := &firstRequests{first: map[string]llm.Request{}}
	opts := Options{Bridge: br, Model: model, Templates: tmpl, Form: bridge.Strict, Approval: bridge.ApproveAuto, MaxSteps: 6, Concurrency: 1,
		Instruction: "Make the bar bigger", StateDir: state}
	if _, err := Run(ctx, doc, Scope{Slide: "why-not", Refine: true}, opts); err != nil {
		t.Fatal(err)
	}
	req, ok := model.first["whiteboard.node"]
	if !ok {
		t.Fatal("the whiteboard was not refined")
	}
	got := goldenText(req)
	// Nothing is pending: the instruction leads the user message, said
	// once, as are what is locked and the node's part.
	for _, once := range []string{"Make the bar bigger", "Locked, written by the author", "Node: slides/why-not/whiteboard"} {
		if n := strings.Count(got, once); n != 1 {
			t.Errorf("%q is in the refinement's request %d times, want once", once, n)
		}
	}
	file := filepath.Join("testdata", "prompts", "whiteboard.node.refine.txt")
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./orchestrate -run TestGoldenRefinePrompt -update)", err)
	}
	if got != string(want) {
		t.Errorf("the refinement prompt changed; review with go test ./orchestrate -run TestGoldenRefinePrompt -update && git diff %s", file)
	}
}
