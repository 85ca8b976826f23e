package imagefile_test

import (
	"image/color"
	"testing"

	"github.com/lessongen/lessongen/internal/imagefile"
)

// An SVG that passed the check is drawn at the size asked; one the drawer
// cannot size or read is an error, never a panic or a huge picture.
func TestRasterizeSVG(t *testing.T) {
	good := []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10"><rect width="20" height="10" fill="#3070c0"/></svg>`)
	img, err := imagefile.RasterizeSVG(good, 40, 20)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 40 || b.Dy() != 20 {
		t.Errorf("drawn %v, want 40×20", b)
	}
	if c := color.RGBAModel.Convert(img.At(20, 10)).(color.RGBA); c != (color.RGBA{0x30, 0x70, 0xc0, 0xff}) {
		t.Errorf("the middle is %v, want the rect's #3070c0", c)
	}
	if w, h, err := imagefile.SVGSize(good); err != nil || w != 20 || h != 10 {
		t.Errorf("size %v×%v (%v), want 20×10", w, h, err)
	}
	for name, svg := range map[string]string{
		"no size":      `<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5"/></svg>`,
		"zero viewBox": `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 0 0"/>`,
		"bad viewBox":  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1e999 5"/>`,
		"not xml":      `<svg`,
		"bad path":     `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 5 5"><path d="M 1 1 L Q Z z 9e999 x"/></svg>`,
		"deep":         `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 5 5">` + deep(2000) + `</svg>`,
	} {
		if img, err := imagefile.RasterizeSVG([]byte(svg), 10, 10); err == nil && img.Bounds().Dx() != 10 {
			t.Errorf("%s: drawn %v", name, img.Bounds())
		}
	}
	if _, err := imagefile.RasterizeSVG(good, imagefile.MaxSide+1, 10); err == nil {
		t.Error("a picture over MaxSide was drawn")
	}
}

func deep(n int) string {
	s := ""
	for range n {
		s += `<g transform="scale(2)">`
	}
	s += `<rect width="1" height="1"/>`
	for range n {
		s += `</g>`
	}
	return s
}
