package compose_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/compose"
)

// Loading checks every whiteboard file: resolved, inside the folder, not
// the lesson, not another slide's.
func BenchmarkLoadFileBoards(b *testing.B) {
	path := writeFileBoards(b, 2000)
	for b.Loop() {
		if _, err := compose.Load(path, testRegistry()); err != nil {
			b.Fatal(err)
		}
	}
}

// The full check stats every input and output once (2,000 whiteboard
// files: ~6,000 stats); Render runs it once per output, not per checkpoint.
func BenchmarkCheckOutputFileBoards(b *testing.B) {
	d, err := compose.Load(writeFileBoards(b, 2000), testRegistry())
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

// Loading a lesson whose whiteboard files are all still to be created:
// each is resolved as a file to create (compare BenchmarkLoadFileBoards).
func BenchmarkLoadNewFileBoards(b *testing.B) {
	path := writeFileBoards(b, 2000)
	if err := os.RemoveAll(filepath.Join(filepath.Dir(path), "boards", "")); err != nil {
		b.Fatal(err)
	}
	mkfile(b, filepath.Join(filepath.Dir(path), "boards", ".keep"), "")
	for b.Loop() {
		if _, err := compose.Load(path, testRegistry()); err != nil {
			b.Fatal(err)
		}
	}
}

// writeFileBoards writes a lesson of n slides, each with its whiteboard
// in its own file, and returns the lesson's path.
func writeFileBoards(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	var sb strings.Builder
	sb.WriteString("version: 1\nmetadata:\n  title: T\nslides:\n")
	for i := range n {
		fmt.Fprintf(&sb, "  - id: s%d\n    title: S\n    whiteboard: {file: boards/s%d.yaml}\n", i, i)
		mkfile(b, filepath.Join(dir, "boards", fmt.Sprintf("s%d.yaml", i)), "heading: H\n")
	}
	path := filepath.Join(dir, "lesson.yaml")
	mkfile(b, path, sb.String())
	return path
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
