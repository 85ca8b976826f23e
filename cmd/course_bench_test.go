package cmd

import (
	"fmt"
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
