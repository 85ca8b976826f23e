package textfit

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// The Go fonts (Go Regular and Go Bold, BSD-licensed, shipped with
// golang.org/x/image) are the one typeface of lessongen's text. They are
// compiled into the binary for measuring and embedded in rendered HTML as
// base64 @font-face rules, so a browser draws every character the font has
// with exactly the advances measured here, on any machine, with no network
// and no dependence on the viewer's installed fonts. They cover Latin (with
// accents), Greek and Cyrillic; other scripts fall back to the viewer's
// fonts and are measured as a full em each (see missingAdvance).

// FontFamily is the CSS font-family name under which FontFaceCSS declares the
// embedded fonts; rendered text must use it for the measurements to hold.
const FontFamily = "Lessongen Go"

// MonoFamily is the family of Go Mono, the monospace face code is drawn and
// measured in (Style.Mono), declared by MonoFontFaceCSS. Every character it
// has is 0.6 em wide. It is kept apart from FontFaceCSS (another 230 kB of
// base64) so a page embeds it only when it draws code.
const MonoFamily = "Lessongen Go Mono"

// MonoStack is the CSS font-family list code is drawn with: Go Mono, else
// the viewer's monospace face (a Marp deck without the font files), whose
// common faces (DejaVu Sans Mono, Liberation Mono, Courier New, Menlo) are
// 0.60–0.61 em wide too, so code is never drawn proportional.
const MonoStack = "'" + MonoFamily + "',monospace"

// tableSize is how many leading code points get a precomputed lookup table
// (everything below CJK); the rest are looked up in the font on demand.
const tableSize = 0x3000

// face is one parsed font with what measuring needs at hand. Widths are kept
// in font units (integers), so sums are exact and scale once at the end.
type face struct {
	ttf             []byte
	font            *sfnt.Font
	upem            int
	ascent, descent int // hhea metrics in font units, as browsers use them
	kerns           bool
	glyph           [tableSize]sfnt.GlyphIndex
	adv             [tableSize]uint16
	bufs            sync.Pool
}

var faces = sync.OnceValue(func() [2]*face {
	return [2]*face{mustFace(withHyphen(goregular.TTF, textHyphen)), mustFace(withHyphen(gobold.TTF, textHyphen))}
})

var monoFace = sync.OnceValue(func() *face { return mustFace(withHyphen(gomono.TTF, monoHyphen)) })

// withHyphen is ttf with its hyphen narrowed to h (see narrowHyphen).
func withHyphen(ttf []byte, h hyphenShape) []byte {
	f, err := sfnt.Parse(ttf)
	if err != nil {
		panic(fmt.Sprintf("textfit: embedded font: %v", err)) // a broken build, not a user error
	}
	gid, err := f.GlyphIndex(new(sfnt.Buffer), '-')
	if err == nil {
		ttf, err = narrowHyphen(ttf, int(gid), h)
	}
	if err != nil {
		panic(fmt.Sprintf("textfit: embedded font's hyphen: %v", err))
	}
	return ttf
}

func faceFor(bold bool) *face {
	if bold {
		return faces()[1]
	}
	return faces()[0]
}

// face is the font s is measured in: Go Mono for code (which has no bold
// here), else Go Regular or Go Bold.
func (s Style) face() *face {
	if s.Mono {
		return monoFace()
	}
	return faceFor(s.Bold)
}

func mustFace(ttf []byte) *face {
	f, err := sfnt.Parse(ttf)
	if err != nil {
		panic(fmt.Sprintf("textfit: embedded font: %v", err)) // a broken build, not a user error
	}
	fc := &face{ttf: ttf, font: f, upem: int(f.UnitsPerEm()), kerns: hasTable(ttf, "kern") || hasTable(ttf, "GPOS")}
	fc.bufs.New = func() any { return new(sfnt.Buffer) }
	var buf sfnt.Buffer
	ppem := fixed.I(fc.upem)
	m, err := f.Metrics(&buf, ppem, font.HintingNone)
	if err != nil {
		panic(fmt.Sprintf("textfit: embedded font metrics: %v", err))
	}
	fc.ascent, fc.descent = m.Ascent.Round(), m.Descent.Round()
	for r := rune(0); r < tableSize; r++ {
		g, err := f.GlyphIndex(&buf, r)
		if err != nil || g == 0 {
			continue
		}
		a, err := f.GlyphAdvance(&buf, g, ppem, font.HintingNone)
		if err != nil {
			continue
		}
		fc.glyph[r], fc.adv[r] = g, uint16(a.Round())
	}
	return fc
}

