package orchestrate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/fakellm"
)

// checkpointLesson writes a lesson of n slides, each with a finished inline
// whiteboard, but for pending ones on `pending` slides spread through it.
func checkpointLesson(t testing.TB, n, pending int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("# A generated lesson for checkpoint benchmarks.\nversion: 1\nmetadata:\n  title: Big\n  subject: biology\nslides:\n")
	every := max(1, n/max(1, pending))
	for i := range n {
		fmt.Fprintf(&b, "  - id: s%d\n    title: Slide %d\n    section: Explore\n    duration_minutes: 1\n    notes: Talk about slide %d.\n", i, i, i)
		if i%every == 0 && i/every < pending {
			fmt.Fprintf(&b, "    whiteboard: !pending \"board %d\"\n\n", i)
			continue
		}
		fmt.Fprintf(&b, `    whiteboard:
      heading: Board %d
      elements:
        - {id: a, type: text, text: "Point A", x: 40, y: 140, w: 300, h: 40}
        - {id: b, type: shape, shape: rect, x: 400, y: 140, w: 200, h: 100, label: B}
        - {id: c, type: arrow, from: a, to: b}
        - id: d
          type: equation
          x: 40
          y: 400
          w: 600
          h: 80
          latex: E = mc^2

`, i)
	}
	path := filepath.Join(t.TempDir(), "lesson.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// savedRun is one generation as lessongen runs it: checkpoints through a
// compose.Saver and a journal, then the final save.
type savedRun struct {
	requests int
	// written counts the bytes of every rewrite of the lesson file (seen
	// as a new inode or modification time after each save); journal the
	// bytes appended to the journal; final is the lesson's size at the end.
	written, journal, final int64
	cpu                     time.Duration
	// gc is the garbage collector's share of cpu (runtime/metrics).
	gc time.Duration
}

// cleanBoardScript is boardScript with the text below the heading band,
// so every node ends done and the run's requests are the same each time.
func cleanBoardScript(latency time.Duration) fakellm.Script {
	s := boardScript(latency)
	s.Rules[1].Turns[0].ToolCalls[0].Arguments = `{"x":40,"y":140,"w":300,"h":40,"text":"T"}`
	return s
}

// saverLesson is the lesson file as cmd hands it to the journal.
type saverLesson struct{ s *compose.Saver }

func (l saverLesson) Sum() string  { return l.s.LessonSum("") }
func (l saverLesson) Edited() bool { return l.s.LessonEdited() }

func runSaved(b *testing.B, srv *fakellm.Server, path string, interval time.Duration) savedRun {
	b.Helper()
	doc, err := compose.Load(path, testRegistry())
	if err != nil {
		b.Fatal(err)
	}
	saver := compose.NewSaver(doc)
	var r savedRun
	last, _ := os.Stat(path)
	count := func() {
		if fi, err := os.Stat(path); err == nil && (!os.SameFile(fi, last) || !fi.ModTime().Equal(last.ModTime())) {
			r.written += fi.Size()
			last = fi
		}
	}
	opts := options(b, benchModel(b, srv), 4) // the default --concurrency
	opts.Checkpoint = func(lesson bool) ([]string, error) {
		defer count()
		save := saver.SaveChildren
		if lesson {
			save = saver.Save
		}
		files, err := save("")
		return nil, errorsOf(files, err)
	}
	opts.CheckpointInterval = interval
	opts.Journal = NewJournal(b.TempDir(), saverLesson{saver}, nil)
	before := srv.RequestCount()
	start, gcStart := cpuTime(), gcTime()
	report, err := Run(context.Background(), doc, Scope{}, opts)
	if err != nil || len(report.Incomplete()) > 0 {
		b.Fatalf("run: %v %+v", err, report.Incomplete())
	}
	if _, err := saver.Save(""); err != nil {
		b.Fatal(err)
	}
	r.cpu, r.gc = cpuTime()-start, gcTime()-gcStart
	count()
	r.final = last.Size()
	r.journal = opts.Journal.Written()
	r.requests = srv.RequestCount() - before
	return r
}

func errorsOf(_ []compose.OutFile, err error) error { return err }

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// gcTime is the CPU time the garbage collector has used so far.
func gcTime() time.Duration {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64 {
		return 0
	}
	return time.Duration(s[0].Value.Float64() * float64(time.Second))
}

// BenchmarkCheckpointBytes generates the pending whiteboards of a lesson
// (server latency 20 ms, concurrency 4 as by default) with the
// checkpoints and final save of a real run: in a 2,000-slide lesson a
// short run (20 boards) and a long one (400), and a 20-slide lesson whose
// every board is pending (the journal then weighs most), each at the
// default interval and at 0. It
// reports the bytes written to the lesson file over its final size
// (written/final), the journal's (journal/final) and both
// (total/final); issue #28: at most 2 for any run length.
//
//	go test ./orchestrate -run '^$' -bench CheckpointBytes -benchtime 1x -count 5
func BenchmarkCheckpointBytes(b *testing.B) {
	srv := fakellm.Start(b, cleanBoardScript(benchLatency))
	for _, size := range []struct{ slides, boards int }{{2000, 20}, {2000, 400}, {20, 20}} {
		for _, interval := range []time.Duration{time.Second, 0} {
			b.Run(fmt.Sprintf("slides=%d/boards=%d/interval=%v", size.slides, size.boards, interval), func(b *testing.B) {
				var written, journal, final int64
				var wall time.Duration
				for b.Loop() {
					b.StopTimer()
					path := checkpointLesson(b, size.slides, size.boards)
					b.StartTimer()
					start := time.Now()
					r := runSaved(b, srv, path, interval)
					wall += time.Since(start)
					written += r.written
					journal += r.journal
					final += r.final
				}
				b.ReportMetric(float64(written)/float64(final), "written/final")
				b.ReportMetric(float64(journal)/float64(final), "journal/final")
				b.ReportMetric(float64(written+journal)/float64(final), "total/final")
				b.ReportMetric(wall.Seconds()/float64(b.N), "run-s")
			})
		}
	}
}

// BenchmarkCheckpointCPU generates 20 pending whiteboards in a 200- and a
// 2,000-slide lesson, as BenchmarkCheckpointBytes, and reports the CPU
// time per model request of each run (load excluded; checkpoints, final
// save, the fake server and the client included) and their ratio
// (issue #10: at most 1.3).
//
//	go test ./orchestrate -run '^$' -bench CheckpointCPU -count 5
func BenchmarkCheckpointCPU(b *testing.B) {
	srv := fakellm.Start(b, cleanBoardScript(benchLatency))
	var per, gc [2]float64
	for b.Loop() {
		for i, n := range []int{200, 2000} {
			b.StopTimer()
			path := checkpointLesson(b, n, 20)
			b.StartTimer()
			r := runSaved(b, srv, path, time.Second)
			per[i] += float64(r.cpu) / float64(r.requests)
			gc[i] += float64(r.gc) / float64(r.requests)
		}
	}
	b.ReportMetric(per[0]/float64(b.N)/1e6, "cpu-ms/req@200")
	b.ReportMetric(per[1]/float64(b.N)/1e6, "cpu-ms/req@2000")
	b.ReportMetric(per[1]/per[0], "cpu/req-2000:200")
	// The collector's share: it marks the whole loaded lesson, so it
	// grows with it whatever a checkpoint costs.
	b.ReportMetric((per[1]-gc[1])/(per[0]-gc[0]), "non-gc-cpu/req-2000:200")
}
