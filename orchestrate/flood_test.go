package orchestrate

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lessongen/lessongen/agent"
	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/tool"
)

// flooder is a hostile in-memory model: on the first turn of every
// subagent it makes `calls` tool calls at once — slides on the lesson;
// partly overlapping text boxes on a whiteboard, with an add_slide (which a
// whiteboard subagent does not have) now and then — then stops. It keeps
// the tool messages each level got back and the size of the largest
// request.
type flooder struct {
	calls int
	// hugeReply, if set, is a node whose first reply carries this much
	// text, so its next request is too large to send.
	hugeReply     string
	hugeReplySize int

	mu       sync.Mutex
	results  map[string][]llm.Message // level -> tool messages of a first turn
	maxBytes int
}

func newFlooder(calls int) *flooder {
	return &flooder{calls: calls, results: map[string][]llm.Message{}}
}

func (f *flooder) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	m := nodeRE.FindStringSubmatch(taskText(req))
	node, level := m[1], m[2]
	turn, size := 0, 0
	var results []llm.Message
	for _, msg := range req.Messages {
		size += len(msg.Content)
		for _, c := range msg.ToolCalls {
			size += len(c.Arguments)
		}
		switch msg.Role {
		case llm.RoleAssistant:
			turn++
		case llm.RoleTool:
			results = append(results, msg)
		}
	}
	f.mu.Lock()
	f.maxBytes = max(f.maxBytes, size)
	if turn == 1 && f.results[level] == nil {
		f.results[level] = results
	}
	f.mu.Unlock()

	resp := llm.Response{Requests: 1}
	resp.Message.Role = llm.RoleAssistant
	if turn > 0 {
		resp.Message.Content = "done"
		return resp, nil
	}
	if node == f.hugeReply {
		resp.Message.Content = strings.Repeat("blah ", f.hugeReplySize/5)
	}
	add := func(name string, args any) {
		data, _ := json.Marshal(args)
		resp.Message.ToolCalls = append(resp.Message.ToolCalls, llm.ToolCall{ID: fmt.Sprintf("c%d", len(resp.Message.ToolCalls)), Name: name, Arguments: string(data)})
	}
	slide := func(i int) {
		add("add_slide", map[string]any{"title": fmt.Sprintf("Flood %d", i), "section": "Explore", "duration_minutes": 1, "notes": "n", "whiteboard": "a board"})
	}
	for i := range f.calls {
		switch level {
		case "lesson.node":
			slide(i)
		case "whiteboard.metadata":
			add("set_heading", map[string]any{"heading": fmt.Sprintf("H%d", i)})
			// The huge reply leaves the layout pending, so its subagent
			// needs a second request: the one too large to send.
			if i == 0 && node != f.hugeReply {
				add("set_layout", map[string]any{"layout": "L"})
			}
		case "whiteboard.node":
			if i%50 == 49 {
				slide(i)
				continue
			}
			// Each box partly overlaps its neighbours, so layout defects
			// pile up as elements are added.
			add("add_text", map[string]any{"x": float64(i%400) * 3, "y": float64(i%17) * 30, "w": 120, "h": 40, "text": fmt.Sprintf("T%d", i)})
		}
	}
	return resp, nil
}

// floodLesson has complete metadata, one slide with a pending whiteboard,
// and a pending placeholder for more slides.
func floodLesson(t testing.TB) *compose.Document {
	t.Helper()
	src := "version: 1\nmetadata:\n  title: Flood\n  objectives: [Survive]\nslides:\n" +
		"  - id: s0\n    title: First\n    whiteboard: !pending \"board\"\n" +
		"  - !pending \"more slides\"\n"
	return loadSrc(t, src)
}

// peakHeap samples the heap in use until the returned function is called,
// and returns the highest figure seen, in bytes.
func peakHeap() (stop func() uint64) {
	var peak uint64
	done, finished := make(chan struct{}), make(chan struct{})
	sample := func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	}
	go func() {
		defer close(finished)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			sample()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		sample()
		return peak
	}
}

