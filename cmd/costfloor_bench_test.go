package cmd

// The cost floor as a user pays it (issue #39): `lessongen generate` run
// as the binary runs it (Run, with the state folder on disk beside the
// lesson and the checkpointer of the default interval), against the fake
// server in this process. scripts/costfloor.sh runs these.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lessongen/lessongen/internal/atomicfile"
	"github.com/lessongen/lessongen/internal/fakellm"
	"github.com/lessongen/lessongen/internal/statedir"
)

// costLesson writes a lesson of n slides, each with a finished inline
// whiteboard but for `pending` ones spread through it.
func costLesson(b testing.TB, n, pending int) string {
	b.Helper()
	var s strings.Builder
	s.WriteString("# A generated lesson for the cost-floor benchmarks.\nversion: 1\nmetadata:\n  title: Big\n  subject: biology\n  objectives: [Explain it]\nslides:\n")
	every := max(1, n/max(1, pending))
	for i := range n {
		fmt.Fprintf(&s, "  - id: s%d\n    title: Slide %d\n    section: Explore\n    duration_minutes: 1\n    notes: Talk about slide %d.\n", i, i, i)
		if i%every == 0 && i/every < pending {
			fmt.Fprintf(&s, "    whiteboard: !pending \"board %d\"\n\n", i)
			continue
		}
		fmt.Fprintf(&s, `    whiteboard:
      heading: Board %d
      elements:
        - {id: a, type: text, text: "Point A", x: 40, y: 140, w: 300, h: 40}
        - {id: b, type: shape, shape: rect, x: 400, y: 140, w: 200, h: 100, label: B}
        - {id: c, type: arrow, from: a, to: b}

`, i)
	}
	dir := b.TempDir()
	path := filepath.Join(dir, "lesson.yaml")
	if err := os.WriteFile(path, []byte(s.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// costScript answers each board's two levels in one turn each, every node
// ending done: a run of b boards is 2b requests.
func costScript(latency time.Duration) fakellm.Script {
	return fakellm.Script{Latency: fakellm.Duration(latency), Rules: []fakellm.Rule{
		{Match: []string{"whiteboard.metadata"}, Turns: []fakellm.Turn{{ToolCalls: []fakellm.FakeCall{
			{Name: "set_heading", Arguments: `{"heading":"H"}`},
			{Name: "set_layout", Arguments: `{"layout":"L"}`},
		}}}},
		{Match: []string{"whiteboard.node"}, Turns: []fakellm.Turn{{ToolCalls: []fakellm.FakeCall{
			{Name: "add_text", Arguments: `{"x":40,"y":140,"w":300,"h":40,"text":"T"}`},
		}}}},
	}}
}

// procIO reads this process's /proc/self/io: write_bytes, what it sent
// to the disk (counted as pages are dirtied, so the bytes of files, not
// of the sockets to the fake server), and cancelled_write_bytes, what it
// took back by removing or truncating files before they reached it.
func procIO(b testing.TB) (written, cancelled int64) {
	f, err := os.Open("/proc/self/io")
	if err != nil {
		b.Skipf("no /proc/self/io: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ": ")
		n, _ := strconv.ParseInt(v, 10, 64)
		switch k {
		case "write_bytes":
			written = n
		case "cancelled_write_bytes":
			cancelled = n
		}
	}
	return written, cancelled
}

// rusageCPU is the CPU time this process has used, user and system.
func rusageCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// costRun is one measured `generate`.
type costRun struct {
	requests int
	// written is what the process wrote to disk during the run (lesson,
	// journal and state folder); final the lesson's size at the end,
	// state the state folder's.
	written, final, state int64
	// syncs counts the fsyncs, fileSyncs them by file, mostSyncs those
	// of the file with the most.
	syncs, mostSyncs int64
	fileSyncs        map[string]int64
	cpu, wall        time.Duration
}

// runFloor runs `generate path --checkpoint-interval interval` as a user
// does and measures it.
func runFloor(b testing.TB, srv *fakellm.Server, path string, interval time.Duration) costRun {
	b.Helper()
	var out, errOut bytes.Buffer
	before := srv.RequestCount()
	w0, c0 := procIO(b)
	s0, cpu0, start := atomicfile.Syncs(), rusageCPU(), time.Now()
	code := Run(context.Background(), []string{"generate", path, "--checkpoint-interval", interval.String()},
		&IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	var r costRun
	r.wall, r.cpu = time.Since(start), rusageCPU()-cpu0
	r.fileSyncs = map[string]int64{}
	for file, n := range atomicfile.Syncs() {
		if n -= s0[file]; n > 0 {
			r.fileSyncs[file] = n
			r.syncs += n
			r.mostSyncs = max(r.mostSyncs, n)
		}
	}
	w1, c1 := procIO(b)
	if code != ExitOK {
		b.Fatalf("generate: exit %d\n%s", code, errOut.String())
	}
	r.written = (w1 - w0) - (c1 - c0)
	r.requests = srv.RequestCount() - before
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	r.final = fi.Size()
	filepath.WalkDir(filepath.Join(filepath.Dir(path), statedir.Name), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				r.state += fi.Size()
			}
		}
		return nil
	})
	return r
}

func floorEnv(b testing.TB, srv *fakellm.Server) {
	b.Setenv("LESSONGEN_API_KEY", fakellm.DummyAPIKey)
	b.Setenv("LESSONGEN_BASE_URL", srv.URL())
	b.Setenv("LESSONGEN_MODEL", "fake")
	b.Setenv("XDG_CONFIG_HOME", b.TempDir())
}

// BenchmarkCostFloor runs `generate` on a lesson with a state folder, as
// a user does, and reports, each over the run:
//
//   - written/final: the bytes the process wrote to disk (lesson, journal,
//     state folder: /proc/self/io write_bytes) over the lesson's final
//     size; state/final the state folder's size at the end over it, and
//     written/(final+state) what was written over all it left: issue
//     #39 asks at most 2 at any run length and interval, no file
//     rewritten whole as it grows;
//
//   - fsyncs/run: every fsync lessongen made (atomicfile.Syncs), and
//     fsyncs/file/run those of the file with the most; issue #39: at most
//     one per file per checkpoint interval the run lasted, plus the end
//     (intervals+1/run prints that bound);
//
//   - cpu-ms/req: the process's CPU time (getrusage; the fake server's
//     included) per model request.
//
//     go test ./cmd -run '^$' -bench CostFloor -benchtime 1x -count 5
func BenchmarkCostFloor(b *testing.B) {
	srv := fakellm.Start(b, costScript(20*time.Millisecond))
	floorEnv(b, srv)
	for _, c := range []struct {
		slides, boards int
		interval       time.Duration
	}{
		{2000, 20, time.Second}, {2000, 400, time.Second}, {2000, 400, 0}, {20, 20, time.Second},
	} {
		b.Run(fmt.Sprintf("slides=%d/boards=%d/interval=%v", c.slides, c.boards, c.interval), func(b *testing.B) {
			var sum costRun
			var budget float64
			for b.Loop() {
				b.StopTimer()
				path := costLesson(b, c.slides, c.boards)
				// The page cache is written back before the run: what the
				// run dirties is then counted whole.
				syscall.Sync()
				b.StartTimer()
				r := runFloor(b, srv, path, c.interval)
				sum.written += r.written
				sum.final += r.final
				sum.state += r.state
				sum.syncs += r.syncs
				sum.mostSyncs += r.mostSyncs
				sum.requests += r.requests
				sum.cpu += r.cpu
				if c.interval > 0 {
					budget += float64(r.wall/c.interval) + 1
				} else {
					budget += float64(r.requests) + 1 // one per node at interval 0
				}
			}
			n := float64(b.N)
			b.ReportMetric(float64(sum.written)/float64(sum.final), "written/final")
			b.ReportMetric(float64(sum.state)/float64(sum.final), "state/final")
			b.ReportMetric(float64(sum.written)/float64(sum.final+sum.state), "written/(final+state)")
			b.ReportMetric(float64(sum.syncs)/n, "fsyncs/run")
			b.ReportMetric(float64(sum.mostSyncs)/n, "fsyncs/file/run")
			b.ReportMetric(budget/n, "intervals+1/run")
			b.ReportMetric(float64(sum.cpu.Milliseconds())/float64(sum.requests), "cpu-ms/req")
			b.ReportMetric(float64(sum.requests)/n, "req/run")
		})
	}
}
