package pptx_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/internal/pptx/pptxtest"
)

// hostile is text no field should be able to break a deck with: control
// characters, XML syntax, bidi overrides, a lone surrogate and invalid
// UTF-8.
const hostile = "a\x00b\x01\x08\x0b\x0c\x1b\x7f\u0085c ]]> <x/> &amp; & \"q\" 'a' \u202Eevil\u202C \xed\xa0\x80 \xff\xfe end\r\nnext\ttab \uFFFE\uFFFF"

func png1(t testing.TB) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	for i := range img.Pix {
		img.Pix[i] = 0xcc
	}
	img.Set(1, 1, color.Black)
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func sample(t testing.TB, text string) *pptx.Deck {
	box := &pptx.Sp{Name: "box " + text, Box: pptx.Box{X: 914400, Y: 1371600, W: 2743200, H: 914400}, Geom: "roundRect",
		Fill: pptx.RGB("E0F0FF"), Line: &pptx.Line{Color: pptx.RGB("1B4F72"), Width: 2},
		Paras: []pptx.Para{{Runs: []pptx.Run{{Text: "Ice " + text, Size: 20, Bold: true, Color: pptx.RGB("1B4F72")}}, Align: "ctr"}}, Anchor: "ctr"}
	oval := &pptx.Sp{Name: "oval", Box: pptx.Box{X: 6400800, Y: 1371600, W: 2743200, H: 914400}, Geom: "ellipse",
		Line: &pptx.Line{Color: pptx.RGB("333333"), Width: 2}, Paras: []pptx.Para{pptx.Text("Water", 20, false, pptx.Color{})}}
	return &pptx.Deck{
		Title: "Deck " + text, Subject: "science " + text, Keywords: "grade 5 " + text,
		Slides: []*pptx.Slide{
			{
				Title:      "Shapes " + text,
				Background: pptx.RGB("FDF6E3"),
				Shapes: []pptx.Shape{
					box, oval,
					&pptx.Connector{Name: "arrow", X1: 3657600, Y1: 1828800, X2: 6400800, Y2: 1828800, Line: pptx.Line{Color: pptx.RGB("000000"), Width: 2, Tail: true}, From: box, FromSite: 3, To: oval, ToSite: 2},
					&pptx.Connector{Name: "back", X1: 6400800, Y1: 3000000, X2: 3657600, Y2: 2500000, Line: pptx.Line{Color: pptx.RGB("C53030"), Width: 1.5, Tail: true, Dash: true}},
					&pptx.Sp{Name: "rule", Geom: "line", Box: pptx.Box{X: 914400, Y: 3200400, W: 8229600, H: 0}, Line: &pptx.Line{Color: pptx.RGB("333333"), Width: 2}},
					&pptx.Group{Name: "picture", Shapes: []pptx.Shape{
						&pptx.Pic{Name: "kettle", Descr: "A kettle " + text, Box: pptx.Box{X: 914400, Y: 3657600, W: 2743200, H: 1371600}, PNG: png1(t)},
						&pptx.Sp{Name: "caption", Box: pptx.Box{X: 914400, Y: 5029200, W: 2743200, H: 457200}, Paras: []pptx.Para{pptx.Text("Image: a kettle "+text, 12, false, pptx.Color{})}},
					}},
					&pptx.Math{Name: "eq", Descr: `\frac{1}{2}mv^2`, Box: pptx.Box{X: 4572000, Y: 3657600, W: 4572000, H: 914400}, Size: 28,
						Math: []pptx.MathNode{
							pptx.MRun{Text: "E="},
							pptx.MFrac{Num: []pptx.MathNode{pptx.MRun{Text: "1"}}, Den: []pptx.MathNode{pptx.MRun{Text: "2"}}},
							pptx.MRun{Text: "m"},
							pptx.MSup{Base: []pptx.MathNode{pptx.MRun{Text: "v"}}, Sup: []pptx.MathNode{pptx.MRun{Text: "2"}}},
							pptx.MRun{Text: " " + text, Plain: true},
							pptx.MRad{E: []pptx.MathNode{pptx.MRun{Text: "x"}}},
							pptx.MSub{Base: []pptx.MathNode{pptx.MRun{Text: "H"}}, Sub: []pptx.MathNode{pptx.MRun{Text: "2"}}},
							pptx.MSubSup{Base: []pptx.MathNode{pptx.MRun{Text: "x"}}, Sub: []pptx.MathNode{pptx.MRun{Text: "i"}}, Sup: []pptx.MathNode{pptx.MRun{Text: "2"}}},
							pptx.MOver{Base: []pptx.MathNode{pptx.MRun{Text: "→"}}, Over: []pptx.MathNode{pptx.MRun{Text: "light", Plain: true}}},
						},
						Fallback: []pptx.Para{pptx.Text("E = ½mv² "+text, 28, false, pptx.Color{})}},
				},
				Notes: []pptx.Para{pptx.Text("Point at each box.\nThen ask "+text, 0, false, pptx.Color{}), pptx.Text("Second paragraph", 0, true, pptx.Color{})},
			},
			{
				Title: "Quiz",
				Shapes: []pptx.Shape{&pptx.Sp{Name: "questions", Box: pptx.Box{X: 457200, Y: 1143000, W: 11277600, H: 5257800}, Shrink: true, Paras: []pptx.Para{
					{Runs: []pptx.Run{{Text: "What is ice? " + text, Size: 24}}, Bullet: "num"},
					{Runs: []pptx.Run{{Text: "Frozen water", Size: 20}}, Bullet: "alpha", Level: 1},
					{Runs: []pptx.Run{{Text: "Steam", Size: 20}}, Bullet: "alpha", Level: 1},
				}}},
			},
			{Title: ""},
		},
	}
}

