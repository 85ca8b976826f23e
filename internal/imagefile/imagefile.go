// Package imagefile is the one place a picture file is judged: the types
// a lesson may show, the limits on its size (file bytes, pixels a side,
// bytes once decoded), and the check of its bytes — every entry (an
// image's src:, place_image from --sources, an image model's answer under
// --images) goes through Check, and a listing through Header. A raster
// picture is decoded whole to be checked, but only after its header has
// said it fits the budget, so no file can make a decode ask for more
// memory than MaxDecodedBytes. An SVG is parsed, never drawn: see svg.go.
package imagefile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	_ "image/jpeg" // the picture formats a lesson may show
	"image/png"
	"io"
	"net/http"
	"strings"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp"
)

// MaxBytes is the largest picture file a lesson may show, from the
// sources or beside the lesson: every picture is embedded in the HTML
// page, so a few of this size still make a page that opens quickly.
const MaxBytes = 5 << 20

// MaxSide is the most pixels a picture may have across or down: a slide
// at twice its canvas is 2560 pixels wide, so a larger picture only
// costs memory and time. MaxDecodedBytes bounds the memory one decoded
// picture may take (pixels times the bytes Go's decoder keeps for its
// colour type: 32 megapixels in 8-bit colour, a 10000×10000 grey): a
// 5 MB file can declare far more pixels than it holds, so the header is
// checked against both before anything is decoded.
const (
	MaxSide         = 10000
	MaxDecodedBytes = 128 << 20
)

// Types are the picture files a lesson may show, by extension, with the
// type their bytes must have.
var Types = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
	".gif": "image/gif", ".webp": "image/webp", ".svg": "image/svg+xml",
}

// SVG is the type of an SVG picture, which is parsed, never decoded.
const SVG = "image/svg+xml"

// Check says whether data is a picture of type want by its bytes, not its
// name: at most MaxBytes; a raster picture within the pixel limits that
// decodes whole, with nothing after its end; an SVG that draws only
// itself (CheckSVG).
func Check(data []byte, want string) error {
	if len(data) > MaxBytes {
		return fmt.Errorf("is larger than %d MB; make the picture smaller", MaxBytes>>20)
	}
	if want == SVG {
		return CheckSVG(data)
	}
	if _, err := decode(data, want); err != nil {
		return err
	}
	return nil
}

// Header reads a raster picture's pixel size from its first bytes,
// checking its type and the limits but not its pixels: what a listing
// needs. An SVG's size is its root's width and height, or its viewBox.
func Header(r io.Reader, want string) (w, h int, err error) {
	if want == SVG {
		return svgSize(io.LimitReader(r, 64<<10))
	}
	head := make([]byte, 512)
	n, _ := io.ReadFull(r, head)
	head = head[:n]
	if err := checkType(head, want); err != nil {
		return 0, 0, err
	}
	c, _, err := image.DecodeConfig(io.MultiReader(bytes.NewReader(head), r))
	if err != nil {
		return 0, 0, fmt.Errorf("is not a readable picture: %v", err)
	}
	if err := fits(c, want, head); err != nil {
		return 0, 0, err
	}
	return c.Width, c.Height, nil
}

// Decode decodes a raster picture within the limits, for a writer that
// must draw its pixels itself (the PowerPoint deck).
func Decode(data []byte) (image.Image, error) {
	return decode(data, http.DetectContentType(data))
}

func checkType(head []byte, want string) error {
	if got := http.DetectContentType(head); got != want {
		return fmt.Errorf("is not a %s picture by its contents (it reads as %s)", strings.TrimPrefix(want, "image/"), got)
	}
	return nil
}

// decode checks data's type and header, then decodes it whole: a
// truncated file, or one that is a header and then something else, is
// refused here, not in a viewer.
func decode(data []byte, want string) (image.Image, error) {
	if err := checkType(data, want); err != nil {
		return nil, err
	}
	c, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("is not a readable picture: %v", err)
	}
	if err := fits(c, want, data); err != nil {
		return nil, err
	}
	r := &countingReader{r: bytes.NewReader(data)}
	var img image.Image
	switch want {
	case "image/png":
		img, err = png.Decode(r)
	case "image/gif":
		// Only the first frame is decoded (as a viewer first shows it);
		// the rest are walked to find the end.
		img, err = gif.Decode(r)
		if err == nil {
			r.n, err = gifEnd(data)
		}
	default:
		img, _, err = image.Decode(r)
	}
	if err != nil {
		return nil, fmt.Errorf("is not a readable picture: %v", err)
	}
	if end := fileEnd(data, want, r.n); end < len(data) {
		return nil, fmt.Errorf("has %d bytes after the end of the picture; save it again from a picture editor", len(data)-end)
	}
	return img, nil
}

// fileEnd is where a picture of type mime ends by its own structure, so
// anything after it is not picture: a PNG's IEND chunk (read is how far
// the decoder read), a GIF's trailer, a WebP's RIFF length. A JPEG's
// end is not checked: cameras often leave bytes after it.
func fileEnd(data []byte, mime string, read int) int {
	switch mime {
	case "image/png", "image/gif":
		return read
	case "image/webp":
		if len(data) >= 8 {
			n := int(binary.LittleEndian.Uint32(data[4:8])) + 8
			return n + n%2 // a RIFF chunk is padded to an even length
		}
	}
	return len(data)
}

