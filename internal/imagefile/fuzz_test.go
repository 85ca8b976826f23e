package imagefile

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"testing"

	"github.com/lessongen/lessongen/internal/picturetest"
)

// FuzzCheck: no bytes make the check panic or let through a picture past
// the limits, nor make the deck's drawing of a checked SVG panic.
func FuzzCheck(f *testing.F) {
	var g, j bytes.Buffer
	gif.Encode(&g, image.NewPaletted(image.Rect(0, 0, 4, 4), color.Palette{color.Black, color.White}), nil)
	jpeg.Encode(&j, image.NewGray(image.Rect(0, 0, 8, 8)), nil)
	for _, seed := range [][]byte{picturetest.TwoColourPNG(4, 2), picturetest.HeaderPNG(20, 20), g.Bytes(), j.Bytes(),
		[]byte(`<svg xmlns="http://www.w3.org/2000/svg"><style>.a{fill:url(#b)}</style><rect class="a" style="stroke:red"/></svg>`)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, mime := range []string{"image/png", "image/gif", "image/jpeg", "image/webp", SVG} {
			if Check(data, mime) != nil {
				continue
			}
			if mime == SVG {
				// A checked SVG is drawn for the deck: an error at
				// worst, never a panic.
				if img, err := RasterizeSVG(data, 16, 8); err == nil && img.Bounds() != image.Rect(0, 0, 16, 8) {
					t.Fatalf("SVG drawn at %v, want 16×8", img.Bounds())
				}
				continue
			}
			c, _, err := image.DecodeConfig(bytes.NewReader(data))
			if err != nil || c.Width > MaxSide || c.Height > MaxSide {
				t.Fatalf("%s passed with config %+v (%v)", mime, c, err)
			}
		}
	})
}
