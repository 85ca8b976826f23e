// Package textfit is lessongen's text layout model: it measures text with the
// real metrics of a font compiled into the binary, wraps it into a box the
// way the renderer draws it, and says whether it fits and, if not, what to
// change. Validation, the tool results a model sees, and rendering all use
// it, so they agree by construction; the SVG it writes places each line
// exactly where the measurement put it.
//
// The rules, in one place:
//   - Lines break at explicit newlines and at spaces; runs of spaces and tabs
//     collapse to one space (as SVG draws them), and trailing blank lines are
//     dropped (a YAML block scalar ends with a newline that is not a line).
//   - A word wider than the box breaks between characters (grapheme
//     clusters, so an accented letter or an emoji sequence never splits).
//   - A line is LineHeight × font size tall; text needs lines × that.
//   - A character the font lacks (CJK, Arabic, Hebrew, emoji, …) is drawn by
//     the viewer's fallback fonts, whose widths are unknown here; it is
//     measured as a full em (an emoji as 1.25 em, as colour emoji fonts draw
//     it), which is right for CJK and errs on the safe side for most other
//     scripts.
//
// It imports no modality: whiteboard and render call it.
package textfit

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
	"golang.org/x/image/font/sfnt"
)

const (
	// DefaultFontSize is the font size in px of text that sets none.
	DefaultFontSize = 24.0
	// LineHeight is the height of one line as a multiple of the font size.
	LineHeight = 1.25
	// MinFontSize is the smallest font size a hint suggests unless the
	// style asks for a larger floor (whiteboard accepts 6 to 200).
	MinFontSize = 6.0
	// missingAdvance is the width, in em, of a character the font lacks.
	missingAdvance = 1.0
	// emojiAdvance is the width, in em, of an emoji: colour emoji fonts draw
	// them wider than an em (Noto Color Emoji 1.245, Apple Color Emoji 1.25).
	emojiAdvance = 1.25
)

// Style is what measuring needs to know about how text is drawn.
type Style struct {
	FontSize float64 // px; 0 (or not a positive number) means DefaultFontSize
	Bold     bool
	// MinFontSize is the smallest font size Fit's hint may suggest, e.g. the
	// smallest that reads well on the canvas; 0 means MinFontSize.
	MinFontSize float64
	// Mono is code: measured and drawn in Go Mono (never bold), each line
	// as written (tabs to the next multiple of TabWidth, spaces kept),
	// never wrapped: a line too long for its box overflows it.
	Mono bool
}

// TabWidth is how many columns a tab in code advances to the next multiple of.
const TabWidth = 4

// Size returns the font size in px that s stands for.
func (s Style) Size() float64 {
	if !(s.FontSize > 0) || math.IsInf(s.FontSize, 0) {
		return DefaultFontSize
	}
	return s.FontSize
}

func (s Style) minSize() float64 {
	if s.MinFontSize > 0 {
		return s.MinFontSize
	}
	return MinFontSize
}

// Layout is text broken into lines, with the measured width of each.
type Layout struct {
	Lines  []string  // the lines as drawn: no leading, trailing or repeated spaces
	Widths []float64 // px, one per line
	Width  float64   // px, the widest line
	Height float64   // px, len(Lines) × LineHeight × font size
	Style  Style     // the style measured, FontSize resolved
}

// LineHeightPx returns the height of one line in px.
func (l Layout) LineHeightPx() float64 { return LineHeight * l.Style.Size() }

// Baseline returns the y of line i's baseline below the top of the text: the
// line box is LineHeightPx tall and the font's ascent plus descent sits in
// its middle, as CSS places it.
func (l Layout) Baseline(i int) float64 {
	fc := l.Style.face()
	scale := l.Style.Size() / float64(fc.upem)
	lh := l.LineHeightPx()
	content := float64(fc.ascent+fc.descent) * scale
	return float64(i)*lh + (lh-content)/2 + float64(fc.ascent)*scale
}

// Measure lays out text without a width limit: lines break only at newlines.
func Measure(text string, style Style) Layout {
	return Wrap(text, style, math.Inf(1))
}

