package render_test

import (
	"archive/zip"
	"bytes"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/lessongen/lessongen/internal/pptx/pptxtest"
)

// TestPPTXEquationsWithoutMath opens the maths lesson's deck (eight
// equations: fractions, bars, roots, a strike, a matrix, aligned lines,
// an arrow with its label) in LibreOffice Impress without its Math module,
// as Debian installs libreoffice-impress alone, and in Impress with it:
// each equation's box on the page must hold ink. As a control, the same
// deck with the Choice PowerPoint writes (Requires="a14") must come out
// blank without Math: that is the bug, and shows that Math really is
// hidden from Impress.
func TestPPTXEquationsWithoutMath(t *testing.T) {
	if _, err := exec.LookPath("soffice"); err != nil {
		t.Skip("LibreOffice (soffice) is not installed: the Impress check is skipped; apt-get install libreoffice-impress libreoffice-math poppler-utils")
	}
	if _, err := exec.LookPath("pdftoppm"); err != nil {
		t.Skip("pdftoppm is not installed: the Impress check is skipped; apt-get install poppler-utils")
	}
	dir := t.TempDir()
	data := renderPPTX(t, mathsLesson, false)
	pptxtest.Check(t, data)
	deck := filepath.Join(dir, "maths.pptx")
	control := filepath.Join(dir, "control.pptx")
	writeFile(t, deck, data)
	writeFile(t, control, requireA14Only(t, data))
	boxes := equationBoxes(t, pptxtest.Parts(t, data))
	if len(boxes) != 8 {
		t.Fatalf("%d equations in the deck, want the lesson's 8", len(boxes))
	}
	without := pptxtest.ImpressWithoutMath(t, deck, control)
	for _, b := range boxes {
		if ink := inkIn(t, without[control].Path, b); ink > 0.001 {
			t.Fatalf("the control's equation %s has ink (%.2f%% of its box) in Impress without Math: Math was not hidden", b.name, ink*100)
		}
	}
	with := pptxtest.Impress(t, deck)
	for what, pdf := range map[string]string{"without Math": without[deck].Path, "with Math": with[deck].Path} {
		for _, b := range boxes {
			if ink := inkIn(t, pdf, b); ink < 0.01 {
				t.Errorf("Impress %s: equation %s (slide %d) is blank: %.2f%% of its box inked", what, b.name, b.slide, ink*100)
			}
		}
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// requireA14Only is the deck as it was written before the fix (and as
// PowerPoint writes its own): every equation's Choice requires a14 alone.
func requireA14Only(t *testing.T, data []byte) []byte {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	parts := pptxtest.Parts(t, data)
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, f := range z.File { // in the deck's order, content types first
		body := bytes.ReplaceAll(parts[f.Name], []byte(`Requires="a14 p14"`), []byte(`Requires="a14"`))
		fw, err := w.Create(f.Name)
		if err == nil {
			_, err = fw.Write(body)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

type eqBox struct {
	name       string
	slide      int
	x, y, w, h int64 // EMU
}

var fallbackRe = regexp.MustCompile(`(?s)<mc:Fallback><p:sp><p:nvSpPr><p:cNvPr id="\d+" name="([^"]*)".*?<a:off x="(\d+)" y="(\d+)"/><a:ext cx="(\d+)" cy="(\d+)"/>.*?</mc:Fallback>`)

// equationBoxes are the equations' boxes, by slide, read from the deck.
func equationBoxes(t *testing.T, parts map[string][]byte) []eqBox {
	var out []eqBox
	for i, s := range pptxtest.Slides(parts) {
		for _, m := range fallbackRe.FindAllSubmatch(s, -1) {
			if !bytes.Contains(m[0], []byte("<a:blipFill>")) {
				t.Errorf("slide %d: equation %s's fallback is not a picture", i+1, m[1])
			}
			n := func(k int) int64 { v, _ := strconv.ParseInt(string(m[k]), 10, 64); return v }
			out = append(out, eqBox{name: string(m[1]), slide: i + 1, x: n(2), y: n(3), w: n(4), h: n(5)})
		}
	}
	return out
}

// inkIn is the share of b's box (its inner 90%) that is not white on the
// PDF's page, drawn by pdftoppm at 50 dpi.
func inkIn(t *testing.T, pdf string, b eqBox) float64 {
	t.Helper()
	const dpi = 50
	page := strconv.Itoa(b.slide)
	out := filepath.Join(t.TempDir(), "page")
	if msg, err := exec.Command("pdftoppm", "-png", "-r", strconv.Itoa(dpi), "-f", page, "-l", page, "-singlefile", pdf, out).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v\n%s", err, msg)
	}
	f, err := os.Open(out + ".png")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	px := func(emu int64) int { return int(float64(emu) / 914400 * dpi) }
	r := image.Rect(px(b.x+b.w/20), px(b.y+b.h/20), px(b.x+b.w-b.w/20), px(b.y+b.h-b.h/20)).Intersect(img.Bounds())
	if r.Empty() {
		t.Fatalf("equation %s's box %v is off the page %v", b.name, r, img.Bounds())
	}
	inked := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if min(cr, cg, cb) < 0xC000 {
				inked++
			}
		}
	}
	return float64(inked) / float64(r.Dx()*r.Dy())
}
