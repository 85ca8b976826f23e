package textfit

import (
	"bytes"
	"encoding/base64"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// At a font size of 2048 px one px is one font unit of the Go fonts, so
// widths are the font's own advances (read from its hmtx table with ttx).
func TestAdvancesAreTheFonts(t *testing.T) {
	big := Style{FontSize: 2048}
	bold := Style{FontSize: 2048, Bold: true}
	for _, c := range []struct {
		text  string
		style Style
		want  float64
	}{
		{"é", big, 1139},
		{"€", big, 1139},
		{"Ж", big, 1891},
		{"Ж", bold, 1851},
		{"Ω", bold, 1642},
		{"\ufffd", big, 2048},
		{"中", big, 2048},            // missing: a full em
		{"👩\u200d🔬", big, 2560},     // one emoji, however many code points: 1.25 em
		{"🇫🇷", big, 2560},           // a flag is one emoji
		{"👍🏽", big, 2560},           // so is a skin-toned one
		{"e\u0301", big, 1139},      // a combining accent adds nothing
		{"a\u00adb\u200dc", big, 0}, // soft hyphen and joiner add nothing (checked below)
	} {
		got := Measure(c.text, c.style).Width
		if c.want == 0 {
			c.want = Measure("abc", c.style).Width
		}
		if got != c.want {
			t.Errorf("width of %q (bold %v) = %g, want %g", c.text, c.style.Bold, got, c.want)
		}
	}
}

func TestWidthScalesWithFontSize(t *testing.T) {
	const s = "Photosynthesis: 6CO₂ + 6H₂O → C₆H₁₂O₆"
	w24, w48 := Measure(s, Style{FontSize: 24}).Width, Measure(s, Style{FontSize: 48}).Width
	if w24 <= 0 || math.Abs(w48-2*w24) > 1e-9 {
		t.Errorf("width at 24 px = %g, at 48 px = %g; want exactly double", w24, w48)
	}
	if d := Measure(s, Style{}).Width; d != w24 {
		t.Errorf("default font size measures %g, want the 24 px width %g", d, w24)
	}
	for _, bad := range []float64{0, -3, math.NaN(), math.Inf(1)} {
		if got := Measure(s, Style{FontSize: bad}).Style.FontSize; got != DefaultFontSize {
			t.Errorf("font size %g resolves to %g, want the default %g", bad, got, DefaultFontSize)
		}
	}
	if Measure("Bold text", Style{Bold: true}).Width == Measure("Bold text", Style{}).Width {
		t.Error("bold measures like regular")
	}
}

func TestWrap(t *testing.T) {
	st := Style{FontSize: 20}
	word := func(s string) float64 { return Measure(s, st).Width }
	for _, c := range []struct {
		name, text string
		width      float64
		want       []string
	}{
		{"fits on one line", "the light reactions", math.Inf(1), []string{"the light reactions"}},
		{"breaks at spaces, greedily", "the light reactions happen", word("the light reactions"), []string{"the light reactions", "happen"}},
		{"exactly the width fits", "ab cd", word("ab cd"), []string{"ab cd"}},
		{"a hair less does not", "ab cd", word("ab cd") - 0.001, []string{"ab", "cd"}},
		{"long word by characters", "mmmmmmmm", word("mmm") + 0.01, []string{"mmm", "mmm", "mm"}},
		{"broken word continues the line", "xy mmmmmmm a", word("mmm") + 0.01, []string{"xy", "mmm", "mmm", "m a"}},
		{"a character wider than the box stands alone", "WW", 1, []string{"W", "W"}},
		{"explicit newlines", "one\ntwo three", math.Inf(1), []string{"one", "two three"}},
		{"blank lines kept, trailing ones dropped", "one\n\ntwo\n\n", math.Inf(1), []string{"one", "", "two"}},
		{"CRLF", "one\r\ntwo\rthree", math.Inf(1), []string{"one", "two", "three"}},
		{"spaces and tabs collapse", "  a \t  b   c  ", math.Inf(1), []string{"a b c"}},
		{"no-break space does not break", "a\u00a0b c", word("a\u00a0b"), []string{"a\u00a0b", "c"}},
		{"clusters stay whole", "👩\u200d🔬👩\u200d🔬e\u0301e\u0301", 1, []string{"👩\u200d🔬", "👩\u200d🔬", "e\u0301", "e\u0301"}},
		{"CJK breaks between characters", "光合作用", 2.5 * 20, []string{"光合", "作用"}},
		{"empty", "", 100, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := Wrap(c.text, st, c.width)
			if strings.Join(l.Lines, "|") != strings.Join(c.want, "|") || len(l.Lines) != len(c.want) {
				t.Errorf("Wrap(%q, %g) = %q, want %q", c.text, c.width, l.Lines, c.want)
			}
			if want := float64(len(c.want)) * LineHeight * 20; l.Height != want {
				t.Errorf("height %g, want %g", l.Height, want)
			}
			for i, line := range l.Lines {
				if w := word(line); l.Widths[i] != w && line != "" {
					t.Errorf("line %q measured %g in the layout, %g alone", line, l.Widths[i], w)
				}
			}
		})
	}
}

