package textfit

import (
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// The compiled-in fonts draw "-" as a hyphen: a bar shorter than the en
// dash's, on Arial's advance in text and in Go Mono's cell in code, and
// each font's checksums hold (a browser may refuse a font whose do not).
func TestHyphenNarrowed(t *testing.T) {
	for _, c := range []struct {
		name    string
		f       *face
		advance int
	}{{"regular", faceFor(false), textHyphen.advance}, {"bold", faceFor(true), textHyphen.advance}, {"mono", monoFace(), 1229}} {
		var buf sfnt.Buffer
		ink := func(r rune) (int, int) {
			g, err := c.f.font.GlyphIndex(&buf, r)
			if err != nil || g == 0 {
				t.Fatalf("%s: no glyph for %q", c.name, r)
			}
			b, adv, err := c.f.font.GlyphBounds(&buf, g, fixed.I(c.f.upem), font.HintingNone)
			if err != nil {
				t.Fatal(err)
			}
			return (b.Max.X - b.Min.X).Round(), adv.Round()
		}
		hyphen, adv := ink('-')
		dash, _ := ink('–')
		if hyphen*4 > dash*3 || adv != c.advance {
			t.Errorf("%s: the hyphen's bar is %d units on %d (en dash %d), want under 3/4 of the dash on %d", c.name, hyphen, adv, dash, c.advance)
		}
		if got := checksum(c.f.ttf); got != 0xB1B0AFBA {
			t.Errorf("%s: the font's checksum is %#x, want 0xB1B0AFBA", c.name, got)
		}
	}
}
