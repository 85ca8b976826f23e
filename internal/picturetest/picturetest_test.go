package picturetest

import (
	"bytes"
	"image"
	"image/png"
	"testing"
)

// TestSolidPNGIsWhole: the repeated deflate block makes a PNG that Go's
// own decoder reads to its end, every pixel black.
func TestSolidPNGIsWhole(t *testing.T) {
	for _, s := range [][2]int{{1, 1}, {300, 200}, {1500, 1200}, {3000, 1000}} {
		img, err := png.Decode(bytes.NewReader(SolidPNG(s[0], s[1])))
		if err != nil {
			t.Fatalf("%v: %v", s, err)
		}
		g, ok := img.(*image.Gray)
		if !ok || g.Bounds().Dx() != s[0] || g.Bounds().Dy() != s[1] || bytes.ContainsFunc(g.Pix, func(r rune) bool { return r != 0 }) {
			t.Errorf("%v: decoded %T %v", s, img, img.Bounds())
		}
	}
	if n := len(SolidPNG(30000, 30000)); n > 1<<20 {
		t.Errorf("a 30000×30000 solid PNG is %d bytes, want under 1 MB", n)
	}
	if n := len(HeaderPNG(65535, 65535)); n >= 70 {
		t.Errorf("the header PNG is %d bytes", n)
	}
}
