package cmd

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"time"

	"github.com/lessongen/lessongen/internal/fakellm"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeBenchCourse writes a course of n lessons, each of slides slides
// with a pending whiteboard, and half of them with pending vocabulary.
func writeBenchCourse(b *testing.B, n, slides int) string {
	dir := b.TempDir()
	files := map[string]string{}
	var course strings.Builder
	course.WriteString("version: 1\ncourse:\n  title: A long unit\n  outcomes: [Know it all]\nlessons:\n")
	for i := range n {
		name := fmt.Sprintf("lessons/%02d.yaml", i+1)
		fmt.Fprintf(&course, "  - {file: %s}\n", name)
		var l strings.Builder
		fmt.Fprintf(&l, "version: 1\nmetadata:\n  title: Lesson %d\n  objectives: [Explain idea %d]\n", i+1, i+1)
		if i%2 == 0 {
			fmt.Fprintf(&l, "  vocabulary:\n    - {term: term%d, definition: what term %d means}\n", i, i)
		} else {
			l.WriteString("  vocabulary: !pending\n")
		}
		l.WriteString("slides:\n")
		for s := range slides {
			fmt.Fprintf(&l, "  - id: s%d\n    title: Slide %d\n    notes: Say it.\n    whiteboard: !pending \"a diagram of idea %d\"\n", s, s, s)
		}
		files[name] = l.String()
	}
	files["course.yaml"] = course.String()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return filepath.Join(dir, "course.yaml")
}

// BenchmarkCoursePlan plans a whole course as plan and generate do (load
// and check every lesson, each lesson's steps with the course above its
// chain): its cost per lesson should not grow with the course.
func BenchmarkCoursePlan(b *testing.B) {
	reg, err := Registry()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{5, 20} {
		b.Run(fmt.Sprintf("lessons=%d", n), func(b *testing.B) {
			file := writeBenchCourse(b, n, 20)
			b.ResetTimer()
			for b.Loop() {
				p, err := planCourse(file, &generateOptions{io: &IOStreams{}, reg: reg})
				if err != nil || len(p.Lessons) != n {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/lesson")
		})
	}
}

// BenchmarkCourseFlight runs `generate` on a course of 20 lessons
// against the fake server answering after
// latency, and reports how long after the run's start every lesson had
// its first request in flight (all-ms), and the whole run (run-ms),
// medians of the runs.
// waits=none: every lesson's metadata written, so no lesson waits for
// another (what is left is each lesson's own preparation); waits=chain:
// half the lessons with their vocabulary pending, so each lesson waits
// for the metadata level of the pending one before it (course.Waits).
func BenchmarkCourseFlight(b *testing.B) {
	for _, waits := range []string{"none", "chain"} {
		b.Run("waits="+waits, func(b *testing.B) { benchCourseFlight(b, waits == "chain") })
	}
}

func benchCourseFlight(b *testing.B, chain bool) {
	const n, latency = 20, 80 * time.Millisecond
	var all, runs []float64
	for b.Loop() {
		b.StopTimer()
		var file string
		if chain {
			file = writeBenchCourse(b, n, 1)
		} else {
			file = flightCourse(b, b.TempDir(), n)
		}
		script := costScript(latency)
		script.Rules = append(script.Rules, fakellm.Rule{Match: []string{"lesson.metadata"}, Turns: []fakellm.Turn{{ToolCalls: []fakellm.FakeCall{
			{Name: "set_vocabulary", Arguments: `{"terms":[{"term":"t","definition":"what t means"}]}`}}}}})
		srv := fakellm.Start(b, script)
		b.Setenv("LESSONGEN_BASE_URL", srv.URL())
		b.Setenv("LESSONGEN_API_KEY", fakellm.DummyAPIKey)
		b.Setenv("LESSONGEN_MODEL", "m")
		b.Setenv("XDG_CONFIG_HOME", filepath.Join(filepath.Dir(file), ".config"))
		b.StartTimer()
		start := time.Now()
		var errOut bytes.Buffer
		code := Run(context.Background(), []string{"generate", file, "--concurrency", fmt.Sprint(n)},
			&IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: &errOut})
		wall := time.Since(start)
		if code != 0 {
			b.Fatalf("exit %d:\n%s", code, errOut.String())
		}
		first := map[string]time.Time{}
		for _, r := range srv.Requests() {
			m := regexp.MustCompile(`titled \\"(Lesson \d+)\\"`).FindSubmatch(r.Body)
			if m != nil && first[string(m[1])].IsZero() {
				first[string(m[1])] = r.Time
			}
		}
		if len(first) != n {
			b.Fatalf("%d of %d lessons sent a request", len(first), n)
		}
		var last time.Time
		for _, t := range first {
			if t.After(last) {
				last = t
			}
		}
		all = append(all, float64(last.Sub(start).Milliseconds()))
		runs = append(runs, float64(wall.Milliseconds()))
	}
	b.ReportMetric(median(all), "all-ms")
	b.ReportMetric(median(runs), "run-ms")
}

// median is the middle of xs (the mean of the two middle ones).
func median(xs []float64) float64 {
	slices.Sort(xs)
	return (xs[(len(xs)-1)/2] + xs[len(xs)/2]) / 2
}