// hasTable reports whether the font file's table directory lists tag. sfnt
// does not say whether a font kerns; without a kern or GPOS table every
// pair is zero, and skipping the lookups makes measuring several times faster.
func hasTable(ttf []byte, tag string) bool {
	if len(ttf) < 12 {
		return false
	}
	n := int(binary.BigEndian.Uint16(ttf[4:]))
	for i := 0; i < n && 12+16*i+4 <= len(ttf); i++ {
		if string(ttf[12+16*i:12+16*i+4]) == tag {
			return true
		}
	}
	return false
}

// lookup returns the glyph and advance (font units) of r; glyph 0 means the
// font lacks r.
func (fc *face) lookup(r rune) (sfnt.GlyphIndex, int) {
	if r >= 0 && r < tableSize {
		return fc.glyph[r], int(fc.adv[r])
	}
	buf := fc.bufs.Get().(*sfnt.Buffer)
	defer fc.bufs.Put(buf)
	g, err := fc.font.GlyphIndex(buf, r)
	if err != nil || g == 0 {
		return 0, 0
	}
	a, err := fc.font.GlyphAdvance(buf, g, fixed.I(fc.upem), font.HintingNone)
	if err != nil {
		return 0, 0
	}
	return g, a.Round()
}

// kern returns the kerning between two glyphs in font units.
func (fc *face) kern(a, b sfnt.GlyphIndex) int {
	if !fc.kerns || a == 0 || b == 0 {
		return 0
	}
	buf := fc.bufs.Get().(*sfnt.Buffer)
	defer fc.bufs.Put(buf)
	k, err := fc.font.Kern(buf, a, b, fixed.I(fc.upem), font.HintingNone)
	if err != nil {
		return 0
	}
	return k.Round()
}

// TTF returns a copy of the embedded font file (Go Regular, or Go Bold).
func TTF(bold bool) []byte {
	return append([]byte(nil), faceFor(bold).ttf...)
}

var fontFaceCSS = sync.OnceValue(func() string {
	var b strings.Builder
	for i, weight := range []int{400, 700} {
		fmt.Fprintf(&b, "@font-face{font-family:%q;font-style:normal;font-weight:%d;src:url(data:font/ttf;base64,%s) format(\"truetype\");}\n",
			FontFamily, weight, base64.StdEncoding.EncodeToString(faces()[i].ttf))
	}
	return b.String()
})

// FontFaceCSS returns the @font-face rules (about 400 kB of base64) that
// embed both fonts under FontFamily, for a <style> element of an HTML page.
func FontFaceCSS() string { return fontFaceCSS() }

// TTFMono returns a copy of the embedded Go Mono font file.
func TTFMono() []byte { return append([]byte(nil), monoFace().ttf...) }

var monoFontFaceCSS = sync.OnceValue(func() string {
	return fmt.Sprintf("@font-face{font-family:%q;font-style:normal;font-weight:400;src:url(data:font/ttf;base64,%s) format(\"truetype\");}\n",
		MonoFamily, base64.StdEncoding.EncodeToString(monoFace().ttf))
})

// MonoFontFaceCSS returns the @font-face rule that embeds Go Mono under
// MonoFamily, for a page that draws code (see UsesMono).
func MonoFontFaceCSS() string { return monoFontFaceCSS() }

// UsesMono reports whether markup draws text in MonoFamily, so a page
// knows to embed MonoFontFaceCSS.
func UsesMono(markup string) bool { return strings.Contains(markup, MonoFamily) }
