package render

import (
	"bytes"
	"context"
	"image/png"
	"strings"
	"testing"
	"time"
)

// TestShotDrawsBoardAtCanvasSize screenshots a board's SVG in a real
// browser: a PNG the canvas's size, scaled down past MaxShotSide.
func TestShotDrawsBoardAtCanvasSize(t *testing.T) {
	path, err := FindBrowser("")
	if err != nil {
		t.Skipf("skipping the real-browser screenshot: %v", err)
	}
	s := NewShooter(path)
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, c := range []struct {
		viewBox string
		w, h    int
	}{{"0 0 640 360", 640, 360}, {"0 0 2560 1440", 1280, 720}} {
		body := `<svg class="whiteboard" viewBox="` + c.viewBox + `" xmlns="http://www.w3.org/2000/svg"><rect x="0" y="0" width="100%" height="100%" fill="#ff0000"/></svg>`
		data, err := s.Shot(ctx, body)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("not a PNG: %v", err)
		}
		if b := img.Bounds(); b.Dx() != c.w || b.Dy() != c.h {
			t.Errorf("viewBox %s: shot is %dx%d, want %dx%d", c.viewBox, b.Dx(), b.Dy(), c.w, c.h)
		}
		// The board fills the shot: its middle is the canvas's red.
		if r, g, _, _ := img.At(c.w/2, c.h/2).RGBA(); r>>8 < 250 || g>>8 > 5 {
			t.Errorf("viewBox %s: the middle of the shot is not the board", c.viewBox)
		}
	}
}

// TestShotDrawsPageFragment: a fragment that is not a board (a quiz, an
// activity) is drawn a page column wide and as tall as it is, up to
// MaxShotSide, not cut to a board's viewport nor left blank.
func TestShotDrawsPageFragment(t *testing.T) {
	path, err := FindBrowser("")
	if err != nil {
		t.Skipf("skipping the real-browser screenshot: %v", err)
	}
	s := NewShooter(path)
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, c := range []struct {
		items, minH, maxH int
	}{{3, 100, 400}, {400, MaxShotSide, MaxShotSide}} {
		body := "<section class=\"quiz\">\n<ol class=\"questions\">\n" + strings.Repeat("<li class=\"question\">How many halves make a whole?</li>\n", c.items) + "</ol>\n</section>"
		data, err := s.Shot(ctx, body)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("not a PNG: %v", err)
		}
		b := img.Bounds()
		if b.Dx() != ShotPageWidth || b.Dy() < c.minH || b.Dy() > c.maxH {
			t.Errorf("%d questions: shot is %dx%d, want %d wide and %d to %d tall", c.items, b.Dx(), b.Dy(), ShotPageWidth, c.minH, c.maxH)
		}
		dark := 0
		for y := b.Min.Y; y < b.Max.Y; y += 2 {
			for x := b.Min.X; x < b.Max.X; x += 2 {
				if r, _, _, _ := img.At(x, y).RGBA(); r>>8 < 128 {
					dark++
				}
			}
		}
		if dark == 0 {
			t.Errorf("%d questions: the shot has no text", c.items)
		}
	}
}
