package render

import (
	"bytes"
	"cmp"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"slices"

	"github.com/lessongen/lessongen/internal/imagefile"
)

// MaxShotBytes bounds a screenshot as a review turn sends it: every later
// request of the subagent repeats the picture, base64 in a data URL (4/3
// of these bytes), so this keeps it at 40 KB there.
const MaxShotBytes = 30 << 10

// shotColors are the palette sizes compactShot tries, in order: a board
// is flat fills, lines and anti-aliased text, so its most frequent colours
// hold every fill and most of each text's edge shades; fewer shades cost
// fewer bytes and soften the edges a little, still sharp enough to read.
var shotColors = []int{256, 64, 16}

// compactShot re-encodes a screenshot as a palette PNG of at most
// MaxShotBytes: the picture keeps its colours (a contrast check reads
// them) and its text stays sharp, at a fraction of the bytes of full
// colour (JPEG costs more on a board and blurs its text). A board busy
// enough to stay larger with the fewest colours (a photograph on it) is
// drawn smaller until it fits.
func compactShot(data []byte) ([]byte, error) {
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	b := img.Bounds()
	scaled := toRGBA(img)
	for scale := 1.0; ; {
		colors := byFrequency(scaled)
		size := 0
		for _, n := range shotColors {
			var buf bytes.Buffer
			enc := png.Encoder{CompressionLevel: png.BestCompression}
			if err := enc.Encode(&buf, paletted(scaled, colors[:min(n, len(colors))])); err != nil {
				return nil, fmt.Errorf("screenshot: %w", err)
			}
			if size = buf.Len(); size <= MaxShotBytes || scaled.Rect.Dx() == 1 && scaled.Rect.Dy() == 1 {
				return buf.Bytes(), nil
			}
		}
		// Bytes go with the pixels: aim under the bound in one step.
		scale *= min(0.9*math.Sqrt(float64(MaxShotBytes)/float64(size)), 0.9)
		w, h := max(int(float64(b.Dx())*scale), 1), max(int(float64(b.Dy())*scale), 1)
		scaled = toRGBA(imagefile.Scale(img, b, w, h))
	}
}

func toRGBA(img image.Image) *image.RGBA {
	if rgba, ok := img.(*image.RGBA); ok {
		return rgba
	}
	b := img.Bounds()
	rgba := image.NewRGBA(b)
	draw.Draw(rgba, b, img, b.Min, draw.Src)
	return rgba
}

// byFrequency lists img's colours, the most frequent first, ties by value:
// the same picture, the same bytes.
func byFrequency(img *image.RGBA) []color.RGBA {
	count := map[color.RGBA]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			count[img.RGBAAt(x, y)]++
		}
	}
	colors := make([]color.RGBA, 0, len(count))
	for c := range count {
		colors = append(colors, c)
	}
	key := func(c color.RGBA) uint32 { return uint32(c.R)<<24 | uint32(c.G)<<16 | uint32(c.B)<<8 | uint32(c.A) }
	slices.SortFunc(colors, func(a, c color.RGBA) int {
		if n := cmp.Compare(count[c], count[a]); n != 0 {
			return n
		}
		return cmp.Compare(key(a), key(c))
	})
	return colors
}

// paletted is img in the palette colors, each other colour drawn as the
// nearest of them (no dithering: dots around text would cost bytes and
// sharpness).
func paletted(img *image.RGBA, colors []color.RGBA) *image.Paletted {
	pal := make(color.Palette, len(colors))
	for i, c := range colors {
		pal[i] = c
	}
	b := img.Bounds()
	out := image.NewPaletted(b, pal)
	index := map[color.RGBA]uint8{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := img.RGBAAt(x, y)
			i, ok := index[c]
			if !ok {
				i = uint8(pal.Index(c))
				index[c] = i
			}
			out.SetColorIndex(x, y, i)
		}
	}
	return out
}
