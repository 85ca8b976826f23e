package whiteboard

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/internal/textfit"
)

func decodePNG(t *testing.T, b []byte) *image.NRGBA {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	n := image.NewNRGBA(img.Bounds())
	draw.Draw(n, n.Rect, img, image.Point{}, draw.Src)
	return n
}

// inkRows are the rows of img with any opaque pixel, as a bitmap.
func inkRows(img *image.NRGBA) []bool {
	rows := make([]bool, img.Rect.Dy())
	for y := range rows {
		for x := 0; x < img.Rect.Dx(); x++ {
			if img.NRGBAAt(x, y).A > 128 {
				rows[y] = true
				break
			}
		}
	}
	return rows
}

// TestEquationPictureSize: the picture has two pixels per canvas pixel,
// covers the equation's part of its box (centred in it, as the board
// draws it), its background transparent, its ink the element's text
// colour.
func TestEquationPictureSize(t *testing.T) {
	box := textfit.Box{X: 100, Y: 50, W: 400, H: 120}
	data, at := equationPicture(`E = mc^2`, box, textfit.Style{}, "#c53030", 2)
	img := decodePNG(t, data)
	if dx, dy := float64(img.Rect.Dx()), float64(img.Rect.Dy()); dx != at.W*2 || dy != at.H*2 {
		t.Errorf("picture is %v for a %gx%g box: want 2 pixels a canvas pixel", img.Rect.Size(), at.W, at.H)
	}
	if at.X < box.X || at.Y < box.Y || at.X+at.W > box.X+box.W || at.Y+at.H > box.Y+box.H {
		t.Errorf("picture at %+v, outside the element's box %+v", at, box)
	}
	if mid, want := at.X+at.W/2, box.X+box.W/2; mid < want-2 || mid > want+2 {
		t.Errorf("picture centred at x=%g, want the box's centre %g", mid, want)
	}
	if at.H < 40 {
		t.Errorf("picture %gpx tall: the equation is drawn smaller than the board's 48 px", at.H)
	}
	if a := img.NRGBAAt(0, 0).A; a != 0 {
		t.Errorf("corner alpha %d, want a transparent background", a)
	}
	inked := 0
	for y := 0; y < img.Rect.Dy(); y++ {
		for x := 0; x < img.Rect.Dx(); x++ {
			if c := img.NRGBAAt(x, y); c.A == 255 {
				inked++
				if c.R != 0xc5 || c.G != 0x30 || c.B != 0x30 {
					t.Fatalf("ink %v, want the text colour #c53030", c)
				}
			}
		}
	}
	if inked < 1000 {
		t.Errorf("%d opaque pixels: the equation is barely drawn", inked)
	}
}

// TestEquationPictureLayout: a fraction is stacked (ink above and below a
// gap the bar sits in the middle of), not set on one line as a/b; a
// matrix has two rows of ink.
func TestEquationPictureLayout(t *testing.T) {
	bands := func(src string) int {
		data, _ := equationPicture(src, textfit.Box{W: 500, H: 200}, textfit.Style{}, "", 2)
		rows := inkRows(decodePNG(t, data))
		n := 0
		for y, r := range rows {
			if r && (y == 0 || !rows[y-1]) {
				n++
			}
		}
		return n
	}
	// Numerator, bar, denominator: three bands of ink with gaps between.
	if n := bands(`\frac{1}{4}`); n != 3 {
		t.Errorf(`\frac{1}{4} has %d bands of ink, want 3 (numerator, bar, denominator)`, n)
	}
	if n := bands(`1/4`); n != 1 {
		t.Errorf(`1/4 has %d bands of ink, want 1 line`, n)
	}
	if n := bands(`\begin{matrix} 1 & 2 \\ 3 & 4 \end{matrix}`); n != 2 {
		t.Errorf("a two-row matrix has %d bands of ink, want 2", n)
	}
}