func write(t testing.TB, d *pptx.Deck) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := d.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestWriteIsWellFormed(t *testing.T) {
	for _, text := range []string{"plain", hostile} {
		data := write(t, sample(t, text))
		pptxtest.Check(t, data)
		parts := pptxtest.Parts(t, data)
		slides := pptxtest.Slides(parts)
		if len(slides) != 3 {
			t.Fatalf("%d slides, want 3", len(slides))
		}
		s1 := string(slides[0])
		for _, want := range []string{`<p:ph type="title"/>`, `<p:cxnSp>`, `<a:stCxn id="3" idx="3"/>`, `<a:endCxn id="4" idx="2"/>`, `<a:tailEnd type="triangle"`,
			`<p:pic>`, `descr="A kettle`, `<p:grpSp>`, `<mc:AlternateContent`, `<m:oMath>`, `<m:f>`, `<m:sSup>`, `<m:rad>`, `<m:sSub>`, `<m:sSubSup>`, `<m:limUpp>`, `prst="ellipse"`, `prst="line"`, `<a:prstDash val="dash"/>`, `flipH="1"`, `flipV="1"`} {
			if !strings.Contains(s1, want) {
				t.Errorf("%s: slide 1 lacks %s", text, want)
			}
		}
		notes := string(pptxtest.Notes(parts, 1))
		if !strings.Contains(notes, "<a:br>") || strings.Count(notes, "<a:p>") != 2 {
			t.Errorf("notes lost their line break or paragraphs:\n%s", notes)
		}
		if pptxtest.Notes(parts, 2) != nil {
			t.Error("a slide without notes has a notes page")
		}
		if text == hostile {
			all := strings.Join(pptxtest.Texts(slides[0]), "")
			for _, gone := range []string{"\x00", "\x01", "\x1b", "\x7f", "\u0085", "\uFFFD", "\r", "\t"} {
				if strings.Contains(all, gone) {
					t.Errorf("slide text keeps %q", gone)
				}
			}
			for _, kept := range []string{"]]> <x/> &amp; &", "\u202Eevil\u202C", "abc"} {
				if !strings.Contains(all, kept) {
					t.Errorf("slide text lost %q: %q", kept, all)
				}
			}
			core := string(parts["docProps/core.xml"])
			if !strings.Contains(core, "<dc:title>Deck abc ]]&gt; &lt;x/&gt; &amp;amp;") {
				t.Errorf("core.xml title not escaped: %s", core)
			}
		}
	}
}

func TestMediaStoredOnce(t *testing.T) {
	d := sample(t, "x")
	pic := d.Slides[0].Shapes[5].(*pptx.Group).Shapes[0]
	d.Slides[1].Shapes = append(d.Slides[1].Shapes, pic)
	parts := pptxtest.Parts(t, write(t, d))
	n := 0
	for name := range parts {
		if strings.HasPrefix(name, "ppt/media/") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d media files for one picture used twice", n)
	}
}

