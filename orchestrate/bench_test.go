package orchestrate

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/fakellm"
	"github.com/lessongen/lessongen/llm"
)

// benchLatency is the fake server's answer time for every request.
const benchLatency = 20 * time.Millisecond

// boardScript completes any pending whiteboard in two subagents of one
// tool turn each (the turn leaves nothing pending, so the subagent ends):
// two requests in a row per whiteboard. The text turns are never asked for.
func boardScript(latency time.Duration) fakellm.Script {
	done := fakellm.Turn{Content: "Done."}
	return fakellm.Script{Latency: fakellm.Duration(latency), Rules: []fakellm.Rule{
		{Match: []string{"whiteboard.metadata"}, Turns: []fakellm.Turn{{ToolCalls: []fakellm.FakeCall{
			{Name: "set_heading", Arguments: `{"heading":"H"}`},
			{Name: "set_layout", Arguments: `{"layout":"L"}`},
		}}, done}},
		{Match: []string{"whiteboard.node"}, Turns: []fakellm.Turn{{ToolCalls: []fakellm.FakeCall{
			{Name: "add_text", Arguments: `{"x":10,"y":130,"w":300,"h":40,"text":"T"}`},
		}}, done}},
	}}
}

func benchModel(b testing.TB, srv *fakellm.Server) llm.Model {
	m, err := llm.New(llm.Config{BaseURL: srv.URL(), APIKey: fakellm.DummyAPIKey, Model: "fake", Limiter: llm.NewLimiter(0, 8)})
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// busyModel adds up the time requests are in flight: the time subagent
// slots spend waiting on the model.
type busyModel struct {
	llm.Model
	busy atomic.Int64
}

func (m *busyModel) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	start := time.Now()
	resp, err := m.Model.Complete(ctx, req)
	m.busy.Add(int64(time.Since(start)))
	return resp, err
}

// runOnce generates a fresh lesson of n slides and returns the wall time.
func runOnce(b *testing.B, model llm.Model, slides, concurrency int) time.Duration {
	b.StopTimer()
	doc, err := compose.Load(writeLesson(b, slides, ""), testRegistry())
	if err != nil {
		b.Fatal(err)
	}
	opts := options(b, model, concurrency)
	b.StartTimer()
	start := time.Now()
	report, err := Run(context.Background(), doc, Scope{}, opts)
	elapsed := time.Since(start)
	if err != nil || len(report.Incomplete()) > 0 {
		b.Fatalf("run: %v %+v", err, report.Incomplete())
	}
	return elapsed
}

// BenchmarkGenerate16 generates a 16-slide lesson whose whiteboards are all
// pending, against a fake server with a fixed latency, at concurrency 1, 4
// and 8. "wall/critical-path" compares the wall time with the longest
// chain of requests (2 per whiteboard); "wall/critical-path-bound" with the
// best any schedule can do with that many subagents in flight: the longer
// of that chain and all requests spread evenly over the slots.
// "slot-busy" is the share of the slots' time spent with a request in
// flight.
//
// The 20 ms latency makes the run's own cost per request (the HTTP round
// trip to a server in the same process, encoding, dispatch: about 2-3 ms
// on two shared cores) a large share; real models answer a tool turn in a
// second or more, so the 200 ms case is nearer what a user sees.
func BenchmarkGenerate16(b *testing.B) {
	const slides, chain = 16, 2
	for _, run := range []struct {
		c       int
		latency time.Duration
	}{{1, benchLatency}, {4, benchLatency}, {8, benchLatency}, {8, 10 * benchLatency}} {
		name := fmt.Sprintf("concurrency=%d", run.c)
		if run.latency != benchLatency {
			name += fmt.Sprintf("/latency=%s", run.latency)
		}
		c, latency := run.c, run.latency
		b.Run(name, func(b *testing.B) {
			srv := fakellm.Start(b, boardScript(latency))
			model := &busyModel{Model: benchModel(b, srv)}
			var total time.Duration
			for b.Loop() {
				total += runOnce(b, model, slides, c)
			}
			per := total / time.Duration(b.N)
			critical := chain * latency
			bound := max(critical, time.Duration(slides*chain/c)*latency)
			b.ReportMetric(float64(per)/float64(critical), "wall/critical-path")
			b.ReportMetric(float64(per)/float64(bound), "wall/critical-path-bound")
			b.ReportMetric(float64(model.busy.Load())/float64(total*time.Duration(c)), "slot-busy")
		})
	}
}