// TestEquationPictureHostile: what an author or a model may write draws
// a picture within the element's box without panicking: nothing, only
// spaces, past the length and depth bounds, scripts the font lacks, a
// tiny box and a huge one (bounded in pixels).
func TestEquationPictureHostile(t *testing.T) {
	for _, c := range []struct {
		src   string
		box   textfit.Box
		maxPx int
	}{
		{``, textfit.Box{W: 100, H: 50}, 200},
		{`\qquad\,`, textfit.Box{W: 100, H: 50}, 200},
		{strings.Repeat(`\frac{1}{`, 40) + "x" + strings.Repeat("}", 40), textfit.Box{W: 300, H: 100}, 600},
		{strings.Repeat("x+", 800), textfit.Box{W: 300, H: 100}, 600},
		{`\text{水 🙂 ש} = \oint \sqrt[`, textfit.Box{W: 300, H: 100}, 600},
		{`x^{y^{z^{w}}}_{a_{b_c}}`, textfit.Box{W: 0.2, H: 0.2}, 1},
		{`x`, textfit.Box{W: 20000, H: 20000}, 2048},
	} {
		data, at := equationPicture(c.src, c.box, textfit.Style{Bold: true}, "not a colour", 2)
		img := decodePNG(t, data)
		if n := max(img.Rect.Dx(), img.Rect.Dy()); n < 1 || n > c.maxPx {
			t.Errorf("%.40q in %v: picture %v, want 1 to %d pixels a side", c.src, c.box, img.Rect.Size(), c.maxPx)
		}
		if at.X < c.box.X || at.Y < c.box.Y || at.X+at.W > c.box.X+c.box.W+0.01 || at.Y+at.H > c.box.Y+c.box.H+0.01 {
			t.Errorf("%.40q: picture at %+v, outside the box %+v", c.src, at, c.box)
		}
	}
}

// TestEquationPictureInDeck: the deck's equation carries its picture at
// 192 pixels an inch of the slide whatever the board's size (2 a canvas
// pixel on a 1280 px board, 4 on a 640 px one), in the element's colour,
// placed within the element's box.
func TestEquationPictureInDeck(t *testing.T) {
	for _, c := range []struct {
		width int
		scale float64
	}{{1280, 2}, {640, 4}} {
		src := fmt.Sprintf("canvas: {width: %d, height: %d}\nelements:\n  - {id: e, type: equation, x: 20, y: 20, w: 300, h: 100, latex: '\\frac{a}{b}', style: {color: '#2b6cb0'}}\n", c.width, c.width*9/16)
		b, _ := decodeIn(t, t.TempDir(), src)
		out := RenderPPTX(b, nil, pptx.Box{W: pptx.SlideWidth, H: pptx.SlideHeight})
		m, ok := out.Shapes[0].(*pptx.Math)
		if !ok || m.Picture == nil {
			t.Fatalf("width %d: the equation is %T without a picture", c.width, out.Shapes[0])
		}
		img := decodePNG(t, m.Picture)
		perEMU := float64(img.Rect.Dx()) / float64(m.PictureBox.W)
		if dpi := perEMU * 914400; dpi < 185 || dpi > 200 {
			t.Errorf("width %d: picture at %.0f dpi on the slide, want 192", c.width, dpi)
		}
		if m.PictureBox.X < m.Box.X || m.PictureBox.Y < m.Box.Y || m.PictureBox.X+m.PictureBox.W > m.Box.X+m.Box.W || m.PictureBox.Y+m.PictureBox.H > m.Box.Y+m.Box.H {
			t.Errorf("width %d: picture box %+v outside the equation's %+v", c.width, m.PictureBox, m.Box)
		}
		found := false
		for i := 0; i < len(img.Pix); i += 4 {
			found = found || img.Pix[i+3] == 255 && img.Pix[i] == 0x2b && img.Pix[i+1] == 0x6c && img.Pix[i+2] == 0xb0
		}
		if !found {
			t.Errorf("width %d: no pixel in the element's colour #2b6cb0", c.width)
		}
	}
}

// TestEquationPictureFencesAndArrows: a \left( … \right) round a fraction
// grows to its height, scripted or not, as MathML stretches it, and the
// arrows and signs the font lacks (⇌, ⇒, ∓, ‖) are drawn as strokes, not
// as the font's missing-glyph box.
func TestEquationPictureFencesAndArrows(t *testing.T) {
	items := func(src string) []mathItem {
		tree, _ := parseLatex(src)
		return layoutMath(tree, 1).items
	}
	stretched := map[string]bool{}
	for _, it := range items(`\left(\frac{a}{b}\right)^2 + (x)`) {
		if it.kind == 't' && (it.text == "(" || it.text == ")") {
			stretched[it.text] = stretched[it.text] || it.stretch > 1.2
		}
	}
	if !stretched["("] || !stretched[")"] {
		t.Errorf("fences round a fraction not stretched: %v", stretched)
	}
	for _, it := range items(`(x)`) {
		if it.stretch != 0 {
			t.Errorf("(x): %q stretched %g, want its own height", it.text, it.stretch)
		}
	}
	for _, src := range []string{`A \rightleftharpoons B`, `p \Rightarrow q`, `a \mp b`, `\begin{Vmatrix} 1 \end{Vmatrix}`} {
		for _, it := range items(src) {
			if it.kind == 't' && !mathHas(it.text) {
				t.Errorf("%s: %q drawn from a font that lacks it", src, it.text)
			}
		}
	}
}
