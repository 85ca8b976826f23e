package sources

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A folder of 50 chapters of 40 KB each (2 MB in all): one search and one
// full read of a chapter, the calls a subagent makes most.
func benchFolder(b *testing.B) *Sandbox {
	dir := b.TempDir()
	line := strings.Repeat("plants turn light into sugar in their leaves ", 2) + "\n"
	for i := range 50 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("ch%02d.md", i)), []byte(strings.Repeat(line, 40_000/len(line))), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	s, err := Open([]string{dir})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Close)
	return s
}

func BenchmarkSearch(b *testing.B) {
	s := benchFolder(b)
	for b.Loop() {
		if _, _, e := s.Search(`chloro\w+`, 0); e != nil {
			b.Fatal(e)
		}
	}
}

func BenchmarkRead(b *testing.B) {
	s := benchFolder(b)
	for b.Loop() {
		if _, e := s.Read("ch07.md", 0, 0); e != nil {
			b.Fatal(e)
		}
	}
}

// BenchmarkList is list_sources over the same folder: every entry is
// stat'ed through the root (symlinks resolved, hard links counted).
func BenchmarkList(b *testing.B) {
	s := benchFolder(b)
	for b.Loop() {
		listed(s)
	}
}
