package render_test

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lessongen/lessongen/internal/picturetest"
)

// pictureLesson is one board with a 2:1 picture twice: contained in a 4:3
// box, and covering a square one.
const pictureLesson = `version: 1
metadata:
  title: Pictures
slides:
  - id: leaves
    title: Leaves
    whiteboard:
      heading: Leaves
      elements:
        - id: contained
          type: image
          src: leaf.png
          alt: a leaf, whole
          credit: Ann Example
          licence: CC BY 4.0
          x: 100
          y: 200
          w: 400
          h: 318
        - id: covered
          type: image
          src: leaf.png
          fit: cover
          alt: a leaf, filling its box
          x: 700
          y: 200
          w: 300
          h: 300
`

// TestBrowserPicture opens a lesson with src: pictures in a real browser
// and measures, from a screenshot of each picture's box, where the picture
// is drawn: contain shows all of it at its 2:1 aspect, letterboxed;
// cover fills the box with its centre, half red and half blue.
func TestBrowserPicture(t *testing.T) {
	ctx := newBrowser(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "leaf.png"), picturetest.TwoColourPNG(400, 200), 0o644); err != nil {
		t.Fatal(err)
	}
	lesson := filepath.Join(dir, "lesson.yaml")
	if err := os.WriteFile(lesson, []byte(pictureLesson), 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "lesson.html")
	if err := os.WriteFile(page, renderHTML(t, lesson), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page)); err != nil {
		t.Fatal(err)
	}
	shot := func(name, sel string) image.Image {
		t.Helper()
		s := chromedp.CSS(sel)
		if err := chromedp.Do(ctx, chromedp.ScrollIntoView(s)); err != nil {
			t.Fatal(err)
		}
		data, err := chromedp.Run(ctx, chromedp.Screenshot(s))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(shotDir(t), "picture-"+name+".png"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		return img
	}

	// The whole slide, to look at.
	slide, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#slide-leaves")))
	if err == nil {
		err = os.WriteFile(filepath.Join(shotDir(t), "picture-slide.png"), slide, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}

	// contain: the picture spans the box's width and 2/3 of its height
	// (400x200 in 400x300), centred.
	img := shot("contain", `image[aria-label^="a leaf, whole"]`)
	b := img.Bounds()
	drawn, red, _ := colouredBox(img)
	if got := float64(drawn.Dx()) / float64(drawn.Dy()); got < 1.9 || got > 2.1 {
		t.Errorf("contain: picture drawn %v in a %v box, aspect %.2f, want 2:1", drawn, b, got)
	}
	if drawn.Dx() < b.Dx()*95/100 || drawn.Min.Y < b.Dy()/8 || drawn.Max.Y > b.Dy()*7/8 {
		t.Errorf("contain: picture drawn %v in a %v box, want the full width, letterboxed top and bottom", drawn, b)
	}
	if red < 0.45 || red > 0.55 {
		t.Errorf("contain: %.2f of the picture is red, want half", red)
	}

	// cover: the picture fills the box; its centre (half red, half blue) shows.
	img = shot("cover", `image[aria-label^="a leaf, filling"]`)
	b = img.Bounds()
	drawn, red, _ = colouredBox(img)
	if drawn.Dx() < b.Dx()*95/100 || drawn.Dy() < b.Dy()*95/100 {
		t.Errorf("cover: picture drawn %v in a %v box, want the whole box", drawn, b)
	}
	if red < 0.45 || red > 0.55 {
		t.Errorf("cover: %.2f of the box is red, want half (the picture's centre)", red)
	}
}

// colouredBox is the bounding box of the picture's red and blue pixels in
// a screenshot, and the share of them that are red.
func colouredBox(img image.Image) (box image.Rectangle, red float64, n int) {
	var reds int
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			isRed, isBlue := r>>8 > 150 && g>>8 < 90 && bl>>8 < 90, bl>>8 > 150 && r>>8 < 90 && g>>8 < 90
			if !isRed && !isBlue {
				continue
			}
			n++
			if isRed {
				reds++
			}
			box = box.Union(image.Rect(x, y, x+1, y+1))
		}
	}
	if n == 0 {
		return box, 0, 0
	}
	return box, float64(reds) / float64(n), n
}
