package orchestrate

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/modalities"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/templates"
	"github.com/lessongen/lessongen/whiteboard"
)

var nodeRE = regexp.MustCompile(`Node: (\S+) \((\S+)\)`)

// taskText is what a request says of its task: the system message and
// the first user message, which carries the node's part.
func taskText(req llm.Request) string {
	var parts []string
	for _, m := range req.Messages {
		if m.Role == llm.RoleSystem || m.Role == llm.RoleUser {
			parts = append(parts, m.Content)
		}
		if m.Role == llm.RoleUser {
			break
		}
	}
	return strings.Join(parts, "\n\n")
}

// bodyTask is taskText of a request body as a server receives it.
func bodyTask(t testing.TB, body []byte) string {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    llm.Role `json:"role"`
			Content string   `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	var r llm.Request
	for _, m := range req.Messages {
		r.Messages = append(r.Messages, llm.Message{Role: m.Role, Content: m.Content})
	}
	return taskText(r)
}

// solver is an in-memory model that completes whatever its level asks for
// in one turn, then stops. It records the order conversations start in and
// how many requests are in flight at once.
type solver struct {
	mu       sync.Mutex
	cond     *sync.Cond
	started  []string
	inFlight int
	maxIn    int
	// hold, when > 0, keeps the first requests waiting until hold of them
	// are in flight at once: a run that never allows that many would stall
	// here (until the test's deadline), whatever the timing.
	hold     int
	released bool
}

func newSolver() *solver {
	s := &solver{}
	s.cond = sync.NewCond(&s.mu)
	return s
}

func (s *solver) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	m := nodeRE.FindStringSubmatch(taskText(req))
	node, level := m[1], m[2]
	turn := 0
	for _, msg := range req.Messages {
		if msg.Role == llm.RoleAssistant {
			turn++
		}
	}
	s.mu.Lock()
	if turn == 0 {
		s.started = append(s.started, node+" "+level)
	}
	s.inFlight++
	s.maxIn = max(s.maxIn, s.inFlight)
	s.cond.Broadcast()
	if s.inFlight >= s.hold {
		s.released = true
	}
	for s.hold > 0 && !s.released && ctx.Err() == nil {
		s.cond.Wait()
	}
	s.inFlight--
	s.cond.Broadcast()
	s.mu.Unlock()

	resp := llm.Response{Requests: 1}
	resp.Message.Role = llm.RoleAssistant
	if turn > 0 {
		resp.Message.Content = "done"
		return resp, nil
	}
	add := func(name string, args any) {
		data, _ := json.Marshal(args)
		resp.Message.ToolCalls = append(resp.Message.ToolCalls, llm.ToolCall{ID: fmt.Sprintf("c%d", len(resp.Message.ToolCalls)), Name: name, Arguments: string(data)})
	}
	switch level {
	case "lesson.metadata":
		add("set_objectives", map[string]any{"objectives": []string{"Explain it"}})
	case "lesson.node":
		for i := range 2 {
			add("add_slide", map[string]any{"title": fmt.Sprintf("New %d", i+1), "section": "Explore", "duration_minutes": 5, "notes": "n", "whiteboard": "a board", "pending_id": "p1"})
		}
	case "whiteboard.metadata":
		add("set_heading", map[string]any{"heading": "H"})
		add("set_layout", map[string]any{"layout": "L"})
	case "whiteboard.node":
		add("add_text", map[string]any{"x": 10, "y": 130, "w": 100, "h": 40, "text": "T"})
	}
	return resp, nil
}

// writeLesson writes a lesson with n slides whose whiteboards are pending.
func writeLesson(t testing.TB, n int, extra string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("version: 1\nmetadata:\n  title: Test\n" + extra + "slides:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - id: s%d\n    title: Slide %d\n    whiteboard: !pending \"board %d\"\n", i, i, i)
	}
	path := filepath.Join(t.TempDir(), "lesson.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// loadSrc writes src as a lesson file and loads it.
func loadSrc(t testing.TB, src string) *compose.Document {
	t.Helper()
	path := filepath.Join(t.TempDir(), "lesson.yaml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := compose.Load(path, testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// testRegistry is the registry lessongen runs with, from the one list.
func testRegistry() *modality.Registry { return modalities.Must() }

func options(t testing.TB, model llm.Model, concurrency int) Options {
	t.Helper()
	reg := testRegistry()
	tmpl, err := templates.Load("", templates.LevelsOf(reg))
	if err != nil {
		t.Fatal(err)
	}
	br, err := bridge.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	return Options{Bridge: br, Model: model, Templates: tmpl, Form: bridge.Strict, Approval: bridge.ApproveAuto, MaxSteps: 6, Concurrency: concurrency}
}

func TestRunOrder(t *testing.T) {
	path := writeLesson(t, 1, "  objectives:\n")
	data, _ := os.ReadFile(path)
	data = append(data, "  - !pending \"two more\"\n"...)
	os.WriteFile(path, data, 0o644)
	doc, err := compose.Load(path, testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	model := newSolver()
	report, err := Run(context.Background(), doc, Scope{}, options(t, model, 4))
	if err != nil {
		t.Fatal(err)
	}
	if len(report.Incomplete()) != 0 {
		t.Fatalf("incomplete: %+v", report.Incomplete())
	}
	if model.started[0] != "lesson lesson.metadata" || model.started[1] != "lesson lesson.node" {
		t.Fatalf("the lesson comes first, metadata then node: %v", model.started)
	}
	seen := map[string]bool{}
	for _, s := range model.started[2:] {
		node, level, _ := strings.Cut(s, " ")
		if level == "whiteboard.node" && !seen[node] {
			t.Errorf("%s: node subagent before its metadata subagent: %v", node, model.started)
		}
		seen[node] = true
	}
	// The slides the node subagent added got their whiteboards generated.
	for _, node := range []string{"slides/s0/whiteboard", "slides/new-1/whiteboard", "slides/new-2/whiteboard"} {
		if !seen[node] {
			t.Errorf("%s never ran: %v", node, model.started)
		}
	}
	// Each subagent's one tool turn leaves nothing pending: one request.
	if report.Requests != len(model.started) {
		t.Errorf("requests %d for %d subagents of one turn", report.Requests, len(model.started))
	}
}

func TestRunRespectsConcurrencyLimit(t *testing.T) {
	for _, limit := range []int{1, 3} {
		doc, err := compose.Load(writeLesson(t, 8, ""), testRegistry())
		if err != nil {
			t.Fatal(err)
		}
		model := newSolver()
		model.hold = limit
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // deadlock guard
		stop := context.AfterFunc(ctx, func() {
			model.mu.Lock()
			model.cond.Broadcast()
			model.mu.Unlock()
		})
		_, err = Run(ctx, doc, Scope{}, options(t, model, limit))
		stop()
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if model.maxIn != limit {
			t.Errorf("limit %d: at most %d requests were in flight", limit, model.maxIn)
		}
	}
}

func TestRunNothingPendingMakesNoRequest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "done.yaml")
	os.WriteFile(path, []byte("version: 1\nmetadata:\n  title: Done\nslides:\n  - id: a\n    title: A\n    whiteboard:\n      heading: H\n      elements: []\n"), 0o644)
	doc, err := compose.Load(path, testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	model := newSolver()
	report, err := Run(context.Background(), doc, Scope{}, options(t, model, 2))
	if err != nil || report.Requests != 0 || len(model.started) != 0 {
		t.Errorf("report %+v err %v started %v", report, err, model.started)
	}
}

func TestRunScopeOneSlide(t *testing.T) {
	doc, err := compose.Load(writeLesson(t, 3, "  objectives:\n"), testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	model := newSolver()
	if _, err := Run(context.Background(), doc, Scope{Slide: "2"}, options(t, model, 2)); err != nil {
		t.Fatal(err)
	}
	want := "[slides/s1/whiteboard whiteboard.metadata slides/s1/whiteboard whiteboard.node]"
	if got := fmt.Sprint(model.started); got != want {
		t.Errorf("started %s, want %s", got, want)
	}
}

func TestCheckpointAfterNodes(t *testing.T) {
	doc, err := compose.Load(writeLesson(t, 4, ""), testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	saves := 0
	opts := options(t, newSolver(), 2)
	opts.Checkpoint = func(bool) ([]string, error) {
		mu.Lock()
		defer mu.Unlock()
		saves++
		return nil, doc.Save("")
	}
	var events []event.Event
	opts.Events = func(e event.Event) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, e)
	}
	if _, err := Run(context.Background(), doc, Scope{}, opts); err != nil {
		t.Fatal(err)
	}
	if saves < 1 || saves > 5 {
		t.Errorf("%d checkpoints for 4 whiteboards (coalesced, at least one)", saves)
	}
	// The saved file is the finished lesson.
	again, err := compose.Load(doc.Path, testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	steps, err := Plan(again, testRegistry(), Scope{})
	if err != nil || len(steps) != 0 {
		t.Errorf("after the run the file still has %d steps (%v)", len(steps), err)
	}
}

// Checkpoints render the whole lesson while other whiteboards resolve their
// bindings under the same read lock; under -race this must stay quiet.
func TestCheckpointsWhileBindingsResolve(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 1\nmetadata:\n  title: Bound\nslides:\n")
	for i := range 12 {
		fmt.Fprintf(&b, "  - id: s%d\n    title: Slide %d\n    props:\n      heading: \"{{ .lesson.title }} {{ .slide.number }}\"\n    whiteboard: !pending \"board\"\n", i, i)
	}
	path := filepath.Join(t.TempDir(), "lesson.yaml")
	os.WriteFile(path, []byte(b.String()), 0o644)
	doc, err := compose.Load(path, testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	opts := options(t, newSolver(), 6)
	opts.Checkpoint = func(bool) ([]string, error) { return nil, doc.Save("") }
	if _, err := Run(context.Background(), doc, Scope{}, opts); err != nil {
		t.Fatal(err)
	}
	// The boards saw their bound headings; the file keeps the bindings,
	// not their values.
	child, err := doc.Child("s11", "whiteboard")
	if err != nil {
		t.Fatal(err)
	}
	child.View(func(st session.State) {
		if h := st.(*whiteboard.Board).Heading.Value; h != "Bound 12" {
			t.Errorf("bound heading = %q, want %q", h, "Bound 12")
		}
	})
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "heading: Bound") {
		t.Errorf("a bound value was frozen into the file:\n%s", data)
	}
}