// envelopes decodes a first turn's tool messages, checking that every call
// got exactly one, by id, in order.
func envelopes(t *testing.T, msgs []llm.Message, calls int) []tool.Envelope {
	t.Helper()
	if len(msgs) != calls {
		t.Fatalf("%d tool messages for %d calls", len(msgs), calls)
	}
	out := make([]tool.Envelope, len(msgs))
	for i, m := range msgs {
		if m.ToolCallID != fmt.Sprintf("c%d", i) {
			t.Fatalf("message %d answers %s", i, m.ToolCallID)
		}
		if err := json.Unmarshal([]byte(m.Content), &out[i]); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
	}
	return out
}

// kind is an envelope's outcome: "ok" or its error kind.
func kind(e tool.Envelope) string {
	if e.OK {
		return "ok"
	}
	return string(e.Error.Kind)
}

// A model that makes 2,000 calls in one turn, in every subagent, gets the
// first 64 run and the rest answered with limit envelopes; a lesson subagent
// adds at most 40 slides and a whiteboard subagent 60 elements. The run
// finishes with every node done and no request grows past a few hundred KB.
func TestFloodOfCallsInOneTurn(t *testing.T) {
	const calls = 2000
	doc := floodLesson(t)
	model := newFlooder(calls)
	var mu sync.Mutex
	limits := 0
	opts := options(t, model, 2)
	opts.Events = func(e event.Event) {
		if e.Kind == event.ToolResult && strings.Contains(string(e.Result), `"kind":"limit"`) {
			mu.Lock()
			limits++
			mu.Unlock()
		}
	}
	report, err := Run(context.Background(), doc, Scope{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	// The flood's elements overlap: that is a defect, not a failure.
	if bad := failedOrPending(report); len(bad) > 0 {
		t.Fatalf("incomplete: %+v", bad[0])
	}
	// The lesson, then one whiteboard per slide (the first and 40 new).
	if want := 1 + 2*(1+lesson.MaxNewSlides); len(report.Nodes) != want {
		t.Errorf("%d nodes ran, want %d", len(report.Nodes), want)
	}

	n := agent.MaxCallsPerTurn
	lessonEnv := envelopes(t, model.results["lesson.node"], calls)
	for i, e := range lessonEnv {
		want := "ok"
		switch {
		case i >= n:
			want = "limit"
			if !strings.Contains(e.Error.Message, "at most 64 calls per turn") {
				t.Fatalf("lesson call %d: %s", i, e.Error.Message)
			}
		case i >= lesson.MaxNewSlides:
			want = "limit"
			if e.Error.Message != "not run: this subagent has added 40 slides, the most one may add" {
				t.Fatalf("lesson call %d: %s", i, e.Error.Message)
			}
		}
		if kind(e) != want {
			t.Fatalf("lesson call %d: %s, want %s", i, kind(e), want)
		}
	}
	doc.View(func(p *lesson.Plan) {
		if got := len(p.SlideIDs()); got != 1+lesson.MaxNewSlides {
			t.Errorf("%d slides, want %d", got, 1+lesson.MaxNewSlides)
		}
	})

	boardEnv := envelopes(t, model.results["whiteboard.node"], calls)
	added := 0
	for i, e := range boardEnv {
		want := "ok"
		switch {
		case i >= n:
			want = "limit"
		case i%50 == 49:
			want = "not_found" // add_slide is no whiteboard tool
		case added >= 60:
			want = "limit"
		default:
			added++
			// A call whose box overlaps earlier ones sees that it does,
			// and nothing more than what it touched.
			for _, w := range e.Warnings {
				if !strings.Contains(w.Message, fmt.Sprintf("text%d", added)) {
					t.Errorf("call %d warned of %q", i, w.Message)
				}
			}
			if added > 1 && len(e.Warnings) == 0 {
				t.Errorf("call %d adds a box over the last one but sees no warning", i)
			}
		}
		if kind(e) != want {
			t.Fatalf("whiteboard call %d: %s, want %s (%+v)", i, kind(e), want, e.Error)
		}
	}
	if want := (1+2*(1+lesson.MaxNewSlides))*(calls-n) + (n - lesson.MaxNewSlides) + (1+lesson.MaxNewSlides)*3; limits < want {
		t.Errorf("%d limit envelopes, want at least %d", limits, want)
	}
	if model.maxBytes > 1_000_000 {
		t.Errorf("largest request %d bytes", model.maxBytes)
	}
	t.Logf("largest request %d bytes", model.maxBytes)
}

// A subagent whose next request would be too large fails its node only;
// the rest of the run carries on.
func TestOversizedRequestFailsOnlyItsNode(t *testing.T) {
	doc := floodLesson(t)
	model := newFlooder(3)
	model.hugeReply, model.hugeReplySize = "slides/s0/whiteboard", 2_000_000
	report, err := Run(context.Background(), doc, Scope{}, options(t, model, 2))
	if err != nil {
		t.Fatalf("the run stopped: %v", err)
	}
	// Its metadata subagent fails; its node subagent does not start.
	failed := failedOrPending(report)
	if len(failed) != 2 {
		t.Fatalf("incomplete nodes: %+v", failed)
	}
	if nr := failed[0]; nr.Node != model.hugeReply || nr.Status != event.StatusFailed || !strings.Contains(nr.Error, "request not sent: the model's reply of turn 1 (") || !strings.Contains(nr.Error, "is 2.0 MB; limit 1.0 MB") {
		t.Errorf("failed node: %+v", nr)
	}
	if nr := failed[1]; nr.Node != model.hugeReply || nr.Level != "whiteboard.node" || !nr.NotStarted || nr.Status != event.StatusPending {
		t.Errorf("its node level: %+v, want not started", nr)
	}
	if done := len(report.Nodes) - len(failed); done != 1+2*3 {
		t.Errorf("%d nodes done, want the lesson and three other whiteboards", done)
	}
}

// BenchmarkFlood reports the peak heap of a run in which every subagent
// makes `calls` tool calls in its first turn, and the largest request.
func BenchmarkFlood(b *testing.B) {
	for _, calls := range []int{500, 2000} {
		b.Run(fmt.Sprintf("calls=%d", calls), func(b *testing.B) {
			var peak uint64
			var largest int
			for b.Loop() {
				b.StopTimer()
				doc := floodLesson(b)
				model := newFlooder(calls)
				runtime.GC()
				stop := peakHeap()
				b.StartTimer()
				if _, err := Run(context.Background(), doc, Scope{}, options(b, model, 2)); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				peak = max(peak, stop())
				largest = max(largest, model.maxBytes)
				b.StartTimer()
			}
			b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
			b.ReportMetric(float64(largest)/1e6, "largest-request-MB")
		})
	}
}

// The task prompt states the bounds a subagent works under.
func TestPromptStatesTheBounds(t *testing.T) {
	doc := floodLesson(t)
	model := newFlooder(1)
	var prompts []string
	var mu sync.Mutex
	rec := modelFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		mu.Lock()
		prompts = append(prompts, taskText(req))
		mu.Unlock()
		return model.Complete(ctx, req)
	})
	if _, err := Run(context.Background(), doc, Scope{}, options(t, rec, 1)); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"lesson.node": "You may add at most 40 slides.", "whiteboard.node": "You may add at most 60 elements."}
	for _, p := range prompts {
		level := nodeRE.FindStringSubmatch(p)[2]
		if !strings.Contains(p, "(at most 64 are run;") {
			t.Errorf("%s prompt does not state the turn limit", level)
		}
		if w, ok := want[level]; ok != strings.Contains(p, "You may add at most") || ok && !strings.Contains(p, w) {
			t.Errorf("%s prompt: cap stated wrongly:\n%s", level, p)
		}
	}
}

type modelFunc func(context.Context, llm.Request) (llm.Response, error)

func (f modelFunc) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	return f(ctx, req)
}

// failedOrPending is the report's incomplete nodes but those left only with
// defects (the flooders' elements overlap).
func failedOrPending(r Report) []NodeResult {
	var out []NodeResult
	for _, n := range r.Incomplete() {
		if n.Status != event.StatusDefects {
			out = append(out, n)
		}
	}
	return out
}