// TestImpressOpens converts the sample decks with LibreOffice: each must
// open (a PDF is written) with every slide and its text.
func TestImpressOpens(t *testing.T) {
	dir := t.TempDir()
	var decks []string
	for i, text := range []string{"plain", hostile} {
		p := filepath.Join(dir, "deck"+string(rune('a'+i))+".pptx")
		if err := os.WriteFile(p, write(t, sample(t, text)), 0o644); err != nil {
			t.Fatal(err)
		}
		decks = append(decks, p)
	}
	got := pptxtest.Impress(t, decks...)
	for _, deck := range decks {
		pdf := got[deck]
		if len(pdf.Pages) != 3 {
			t.Fatalf("%s: %d pages, want 3", deck, len(pdf.Pages))
		}
		for i, want := range [][]string{{"Shapes", "Ice", "Water", "Image: a kettle"}, {"Quiz", "What is ice?", "Frozen water", "Steam"}} {
			for _, w := range want {
				if !strings.Contains(pdf.Pages[i], w) {
					t.Errorf("%s page %d lacks %q:\n%s", filepath.Base(deck), i+1, w, pdf.Pages[i])
				}
			}
		}
	}
}

// TestMathPictureFallback: an equation with a picture falls back to it as
// PowerPoint writes it (the same shape's id and name, filled with the
// picture, locked, in its own box), and its Choice requires a14 and p14,
// so LibreOffice, which takes a Choice whose Requires is one word it
// knows, draws the picture even without its Math module.
func TestMathPictureFallback(t *testing.T) {
	eq := &pptx.Math{Name: "eq", Descr: `\frac{1}{2}`, Box: pptx.Box{X: 100, Y: 200, W: 3000, H: 1000}, Size: 28,
		Math:    []pptx.MathNode{pptx.MFrac{Num: []pptx.MathNode{pptx.MRun{Text: "1"}}, Den: []pptx.MathNode{pptx.MRun{Text: "2"}}}},
		Picture: png1(t), PictureBox: pptx.Box{X: 1100, Y: 300, W: 1000, H: 800}}
	d := &pptx.Deck{Slides: []*pptx.Slide{{Title: "Maths", Shapes: []pptx.Shape{eq,
		&pptx.Pic{Name: "same picture", Box: pptx.Box{W: 10, H: 10}, PNG: png1(t)}}}}}
	data := write(t, d)
	pptxtest.Check(t, data)
	parts := pptxtest.Parts(t, data)
	slide := string(pptxtest.Slides(parts)[0])
	choice, fallback, ok := strings.Cut(slide, "<mc:Fallback>")
	if !ok {
		t.Fatalf("no mc:Fallback:\n%s", slide)
	}
	fallback, _, _ = strings.Cut(fallback, "</mc:Fallback>")
	for _, want := range []string{`xmlns:p14="http://schemas.microsoft.com/office/powerpoint/2010/main" Requires="a14 p14">`, `<a14:m>`} {
		if !strings.Contains(choice, want) {
			t.Errorf("the Choice lacks %s:\n%s", want, choice)
		}
	}
	for _, want := range []string{`<p:cNvPr id="3" name="eq" descr="\frac{1}{2}"/>`, `noTextEdit="1"`, `<a:off x="1100" y="300"/><a:ext cx="1000" cy="800"/>`,
		`<a:blipFill><a:blip r:embed="rId2"/><a:stretch><a:fillRect/></a:stretch></a:blipFill>`, `<a:noFill/></a:rPr><a:t> </a:t>`} {
		if !strings.Contains(fallback, want) {
			t.Errorf("the Fallback lacks %s:\n%s", want, fallback)
		}
	}
	if strings.Contains(fallback, "<a14:") || strings.Contains(fallback, "<m:") {
		t.Errorf("the Fallback holds Office Math:\n%s", fallback)
	}
	rels := string(parts["ppt/slides/_rels/slide1.xml.rels"])
	if !strings.Contains(rels, `Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="../media/image1.png"`) {
		t.Errorf("no image relationship rId2 for the equation's picture:\n%s", rels)
	}
	if !bytes.Equal(parts["ppt/media/image1.png"], png1(t)) || parts["ppt/media/image2.png"] != nil {
		t.Error("the equation's picture, also used by a picture, is not stored once as image1.png")
	}
}
