package render

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestCompactShotFitsEveryPicture: a picture of noise, the worst case for
// a palette (a photograph on a board), still comes out a PNG of at most
// MaxShotBytes, drawn smaller, with its aspect.
func TestCompactShotFitsEveryPicture(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 640, 360))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = uint8(r.IntN(256))
		if i%4 == 3 {
			img.Pix[i] = 255
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	out, err := compactShot(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	got, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if len(out) > MaxShotBytes {
		t.Errorf("%d bytes, want at most %d", len(out), MaxShotBytes)
	}
	if b := got.Bounds(); b.Dx() >= 640 || abs(b.Dx()*360-b.Dy()*640) > 640 {
		t.Errorf("drawn %dx%d: want smaller, at 16:9", b.Dx(), b.Dy())
	}
}

func abs(n int) int { return max(n, -n) }

// TestShotOfBusyBoardIsSmall draws a board busy with coloured text in a
// real browser: the picture a review turn sends fits MaxShotBytes at full
// size, and keeps the board's exact colours (a contrast check reads them).
func TestShotOfBusyBoardIsSmall(t *testing.T) {
	path, err := FindBrowser("")
	if err != nil {
		t.Skipf("skipping the real-browser screenshot: %v", err)
	}
	s := NewShooter(path)
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var body strings.Builder
	body.WriteString(`<svg class="whiteboard" viewBox="0 0 1280 720" xmlns="http://www.w3.org/2000/svg"><rect width="1280" height="720" fill="#ffffff"/>`)
	fills := []string{"#fff3d6", "#dbeafe", "#dcfce7", "#fde2e2"}
	for i := range 24 {
		x, y := 40+(i%4)*305, 40+(i/4)*110
		fmt.Fprintf(&body, `<rect x="%d" y="%d" width="290" height="96" fill="%s" stroke="#1f2937" stroke-width="3"/>`, x, y, fills[i%4])
		fmt.Fprintf(&body, `<text x="%d" y="%d" font-size="22" fill="#1e3a8a">Label %d: chlorophyll</text><text x="%d" y="%d" font-size="18" fill="#7c2d12">absorbs red and blue light</text>`, x+10, y+36, i, x+10, y+70)
	}
	body.WriteString(`</svg>`)
	data, err := s.Shot(ctx, body.String())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if len(data) > MaxShotBytes {
		t.Errorf("the board is %d bytes, want at most %d", len(data), MaxShotBytes)
	}
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 720 {
		t.Errorf("drawn %dx%d, want the canvas's 1280x720", b.Dx(), b.Dy())
	}
	// Inside the first box, clear of its text: its fill, exactly.
	if c := color.RGBAModel.Convert(img.At(300, 120)).(color.RGBA); c != (color.RGBA{0xff, 0xf3, 0xd6, 0xff}) {
		t.Errorf("the first box's fill is drawn %v, want #fff3d6", c)
	}
	t.Logf("%d bytes", len(data))
}
