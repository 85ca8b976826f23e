package cmd

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// finishedLesson writes a lesson of n slides with nothing pending, each
// with an inline whiteboard.
func finishedLesson(b *testing.B, n int) string {
	b.Helper()
	var s strings.Builder
	s.WriteString("version: 1\nmetadata:\n  title: Big\n  subject: biology\n  objectives: [Explain it]\nslides:\n")
	for i := range n {
		fmt.Fprintf(&s, `  - id: s%d
    title: Slide %d
    section: Explore
    duration_minutes: 1
    notes: Talk about slide %d.
    whiteboard:
      heading: Board %d
      elements:
        - {id: a, type: text, text: "Point A", x: 40, y: 140, w: 300, h: 40}
        - {id: b, type: shape, shape: rect, x: 400, y: 140, w: 200, h: 100, label: B}
        - {id: c, type: arrow, from: a, to: b}
`, i, i, i, i)
	}
	path := filepath.Join(b.TempDir(), "lesson.yaml")
	if err := os.WriteFile(path, []byte(s.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkNoopGenerate runs `validate` and `generate` on a finished
// 2,000-slide lesson, in turns, and reports generate's time over
// validate's, wall and CPU (issues #10, #39: at most 1.1), and the
// bytes generate wrote (none: the lesson is not rewritten).
//
//	go test ./cmd -run '^$' -bench NoopGenerate -benchtime 10x -count 5
func BenchmarkNoopGenerate(b *testing.B) {
	path := finishedLesson(b, 2000)
	// No key is needed: a finished lesson asks no model anything.
	b.Setenv("LESSONGEN_API_KEY", "unused")
	before, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	// CPU time as well as wall: on a busy machine the wall clock measures
	// the neighbours.
	exec := func(args ...string) (wall, cpu time.Duration) {
		var out, errOut bytes.Buffer
		start, cpu0 := time.Now(), rusageCPU()
		if code := Run(context.Background(), args, &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}); code != 0 {
			b.Fatalf("%v: exit %d\n%s", args, code, errOut.String())
		}
		return time.Since(start), rusageCPU() - cpu0
	}
	var validate, generate, validateCPU, generateCPU time.Duration
	for b.Loop() {
		w, c := exec("validate", path)
		validate, validateCPU = validate+w, validateCPU+c
		w, c = exec("generate", path)
		generate, generateCPU = generate+w, generateCPU+c
	}
	after, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	written := 0.0
	if !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		written = float64(after.Size())
	}
	b.ReportMetric(float64(generate)/float64(validate), "generate/validate")
	b.ReportMetric(float64(generateCPU)/float64(validateCPU), "cpu-generate/validate")
	b.ReportMetric(written, "bytes-written")
}
