//go:build unix

package whiteboard

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/picturetest"
	"github.com/lessongen/lessongen/internal/pptx"
)

// TestPictureSrcRefusesHostileFiles: a src that is a picture bomb, a
// header with nothing after it, or a hard link (which may lead to a file
// outside the folder, as the sources sandbox says) is refused at load,
// naming the file and what is wrong.
func TestPictureSrcRefusesHostileFiles(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "lesson")
	must(t, os.Mkdir(dir, 0o755))
	outside := filepath.Join(base, "secret.png")
	writePNG(t, outside, 40, 20)
	for _, c := range []struct {
		name string
		make func(path string)
		want string
	}{
		{"hard link", func(p string) { must(t, os.Link(outside, p)) }, `src "leaf.png": has 2 hard links and is not read`},
		{"65535×65535 header", func(p string) { must(t, os.WriteFile(p, picturetest.HeaderPNG(65535, 65535), 0o644)) },
			`src "leaf.png": is 65535×65535 pixels; a picture may be at most 10000 pixels a side: scale it down`},
		{"30000×30000 picture", func(p string) { must(t, os.WriteFile(p, picturetest.SolidPNG(30000, 30000), 0o644)) },
			`src "leaf.png": is 30000×30000 pixels; a picture may be at most 10000 pixels a side`},
		{"truncated", func(p string) { must(t, os.WriteFile(p, picturetest.TwoColourPNG(40, 20)[:69], 0o644)) },
			`src "leaf.png": is not a readable picture`},
	} {
		p := filepath.Join(dir, "leaf.png")
		os.Remove(p)
		c.make(p)
		b, ps := decodeIn(t, dir, strings.Replace(pictureBoard, "%s", "contain", 1))
		if err := ps.Err(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		if e, _ := b.Element("leaf"); e.picture != nil {
			t.Errorf("%s: the picture was kept", c.name)
		}
	}
}

// TestPicturePPTXScalesToTheSlide: a picture far larger than its box is
// embedded at twice the box's canvas size, not at its own.
func TestPicturePPTXScalesToTheSlide(t *testing.T) {
	dir := t.TempDir()
	writePNG(t, filepath.Join(dir, "leaf.png"), 1800, 900)
	m := newMapper(Canvas{Width: 1280, Height: 720}, pptx.Box{W: 1280, H: 720})
	for fit, want := range map[string][2]int{"contain": {800, 400}, "cover": {800, 600}} {
		b, ps := decodeIn(t, dir, strings.Replace(pictureBoard, "%s", fit, 1))
		if ps.Err() != nil {
			t.Fatal(ps)
		}
		e, _ := b.Element("leaf")
		g, ok := e.picturePPTX(m, e.box()).(*pptx.Group)
		if !ok {
			t.Fatalf("%s: no picture on the slide", fit)
		}
		img, err := png.Decode(bytes.NewReader(g.Shapes[0].(*pptx.Pic).PNG))
		if err != nil || img.Bounds().Dx() != want[0] || img.Bounds().Dy() != want[1] {
			t.Errorf("%s: embedded %v (%v), want %v", fit, img.Bounds(), err, want)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
