package textfit

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rivo/uniseg"
)

// Box is a rectangle in px: where text goes (X, Y: its top-left corner).
type Box struct{ X, Y, W, H float64 }

// Size is a width and a height in px.
type Size struct{ W, H float64 }

// Verdict says whether text fits a box, as the renderer would draw it.
type Verdict struct {
	Layout          // the text wrapped into the box's width
	Fits     bool   // Need is within the box
	Need     Size   // the extent of the wrapped text
	Overflow Size   // how far Need exceeds the box (0 where it does not)
	Hint     string // for text that does not fit: by how much, and what to change; "" when it fits
}

// Fit wraps text into box's width and judges it against box's height.
func Fit(text string, style Style, box Box) Verdict {
	if !(box.W >= 0) { // NaN or negative: no room at all
		box.W = 0
	}
	if !(box.H >= 0) {
		box.H = 0
	}
	l := Wrap(text, style, box.W)
	v := Verdict{Layout: l, Need: Size{l.Width, l.Height}}
	v.Overflow = Size{over(l.Width, box.W), over(l.Height, box.H)}
	v.Fits = v.Overflow == Size{}
	if !v.Fits {
		v.Hint = hint(text, l.Style, box, v)
	}
	return v
}

// over returns how far need exceeds have, ignoring float noise far below a
// pixel.
func over(need, have float64) float64 {
	if need <= have+1e-6 {
		return 0
	}
	return need - max(have, 0)
}

func fits(text string, style Style, box Box) bool {
	l := Wrap(text, style, box.W)
	return over(l.Width, box.W) == 0 && over(l.Height, box.H) == 0
}

// hint names the shortfall and the changes that would each, on its own,
// make the text fit: shorter text, a bigger box, a smaller font.
func hint(text string, style Style, box Box, v Verdict) string {
	var b strings.Builder
	var fixes []string
	wide, tall := v.Overflow.W > 0, v.Overflow.H > 0
	switch {
	case style.Mono:
		monoHint(&b, &fixes, style, box, v)
	case wide && tall:
		fmt.Fprintf(&b, "text needs %s×%s px, the box is %s×%s", px(v.Need.W), px(v.Need.H), num(box.W), num(box.H))
		fixes = append(fixes, fmt.Sprintf("make the box %s px wider and %s px taller", px(v.Overflow.W), px(v.Overflow.H)))
	case wide:
		// Only a single character can be wider than the box: shortening
		// does not help.
		fmt.Fprintf(&b, "text needs %s px of width, the box has %s", px(v.Need.W), num(box.W))
		fixes = append(fixes, fmt.Sprintf("make the box %s px wider", px(v.Overflow.W)))
	default:
		fmt.Fprintf(&b, "text needs %s px of height, the box has %s", px(v.Need.H), num(box.H))
		if n := fittingPrefix(text, style, box); n > 0 {
			fixes = append(fixes, "shorten it to about "+about(n)+" characters")
		}
		taller := "make the box " + px(v.Overflow.H) + " px taller"
		if w, ok := widthFor(text, style, box); ok {
			taller += " (or " + px(w-box.W) + " px wider)"
		}
		fixes = append(fixes, taller)
	}
	if s, ok := sizeFor(text, style, box); ok {
		fixes = append(fixes, "use font size "+strconv.Itoa(s))
	}
	b.WriteString(": ")
	for i, f := range fixes {
		switch {
		case i == 0:
		case i == len(fixes)-1 && len(fixes) == 2:
			b.WriteString(" or ")
		case i == len(fixes)-1:
			b.WriteString(", or ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(f)
	}
	return b.String()
}

// monoHint states code's shortfall by lines and columns: code is never
// wrapped, so its longest line sets its width and its line count its height.
func monoHint(b *strings.Builder, fixes *[]string, style Style, box Box, v Verdict) {
	fmt.Fprintf(b, "code needs %s×%s px, the box is %s×%s", px(v.Need.W), px(v.Need.H), num(box.W), num(box.H))
	if v.Overflow.W > 0 {
		cols := int(box.W / (MonoAdvance * style.Size()))
		*fixes = append(*fixes, fmt.Sprintf("shorten its lines to at most %d characters", cols), "make the box "+px(v.Overflow.W)+" px wider")
	}
	if v.Overflow.H > 0 {
		lines := int(box.H/(LineHeight*style.Size()) + 1e-6)
		*fixes = append(*fixes, fmt.Sprintf("cut it to %d lines", lines), "make the box "+px(v.Overflow.H)+" px taller")
	}
}

// MonoAdvance is the width of a character of code in em: Go Mono's
// advance, 1229 of its 2048 units.
const MonoAdvance = 1229.0 / 2048

// fittingPrefix returns how many characters (grapheme clusters) of text fit
// the box. More text never takes fewer lines, so a binary search finds it.
func fittingPrefix(text string, style Style, box Box) int {
	var ends []int
	g := uniseg.NewGraphemes(text)
	for g.Next() {
		_, to := g.Positions()
		ends = append(ends, to)
	}
	lo, hi := 0, len(ends) // ends[:lo] fits; ends[:hi+1] does not
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(text[:ends[mid-1]], style, box) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// sizeFor returns the largest whole font size, below the current one and
// not below the style's floor, at which the text fits. A smaller font never
// takes more height, so a binary search finds it.
func sizeFor(text string, style Style, box Box) (int, bool) {
	lo, hi := int(math.Ceil(style.minSize())), int(math.Ceil(style.Size()))-1
	at := func(s int) bool { style.FontSize = float64(s); return fits(text, style, box) }
	if lo > hi || !at(lo) {
		return 0, false
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if at(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, true
}

// widthFor returns the smallest whole width at which the text fits the box's
// height, if making the box wider can help at all.
func widthFor(text string, style Style, box Box) (float64, bool) {
	natural := Measure(text, style)
	if over(natural.Height, box.H) > 0 {
		return 0, false
	}
	lo, hi := math.Floor(box.W)+1, math.Ceil(natural.Width)
	at := func(w float64) bool { box.W = w; return fits(text, style, box) }
	if lo > hi {
		return hi, at(hi)
	}
	for lo < hi {
		mid := math.Floor((lo + hi) / 2)
		if at(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo, true
}

// px rounds a needed amount up, so following the hint is always enough.
func px(v float64) string { return strconv.FormatFloat(math.Ceil(v-1e-6), 'f', -1, 64) }

func num(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }

// about rounds a character count down to a round number.
func about(n int) string {
	switch {
	case n >= 100:
		n -= n % 10
	case n >= 20:
		n -= n % 5
	}
	return strconv.Itoa(n)
}