// Wrap lays out text into lines no wider than width px where it can: a line
// is wider only when a single character is.
func Wrap(text string, style Style, width float64) Layout {
	style.FontSize = style.Size()
	style.Bold = style.Bold && !style.Mono
	fc := style.face()
	scale := style.FontSize / float64(fc.upem)
	w := wrapper{fc: fc, limit: width/scale + 1e-6}
	w.space, w.spaceAdv = fc.lookup(' ')
	hard := strings.Split(strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n"), "\n")
	for len(hard) > 0 && strings.TrimFunc(hard[len(hard)-1], isSpace) == "" {
		hard = hard[:len(hard)-1]
	}
	for _, h := range hard {
		if style.Mono {
			w.preformatted(h)
			continue
		}
		w.hardLine(h)
	}
	l := Layout{Lines: w.lines, Widths: make([]float64, len(w.units)), Style: style}
	for i, u := range w.units {
		l.Widths[i] = float64(u) * scale
		l.Width = max(l.Width, l.Widths[i])
	}
	l.Height = float64(len(l.Lines)) * LineHeight * style.FontSize
	return l
}

func isSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\v' || r == '\f' }

// wrapper is the state of one greedy line breaking, in font units.
type wrapper struct {
	fc       *face
	limit    float64
	space    sfnt.GlyphIndex
	spaceAdv int
	lines    []string
	units    []int

	cur      []string // words of the line being filled
	curUnits int
	curLast  sfnt.GlyphIndex
}

func (w *wrapper) flush() {
	w.lines = append(w.lines, strings.Join(w.cur, " "))
	w.units = append(w.units, w.curUnits)
	w.cur, w.curUnits, w.curLast = w.cur[:0], 0, 0
}

func (w *wrapper) hardLine(h string) {
	for word := range strings.FieldsFuncSeq(h, isSpace) {
		units, first, last := w.fc.measure(word)
		if len(w.cur) > 0 {
			add := w.fc.kern(w.curLast, w.space) + w.spaceAdv + w.fc.kern(w.space, first) + units
			if float64(w.curUnits+add) <= w.limit {
				w.cur = append(w.cur, word)
				w.curUnits += add
				w.curLast = last
				continue
			}
			w.flush()
		}
		if float64(units) > w.limit {
			w.breakWord(word)
			continue
		}
		w.cur = append(w.cur, word)
		w.curUnits, w.curLast = units, last
	}
	w.flush() // also the empty line of a blank hard line
}

// preformatted keeps a line of code as written, tabs expanded and trailing
// spaces dropped, on a line of its own however wide.
func (w *wrapper) preformatted(h string) {
	h = strings.TrimRightFunc(ExpandTabs(h), isSpace)
	units, _, _ := w.fc.measure(h)
	w.lines = append(w.lines, h)
	w.units = append(w.units, units)
}

// ExpandTabs turns each tab of a line of code into the spaces that reach
// the next multiple of TabWidth columns, as code is drawn.
func ExpandTabs(line string) string {
	if !strings.ContainsRune(line, '\t') {
		return line
	}
	var b strings.Builder
	col := 0
	for _, r := range line {
		if r == '\t' {
			n := TabWidth - col%TabWidth
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

// breakWord puts as many characters on each line as fit (at least one), and
// leaves the rest as the start of the line being filled.
func (w *wrapper) breakWord(word string) {
	start, units := 0, 0
	var prev sfnt.GlyphIndex
	for i := 0; i < len(word); {
		end, g, a := w.fc.cluster(word, i)
		k := w.fc.kern(prev, g)
		if i > start && float64(units+k+a) > w.limit {
			w.cur, w.curUnits = append(w.cur, word[start:i]), units
			w.flush()
			start, units, k = i, 0, 0
		}
		units += k + a
		prev, i = g, end
	}
	w.cur, w.curUnits, w.curLast = append(w.cur, word[start:]), units, prev
}

// measure returns the width of s in font units and its first and last glyph
// (for kerning against neighbours).
func (fc *face) measure(s string) (units int, first, last sfnt.GlyphIndex) {
	for i := 0; i < len(s); {
		end, g, a := fc.cluster(s, i)
		if i == 0 {
			first = g
		} else {
			units += fc.kern(last, g)
		}
		units += a
		last, i = g, end
	}
	return units, first, last
}

// cluster measures the grapheme cluster of s starting at byte i: its end,
// the glyph of its first character (0 if the font lacks it, or the cluster
// has more than one character) and its advance in font units. A cluster is
// as wide as its first character: combining marks, joiners and variation
// selectors add nothing, and an emoji sequence is drawn as one glyph.
func (fc *face) cluster(s string, i int) (end int, g sfnt.GlyphIndex, adv int) {
	var r rune
	cl, cells := "", 1
	var n int
	if c := s[i]; c < utf8.RuneSelf && (i+1 == len(s) || s[i+1] < utf8.RuneSelf) {
		end, r = i+1, rune(c)
	} else if r, n = utf8.DecodeRuneInString(s[i:]); simple(r) && (i+n == len(s) || simple(nextRune(s[i+n:]))) {
		end = i + n
	} else {
		cl, _, cells, _ = uniseg.FirstGraphemeClusterInString(s[i:], -1)
		r, _ = utf8.DecodeRuneInString(cl)
		end = i + len(cl)
	}
	if r < 0x20 || (r >= 0x7f && r < 0xa0) || (r >= 0x300 && unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf)) || r == 0xad {
		return end, 0, 0 // not drawn on its own
	}
	g, adv = fc.lookup(r)
	switch {
	case g == 0 && isEmoji(r, cl, cells):
		adv = int(emojiAdvance * float64(fc.upem))
	case g == 0:
		adv = int(missingAdvance * float64(fc.upem))
	}
	if utf8.RuneLen(r) != len(cl) && cl != "" {
		g = 0
	}
	return end, g, adv
}

// simple reports whether r is a character that forms a grapheme cluster on
// its own when the next character is simple too: the common letters of the
// Latin, Greek, Cyrillic and CJK blocks, which skip the costlier general
// segmentation.
func simple(r rune) bool {
	return (r >= 0x20 && r < 0x300) || (r >= 0x370 && r < 0x483) || (r >= 0x48a && r < 0x530) || (r >= 0x4e00 && r < 0xa000)
}

func nextRune(s string) rune {
	if s[0] < utf8.RuneSelf {
		return rune(s[0])
	}
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// isEmoji reports whether a cluster starting with r is drawn as an emoji
// (in colour, from an emoji font): a flag, a sequence with an emoji
// presentation selector or skin tone, or a pictograph whose default
// presentation is emoji (two terminal cells wide, as uniseg reports).
func isEmoji(r rune, cl string, cells int) bool {
	switch {
	case r >= 0x1f1e6 && r <= 0x1f1ff: // regional indicators: flags
		return true
	case strings.ContainsRune(cl, 0xfe0f) || strings.ContainsAny(cl, "\U0001F3FB\U0001F3FC\U0001F3FD\U0001F3FE\U0001F3FF"):
		return true
	}
	return cells == 2 && ((r >= 0x2300 && r < 0x2c00) || (r >= 0x1f000 && r < 0x1fb00))
}