// BenchmarkGenerateUneven generates a lesson whose chains differ: 12
// slides with only their boards' elements pending (one subagent each),
// then 2 with whole boards pending (two each), at concurrency 8. Any
// schedule needs two rounds of requests; started in document order, the
// long chains' second subagents need a third.
func BenchmarkGenerateUneven(b *testing.B) {
	const short, long, c = 12, 2, 8
	var y strings.Builder
	y.WriteString("version: 1\nmetadata:\n  title: Uneven\nslides:\n")
	for i := range short + long {
		fmt.Fprintf(&y, "  - id: s%d\n    title: Slide %d\n", i, i)
		if i < short {
			y.WriteString("    whiteboard:\n      heading: H\n      layout: L\n      elements: !pending \"one label\"\n")
		} else {
			y.WriteString("    whiteboard: !pending \"a board\"\n")
		}
	}
	srv := fakellm.Start(b, boardScript(benchLatency))
	model := &busyModel{Model: benchModel(b, srv)}
	var total time.Duration
	for b.Loop() {
		b.StopTimer()
		doc := loadSrc(b, y.String())
		opts := options(b, model, c)
		b.StartTimer()
		start := time.Now()
		report, err := Run(context.Background(), doc, Scope{}, opts)
		total += time.Since(start)
		if err != nil || len(report.Incomplete()) > 0 || len(report.Nodes) != short+2*long {
			b.Fatalf("run: %v %+v", err, report.Nodes)
		}
	}
	bound := max(2, (short+2*long)/c) * benchLatency
	b.ReportMetric(float64(total/time.Duration(b.N))/float64(bound), "wall/critical-path-bound")
	b.ReportMetric(float64(model.busy.Load())/float64(total*c), "slot-busy")
}

// BenchmarkGenerateSpeedup runs the same lesson at concurrency 1 and 8 in
// each iteration and reports the ratio of their wall times.
func BenchmarkGenerateSpeedup(b *testing.B) {
	srv := fakellm.Start(b, boardScript(benchLatency))
	model := benchModel(b, srv)
	var one, eight time.Duration
	for b.Loop() {
		one += runOnce(b, model, 16, 1)
		eight += runOnce(b, model, 16, 8)
	}
	b.ReportMetric(float64(one)/float64(eight), "speedup")
}

// BenchmarkPromptBytes fills one slide of a 16- and a 1000-slide lesson and
// reports what its whiteboard subagents sent: the message text and the
// whole request bodies (tools included). Context is the describe chain, not
// the document, so both should be about the same.
func BenchmarkPromptBytes(b *testing.B) {
	for _, slides := range []int{16, 1000} {
		b.Run(fmt.Sprintf("slides=%d", slides), func(b *testing.B) {
			srv := fakellm.Start(b, boardScript(0))
			model := benchModel(b, srv)
			var prompt, body, subagents int
			for b.Loop() {
				b.StopTimer()
				doc, err := compose.Load(writeLesson(b, slides, ""), testRegistry())
				if err != nil {
					b.Fatal(err)
				}
				before := srv.RequestCount()
				b.StartTimer()
				report, err := Run(context.Background(), doc, Scope{Slide: "s5"}, options(b, model, 1))
				if err != nil {
					b.Fatal(err)
				}
				for _, n := range report.Nodes {
					prompt += n.PromptBytes
					subagents++
				}
				for _, r := range srv.Requests()[before:] {
					body += len(r.Body)
				}
			}
			b.ReportMetric(float64(prompt)/float64(subagents), "prompt-bytes/subagent")
			b.ReportMetric(float64(body)/float64(subagents), "request-bytes/subagent")
		})
	}
}
