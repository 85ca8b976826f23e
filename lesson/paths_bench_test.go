package lesson_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/lesson"
)

// The full check stats every input and output once (2,000 whiteboard
// files: ~6,000 stats); Render runs it once per output, not per checkpoint.
func BenchmarkCheckOutputFileBoards(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("version: 1\nmetadata:\n  title: T\nslides:\n")
	files := map[string]string{}
	for i := range 2000 {
		fmt.Fprintf(&sb, "  - id: s%d\n    title: S\n    whiteboard: {file: boards/s%d.yaml}\n", i, i)
		files[fmt.Sprintf("boards/s%d.yaml", i)] = "heading: H\n"
	}
	files["lesson.yaml"] = sb.String()
	dir := b.TempDir()
	for name, c := range files {
		p := filepath.Join(dir, name)
		mkfile(b, p, c)
	}
	d, err := lesson.Load(filepath.Join(dir, "lesson.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(b.TempDir(), "l.yaml")
	b.ResetTimer()
	for b.Loop() {
		if err := d.CheckOutput(out); err != nil {
			b.Fatal(err)
		}
	}
}

func mkfile(b *testing.B, p, c string) {
	b.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
		b.Fatal(err)
	}
}
