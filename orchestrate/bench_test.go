package orchestrate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
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
	wall, _, _ := runMeasured(b, model, slides, concurrency)
	return wall
}

// runMeasured is runOnce that also returns the process's CPU time and
// its threads' run-queue wait (runqWait) over the run alone.
func runMeasured(b *testing.B, model llm.Model, slides, concurrency int) (wall, cpu, wait time.Duration) {
	b.StopTimer()
	doc, err := compose.Load(writeLesson(b, slides, ""), testRegistry())
	if err != nil {
		b.Fatal(err)
	}
	opts := options(b, model, concurrency)
	b.StartTimer()
	start, c0, w0 := time.Now(), cpuTime(), runqWait()
	report, err := Run(context.Background(), doc, Scope{}, opts)
	wall, cpu, wait = time.Since(start), cpuTime()-c0, runqWait()-w0
	if err != nil || len(report.Incomplete()) > 0 {
		b.Fatalf("run: %v %+v", err, report.Incomplete())
	}
	return wall, cpu, wait
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
// each iteration and reports the ratio of their wall times (issue #28:
// at least 7.5 at 100 ms), and the wall time at 8 over the best any
// schedule can do (at most 1.1). What the run at 8 waits for beyond that
// bound is CPU: its own (cpu-ms@8, the process's, fake server and client
// included) and the time its threads sat runnable in the kernel's run
// queue while other processes had the cores (runq-wait-ms@8, summed over
// threads; Linux only). On a shared machine the second dwarfs the first.
//
//	go test ./orchestrate -run '^$' -bench 'GenerateSpeedup/latency=100ms' -benchtime 3x -count 5
//
// model=inproc answers in process after the same latency (the tests'
// solver, no HTTP, no JSON): what is left over the bound there is the
// orchestration's own.
func BenchmarkGenerateSpeedup(b *testing.B) {
	const slides, chain = 16, 2
	for _, latency := range []time.Duration{benchLatency, 100 * time.Millisecond} {
		for _, inproc := range []bool{false, true} {
			name := fmt.Sprintf("latency=%s", latency)
			if inproc {
				name += "/model=inproc"
			}
			b.Run(name, func(b *testing.B) {
				var model llm.Model = sleepyModel{newSolver(), latency}
				if !inproc {
					model = benchModel(b, fakellm.Start(b, boardScript(latency)))
				}
				var one, eight, cpu, wait time.Duration
				for b.Loop() {
					one += runOnce(b, model, slides, 1)
					wall, c, w := runMeasured(b, model, slides, 8)
					eight, cpu, wait = eight+wall, cpu+c, wait+w
				}
				n := time.Duration(b.N)
				bound := max(chain, slides*chain/8) * latency
				b.ReportMetric(float64(one)/float64(eight), "speedup")
				b.ReportMetric(float64(eight/n)/float64(bound), "wall/critical-path-bound@8")
				b.ReportMetric(float64(cpu/n)/1e6, "cpu-ms@8")
				b.ReportMetric(float64(wait/n)/1e6, "runq-wait-ms@8")
			})
		}
	}
}

// sleepyModel answers as model does, after latency.
type sleepyModel struct {
	llm.Model
	latency time.Duration
}

func (m sleepyModel) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	time.Sleep(m.latency)
	return m.Model.Complete(ctx, req)
}

// runqWait is how long this process's threads have waited, runnable, for
// a core (the second field of each thread's /proc schedstat); 0 where
// there is no such file.
func runqWait() time.Duration {
	var total int64
	files, _ := filepath.Glob("/proc/self/task/*/schedstat")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if fields := strings.Fields(string(data)); len(fields) > 1 {
			n, _ := strconv.ParseInt(fields[1], 10, 64)
			total += n
		}
	}
	return time.Duration(total)
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
