package sources

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/lessongen/lessongen/internal/picturetest"
)

// list_images over 100 pictures of 1600×1200 (8 KB PNGs): each is
// described from its header, never decoded whole.
func BenchmarkImages(b *testing.B) {
	dir := b.TempDir()
	png := picturetest.TwoColourPNG(1600, 1200)
	for i := range 100 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%03d.png", i)), png, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	s, err := Open([]string{dir})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for b.Loop() {
		if l := s.Images(); len(l.Images) != 100 {
			b.Fatalf("listed %d", len(l.Images))
		}
	}
}
