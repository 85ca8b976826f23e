package statedir

// Check walks the whole state folder before a run; these measure it on a
// 2000-slide lesson's history against a bare walk of the same tree.

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func BenchmarkCheck2000Slides(b *testing.B) {
	dir := filepath.Join(b.TempDir(), ".lessongen", "lesson.yaml")
	for i := 0; i < 2000; i++ {
		d := filepath.Join(dir, "history", "slides", fmt.Sprint("s", i), "whiteboard")
		os.MkdirAll(d, 0o755)
		for _, l := range []string{"whiteboard.metadata.jsonl", "whiteboard.node.jsonl"} {
			os.WriteFile(filepath.Join(d, l), []byte("{}\n"), 0o644)
		}
	}
	os.WriteFile(filepath.Join(dir, "notes.jsonl"), nil, 0o644)
	b.ResetTimer()
	for range b.N {
		if err := Check(dir); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWalkOnly(b *testing.B) {
	dir := filepath.Join(b.TempDir(), ".lessongen", "lesson.yaml")
	for i := 0; i < 2000; i++ {
		d := filepath.Join(dir, "history", "slides", fmt.Sprint("s", i), "whiteboard")
		os.MkdirAll(d, 0o755)
		for _, l := range []string{"whiteboard.metadata.jsonl", "whiteboard.node.jsonl"} {
			os.WriteFile(filepath.Join(d, l), []byte("{}\n"), 0o644)
		}
	}
	b.ResetTimer()
	for range b.N {
		n := 0
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error { n++; return nil })
	}
}
