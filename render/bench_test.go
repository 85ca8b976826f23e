package render_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/render"
)

// bigLesson writes a lesson of n slides, each with a whiteboard of five
// elements (text, shapes, an arrow, an equation) and a one-question quiz.
func bigLesson(b testing.TB, n int) string {
	b.Helper()
	var s strings.Builder
	s.WriteString("version: 1\nmetadata:\n  title: Big\n  duration_minutes: 45\nslides:\n")
	for i := range n {
		fmt.Fprintf(&s, `  - id: s%d
    title: Slide %d
    section: Explore
    duration_minutes: 1
    notes: Talk about slide %d.
    whiteboard:
      elements:
        - {id: t, type: text, x: 40, y: 40, w: 1200, h: 120, text: "A heading that wraps onto a second line when the box is narrow enough, number %d"}
        - {id: a, type: shape, shape: rect, x: 40, y: 300, w: 300, h: 150, label: Inputs}
        - {id: b, type: shape, shape: ellipse, x: 800, y: 300, w: 300, h: 150, label: Outputs}
        - {id: ab, type: arrow, from: a, to: b, label: becomes}
        - {id: eq, type: equation, x: 300, y: 520, w: 600, h: 120, latex: "6CO_2 + 6H_2O \\to C_6H_{12}O_6"}
    quiz:
      questions:
        - {id: q1, prompt: "Which one?", answers: [this], distractors: [that, other]}
`, i, i, i, i)
	}
	path := filepath.Join(b.TempDir(), "lesson.yaml")
	if err := os.WriteFile(path, []byte(s.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkValidate is what `lessongen validate` does: load every part.
// BenchmarkRender loads the same and draws it; the ratio of the two is
// render's cost over validate's.
//
//	go test ./render/ -run '^$' -bench 'Validate|Render' -count 5
func BenchmarkValidate(b *testing.B) {
	for _, n := range []int{200, 2000} {
		b.Run(fmt.Sprintf("slides=%d", n), func(b *testing.B) {
			path, reg := bigLesson(b, n), registry(b)
			for b.Loop() {
				load(b, path, reg)
			}
		})
	}
}

func BenchmarkRender(b *testing.B) {
	for _, n := range []int{200, 2000} {
		b.Run(fmt.Sprintf("slides=%d", n), func(b *testing.B) {
			path, reg := bigLesson(b, n), registry(b)
			for b.Loop() {
				if err := render.HTML(io.Discard, load(b, path, reg), reg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
