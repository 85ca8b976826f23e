package whiteboard

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/picturetest"
	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/internal/textfit"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/modality"
)

// writePNG writes a w×h two-colour PNG (see picturetest) to path.
func writePNG(t *testing.T, path string, w, h int) []byte {
	t.Helper()
	data := picturetest.TwoColourPNG(w, h)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return data
}

// decodeIn decodes a whiteboard as if read from a file in dir.
func decodeIn(t *testing.T, dir, src string) (*Board, yamlsrc.Problems) {
	t.Helper()
	s, err := yamlsrc.Parse("wb.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r := &yamlsrc.Reporter{File: filepath.Join(dir, "wb.yaml")}
	return Decode(s.Root, r, "whiteboard"), r.Problems
}

const pictureBoard = `heading: Leaves
elements:
  - id: leaf
    type: image
    src: leaf.png
    fit: %s
    alt: a leaf
    credit: Ann
    x: 100
    y: 120
    w: 400
    h: 318
`

func TestPictureEmbeddedInRender(t *testing.T) {
	dir := t.TempDir()
	data := writePNG(t, filepath.Join(dir, "leaf.png"), 400, 200)
	for fit, aspect := range map[string]string{"contain": "xMidYMid meet", "cover": "xMidYMid slice"} {
		b, ps := decodeIn(t, dir, strings.Replace(pictureBoard, "%s", fit, 1))
		if ps.Err() != nil {
			t.Fatal(ps)
		}
		out := Render(b, nil)
		want := `<image x="100" y="120" width="400" height="300" preserveAspectRatio="` + aspect + `" role="img" aria-label="a leaf" href="` +
			(&picture{mime: "image/png", data: data}).dataURI() + `"><title>a leaf</title></image>`
		if !strings.Contains(out.Body, want) {
			t.Errorf("%s: no embedded picture in\n%.600s", fit, out.Body)
		}
		if !strings.Contains(out.Body, ">Ann</tspan>") && !strings.Contains(out.Body, ">Ann</text>") {
			t.Errorf("%s: credit not drawn under the picture", fit)
		}
		if want := []modality.Credit{{Picture: "a leaf", File: "leaf.png", Credit: "Ann"}}; !slices.Equal(out.Credits, want) {
			t.Errorf("%s: credits = %+v, want %+v", fit, out.Credits, want)
		}
	}
}

func TestPicturePPTXFitsLikeThePage(t *testing.T) {
	dir := t.TempDir()
	writePNG(t, filepath.Join(dir, "leaf.png"), 400, 200)
	m := newMapper(Canvas{Width: 1280, Height: 720}, pptx.Box{W: 1280, H: 720}) // 1 EMU per px
	for _, c := range []struct {
		fit        string
		box        pptx.Box
		imgW, imgH int
	}{
		// contain: 400x200 in 400x300 is 400x200, centred 50 px down
		{"contain", pptx.Box{X: 100, Y: 170, W: 400, H: 200}, 400, 200},
		// cover: the box filled; the picture's centre cut to 4:3
		{"cover", pptx.Box{X: 100, Y: 120, W: 400, H: 300}, 267, 200},
	} {
		b, ps := decodeIn(t, dir, strings.Replace(pictureBoard, "%s", c.fit, 1))
		if ps.Err() != nil {
			t.Fatal(ps)
		}
		e, _ := b.Element("leaf")
		g, ok := e.picturePPTX(m, e.box()).(*pptx.Group)
		if !ok {
			t.Fatalf("%s: no picture on the slide", c.fit)
		}
		pic := g.Shapes[0].(*pptx.Pic)
		if pic.Box != c.box || pic.Descr != "a leaf" {
			t.Errorf("%s: picture at %+v (%q), want %+v", c.fit, pic.Box, pic.Descr, c.box)
		}
		img, err := png.Decode(bytes.NewReader(pic.PNG))
		if err != nil || img.Bounds().Dx() != c.imgW || img.Bounds().Dy() != c.imgH {
			t.Errorf("%s: embedded picture %v (%v), want %dx%d", c.fit, img.Bounds(), err, c.imgW, c.imgH)
		}
	}
}

func TestFitPictureCoverKeepsCentre(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 300, 100))
	img.Set(150, 50, color.RGBA{G: 255, A: 255})
	got, box := fitPicture(img, textfit.Box{W: 100, H: 100}, true)
	if got.Bounds().Dx() != 100 || got.Bounds().Dy() != 100 || box.W != 100 {
		t.Fatalf("cover crop %v into %+v", got.Bounds(), box)
	}
	if _, g, _, _ := got.At(50, 50).RGBA(); g == 0 {
		t.Error("cover cropped away the picture's centre")
	}
}