// Over the whole corpus: no text is lost or reordered, and no line is wider
// than the box unless it is a single character.
func TestWrapInvariants(t *testing.T) {
	squash := func(s string) string { return strings.Join(strings.Fields(s), "") }
	for _, c := range corpus(500, 3) {
		l := Wrap(c.text, c.style, c.box.W)
		if got, want := squash(strings.Join(l.Lines, "")), squash(c.text); got != want {
			t.Fatalf("text changed by wrapping: %q -> %q (%v)", want, got, c)
		}
		for i, line := range l.Lines {
			if l.Widths[i] > c.box.W+1e-6 && len([]rune(line)) > 1 && !strings.ContainsRune(line, 0x200d) && !strings.ContainsAny(line, "\U0001F1EB\U0001F3FD\ufe0f") {
				t.Fatalf("line %q is %g px wide in a %g px box: %v", line, l.Widths[i], c.box.W, c)
			}
			if strings.Contains(line, "  ") || strings.TrimSpace(line) != line {
				t.Fatalf("line %q has stray spaces", line)
			}
		}
		if want := l.Width; want > 0 && want != maxOf(l.Widths) {
			t.Fatalf("Width %g is not the widest line %g", l.Width, maxOf(l.Widths))
		}
	}
}

func maxOf(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

func TestFit(t *testing.T) {
	st := Style{FontSize: 24}
	text := "The light reactions happen in the thylakoid membranes of the chloroplast"
	v := Fit(text, st, Box{W: 300, H: 90})
	if !v.Fits || v.Hint != "" || v.Overflow != (Size{}) || v.Need.H != 90 || len(v.Lines) != 3 {
		t.Fatalf("3 lines in a box 3 lines tall: %+v", v)
	}
	v = Fit(text, st, Box{W: 300, H: 80})
	if v.Fits || v.Overflow.H != 10 || v.Overflow.W != 0 || v.Need.H != 90 {
		t.Fatalf("3 lines in a box 2.7 lines tall: %+v", v)
	}
	if !strings.HasPrefix(v.Hint, "text needs 90 px of height, the box has 80: ") {
		t.Errorf("hint %q does not say by how much", v.Hint)
	}
	if v := Fit("x", Style{FontSize: 48}, Box{W: 5, H: 100}); v.Fits || v.Overflow.W <= 0 ||
		!strings.HasPrefix(v.Hint, "text needs 24 px of width, the box has 5: make the box 19 px wider") {
		t.Errorf("a character wider than the box: %+v", v)
	}
	if v := Fit("ab", st, Box{W: math.NaN(), H: -5}); v.Fits || v.Overflow.H != 60 || math.IsNaN(v.Overflow.W) || strings.Contains(v.Hint, "NaN") {
		t.Errorf("a box of NaN width and negative height: %+v", v)
	}
	if v := Fit("", st, Box{}); !v.Fits {
		t.Errorf("empty text in an empty box does not fit: %+v", v)
	}
}

var (
	shortenRe = regexp.MustCompile(`shorten it to about (\d+) characters`)
	tallerRe  = regexp.MustCompile(`make the box (\d+) px taller`)
	widerRe   = regexp.MustCompile(`(?:or |box )(\d+) px wider`)
	fontRe    = regexp.MustCompile(`use font size (\d+)`)
)

// Every change a hint suggests makes the text fit on its own, and the
// numbers are tight: a little less would not do.
func TestHintsWork(t *testing.T) {
	checked := map[string]int{}
	for _, c := range corpus(400, 5) {
		v := Fit(c.text, c.style, c.box)
		if v.Fits {
			continue
		}
		if m := shortenRe.FindStringSubmatch(v.Hint); m != nil {
			n, _ := strconv.Atoi(m[1])
			prefix := string([]rune(c.text)[:min(n, len([]rune(c.text)))]) // corpus text: each rune its own character except emoji sequences
			if !Fit(prefix, c.style, c.box).Fits && !hasEmoji(c.text) {
				t.Errorf("shortened to %d characters, still does not fit: %v\n%s", n, c, v.Hint)
			}
			checked["shorten"]++
		}
		if m := tallerRe.FindStringSubmatch(v.Hint); m != nil {
			d, _ := strconv.ParseFloat(m[1], 64)
			b := c.box
			b.H += d
			if !Fit(c.text, c.style, b).Fits && v.Overflow.W == 0 {
				t.Errorf("box %g px taller, still does not fit: %v\n%s", d, c, v.Hint)
			}
			b.H -= 1
			if Fit(c.text, c.style, b).Fits {
				t.Errorf("box %g px taller suggested, %g would do: %v\n%s", d, d-1, c, v.Hint)
			}
			checked["taller"]++
		}
		if m := widerRe.FindStringSubmatch(v.Hint); m != nil && v.Overflow.W == 0 {
			d, _ := strconv.ParseFloat(m[1], 64)
			b := c.box
			b.W += d
			if !Fit(c.text, c.style, b).Fits {
				t.Errorf("box %g px wider, still does not fit: %v\n%s", d, c, v.Hint)
			}
			checked["wider"]++
		}
		if m := fontRe.FindStringSubmatch(v.Hint); m != nil {
			s, _ := strconv.Atoi(m[1])
			st := c.style
			st.FontSize = float64(s)
			if !Fit(c.text, st, c.box).Fits {
				t.Errorf("font size %d suggested, still does not fit: %v\n%s", s, c, v.Hint)
			}
			if st.FontSize++; st.FontSize < c.style.FontSize && Fit(c.text, st, c.box).Fits {
				t.Errorf("font size %d suggested, %g fits too: %v\n%s", s, st.FontSize, c, v.Hint)
			}
			if s < MinFontSize {
				t.Errorf("font size %d suggested, below the floor %g", s, MinFontSize)
			}
			checked["font"]++
		}
	}
	for _, k := range []string{"shorten", "taller", "wider", "font"} {
		if checked[k] < 10 {
			t.Errorf("only %d hints to %s in the corpus; the test checks too little", checked[k], k)
		}
	}
	t.Logf("hints checked: %v", checked)
}

func TestHintRespectsFontFloor(t *testing.T) {
	text := strings.Repeat("word ", 40)
	v := Fit(text, Style{FontSize: 24, MinFontSize: 20}, Box{W: 200, H: 100})
	if strings.Contains(v.Hint, "font size") {
		t.Errorf("hint suggests a font below the floor of 20: %s", v.Hint)
	}
	v = Fit(text, Style{FontSize: 24}, Box{W: 200, H: 100})
	if !strings.Contains(v.Hint, "use font size") {
		t.Errorf("hint suggests no smaller font: %s", v.Hint)
	}
}

func TestSVG(t *testing.T) {
	l := Wrap("Fish & <chips>\n\nmushy peas", Style{FontSize: 20, Bold: true}, 1000)
	got := l.SVG(Box{X: 10, Y: 20, W: 300, H: 100}, "center", `#1b5e20"`)
	for _, want := range []string{
		`font-family="'Lessongen Go'" font-size="20" font-weight="bold" text-anchor="middle" fill="#1b5e20&#34;"`,
		`<tspan x="160" y="` + coord(20+l.Baseline(0)) + `">Fish &amp; &lt;chips&gt;</tspan>`,
		`<tspan x="160" y="` + coord(20+l.Baseline(2)) + `">mushy peas</tspan>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("SVG lacks %s:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "<tspan"); n != 2 {
		t.Errorf("SVG draws %d lines, want 2 (the blank one takes room but draws nothing)", n)
	}
	if d := l.Baseline(1) - l.Baseline(0); d != 25 {
		t.Errorf("baselines %g apart, want a line height of 25", d)
	}
	if b := l.Baseline(0); b <= 0 || b >= 25 {
		t.Errorf("first baseline %g outside the first line box", b)
	}
	if r := Wrap("x", Style{}, 100).SVG(Box{W: 100}, "right", ""); !strings.Contains(r, `text-anchor="end"`) || !strings.Contains(r, `x="100"`) || strings.Contains(r, "fill") {
		t.Errorf("right-aligned SVG: %s", r)
	}
}

func TestFontsEmbedded(t *testing.T) {
	css := FontFaceCSS()
	for i, bold := range []bool{false, true} {
		m := regexp.MustCompile(`base64,([^)]*)\)`).FindAllStringSubmatch(css, -1)
		if len(m) != 2 {
			t.Fatalf("want two @font-face sources, got %d", len(m))
		}
		data, err := base64.StdEncoding.DecodeString(m[i][1])
		if err != nil || !bytes.Equal(data, TTF(bold)) {
			t.Errorf("@font-face %d is not the measured font (err %v)", i, err)
		}
	}
	ttf := TTF(false)
	ttf[0] ^= 0xff
	if bytes.Equal(ttf, TTF(false)) {
		t.Error("TTF hands out the font itself, not a copy")
	}
}

// Measuring is safe from many goroutines (run with -race), including the
// on-demand lookups of characters beyond the precomputed table.
func TestConcurrentMeasure(t *testing.T) {
	want := Measure("光合作用 \ufffd 👩\u200d🔬 Ж", Style{}).Width
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 200 {
				if got := Measure("光合作用 \ufffd 👩\u200d🔬 Ж", Style{}).Width; got != want {
					t.Errorf("concurrent width %g, want %g", got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

// The Go fonts do not kern; a font that does must have its pairs applied.
// DejaVu Sans (kern and GPOS tables) comes with most Linux systems.
func TestKerningApplied(t *testing.T) {
	ttf, err := os.ReadFile("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
	if err != nil {
		t.Skipf("no DejaVu Sans to test kerning with: %v", err)
	}
	fc := mustFace(ttf)
	if !fc.kerns {
		t.Fatal("DejaVu Sans not recognised as kerning")
	}
	_, a := fc.lookup('A')
	_, v := fc.lookup('V')
	got, _, _ := fc.measure("AV")
	if got >= a+v {
		t.Errorf("AV measures %d font units, unkerned %d: kerning not applied", got, a+v)
	}
	if faceFor(false).kerns || faceFor(true).kerns {
		t.Error("the Go fonts have no kerning tables, yet kerning lookups are on")
	}
}

// Code keeps its lines and spaces, is measured in Go Mono's fixed advance,
// and a line too long overflows the box instead of wrapping.
func TestMonoPreformatted(t *testing.T) {
	st := Style{FontSize: 20, Mono: true}
	l := Wrap("if x:\n\treturn  1   \n", st, 50)
	if want := []string{"if x:", "    return  1"}; !slices.Equal(l.Lines, want) {
		t.Fatalf("lines = %q, want %q", l.Lines, want)
	}
	adv := MonoAdvance * 20
	if got, want := l.Widths[1], 13*adv; math.Abs(got-want) > 0.01 {
		t.Errorf("width of a 13-column line = %g, want %g (13 × %g)", got, want, adv)
	}
	if Measure("iiii", st).Width != Measure("MMMM", st).Width {
		t.Error("code is measured proportionally: iiii and MMMM differ in width")
	}
	if Measure("iiii", Style{FontSize: 20}).Width == Measure("MMMM", Style{FontSize: 20}).Width {
		t.Error("the proportional face measures iiii as wide as MMMM")
	}
	v := Fit("echo hello world", st, Box{W: 100, H: 100})
	if v.Fits || len(v.Lines) != 1 {
		t.Fatalf("a long line of code should overflow on one line, got fits=%v lines=%q", v.Fits, v.Lines)
	}
	if !strings.Contains(v.Hint, "at most 8 characters") {
		t.Errorf("hint %q does not say how many characters fit", v.Hint)
	}
	svg := l.SVG(Box{W: 200, H: 100}, "left", "")
	for _, want := range []string{MonoFamily, "monospace", "white-space:pre", "    return  1"} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q: %s", want, svg)
		}
	}
	if !UsesMono(svg) || UsesMono(Wrap("x", Style{}, 100).SVG(Box{W: 100, H: 40}, "", "")) {
		t.Error("UsesMono does not tell code from text")
	}
}