// fits refuses a picture whose header declares more than the limits
// allow, naming its size and the limit.
func fits(c image.Config, mime string, data []byte) error {
	if c.Width <= 0 || c.Height <= 0 {
		return fmt.Errorf("is %d×%d pixels: a picture has at least one pixel", c.Width, c.Height)
	}
	if c.Width > MaxSide || c.Height > MaxSide {
		return fmt.Errorf("is %d×%d pixels; a picture may be at most %d pixels a side: scale it down", c.Width, c.Height, MaxSide)
	}
	need := int64(c.Width) * int64(c.Height) * bytesPerPixel(c.ColorModel, mime, data)
	if need > MaxDecodedBytes {
		return fmt.Errorf("is %d×%d pixels, %d MB once decoded; a picture may take at most %d MB: scale it down", c.Width, c.Height, need>>20, MaxDecodedBytes>>20)
	}
	return nil
}

// bytesPerPixel is what Go's decoder allocates per pixel for a picture
// of colour model m; unknown models count as the largest.
func bytesPerPixel(m color.Model, mime string, data []byte) int64 {
	n := int64(8)
	switch m {
	case color.GrayModel:
		n = 1
	case color.Gray16Model:
		n = 2
	case color.YCbCrModel:
		n = 3
	case color.RGBAModel, color.NRGBAModel, color.NYCbCrAModel:
		n = 4
	case color.CMYKModel: // decoded as YCbCr and black, then converted
		n = 8
	}
	if _, ok := m.(color.Palette); ok {
		n = 1
	}
	switch {
	case mime == "image/jpeg" && progressiveJPEG(data):
		n += 4 * 4 // a progressive JPEG also holds an int32 per pixel per component (at most 4)
	case mime == "image/png" && len(data) > 28 && data[28] == 1:
		n *= 2 // an interlaced PNG is read as seven passes, then copied whole
	}
	return n
}

// progressiveJPEG reports whether the JPEG's frame header is a
// progressive one, by walking its segments to the first frame header.
func progressiveJPEG(data []byte) bool {
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xFF {
			return false
		}
		m := data[i+1]
		switch {
		case m == 0xFF: // fill byte
			i++
			continue
		case m == 0xC2 || m == 0xC6 || m == 0xCA || m == 0xCE:
			return true
		case m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC, m == 0xDA:
			return false
		}
		i += 2 + int(binary.BigEndian.Uint16(data[i+2:]))
	}
	return false
}

// gifEnd walks a GIF's blocks to the byte after its trailer.
func gifEnd(data []byte) (int, error) {
	errShort := errors.New("the GIF ends before its trailer")
	if len(data) < 13 {
		return 0, errShort
	}
	table := func(flags byte) int {
		if flags&0x80 == 0 {
			return 0
		}
		return 3 << ((flags & 7) + 1)
	}
	i := 13 + table(data[10])
	subBlocks := func() bool {
		for i < len(data) {
			n := int(data[i])
			i += 1 + n
			if n == 0 {
				return true
			}
		}
		return false
	}
	for i < len(data) {
		switch data[i] {
		case 0x21: // extension: label, then sub-blocks
			i += 2
		case 0x2C: // image: descriptor, local table, code size, sub-blocks
			if i+10 > len(data) {
				return 0, errShort
			}
			i += 10 + table(data[i+9]) + 1
		case 0x3B:
			return i + 1, nil
		default:
			return 0, fmt.Errorf("the GIF has an unknown block 0x%02x", data[i])
		}
		if !subBlocks() {
			return 0, errShort
		}
	}
	return 0, errShort
}

// countingReader counts what a decoder read, to find where a picture
// ended; it is a ByteReader so the GIF decoder reads no further ahead.
type countingReader struct {
	r *bytes.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func (c *countingReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

// Scale is the part src of img, scaled down to at most w×h pixels
// keeping its aspect (never up); img itself when that is all of it. A
// large reduction halves first (at exactly half, a bilinear sample is
// the average of 2×2 pixels, and costs a quarter of the pixels), then
// takes one bilinear step of less than two: a bilinear kernel over a
// whole 100-megapixel picture takes seconds.
func Scale(img image.Image, src image.Rectangle, w, h int) image.Image {
	s := min(float64(w)/float64(src.Dx()), float64(h)/float64(src.Dy()), 1)
	if s == 1 && src == img.Bounds() {
		return img
	}
	dw, dh := max(int(float64(src.Dx())*s+0.5), 1), max(int(float64(src.Dy())*s+0.5), 1)
	for src.Dx() >= 2*dw && src.Dy() >= 2*dh {
		half := image.NewRGBA(image.Rect(0, 0, src.Dx()/2, src.Dy()/2))
		draw.ApproxBiLinear.Scale(half, half.Bounds(), img, src, draw.Src, nil)
		img, src = half, half.Bounds()
	}
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	if src.Size() == dst.Rect.Size() {
		draw.Draw(dst, dst.Bounds(), img, src.Min, draw.Src)
	} else {
		draw.BiLinear.Scale(dst, dst.Bounds(), img, src, draw.Src, nil)
	}
	return dst
}
