package whiteboard

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"strings"
	"sync"
	"unicode"

	"github.com/lessongen/lessongen/internal/textfit"
	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// An equation is also drawn as a picture: the fallback a deck carries for
// viewers that do not draw Office Math (LibreOffice without its Math
// module, Google Slides, Keynote). It is laid out here from the same tree
// (mathtree.go) the way the board's MathML is drawn — stacked fractions,
// scripts at 71%, roots, bars, strikes, accents, arrows with their label,
// matrices and aligned lines in their fences — in the board's typeface
// (Go Regular and Bold, compiled into the binary), and rasterised by
// golang.org/x/image/vector, the rasteriser of the module the font already
// comes from. Compared: github.com/fogleman/gg draws the same but wraps
// golang/freetype (unmaintained since 2017) and adds two modules;
// github.com/srwiley/rasterx and tdewolff/canvas are larger and add fonts
// and dependencies for nothing this needs. No browser: the deck is made
// without one. A glyph the font lacks is drawn as the font's missing-glyph
// box, so it still shows that something is there.

// mathItem is one thing the picture draws, in em from its box's left
// edge and baseline (y down): a run of text, a filled rectangle or a
// stroked line.
type mathItem struct {
	kind           byte // 't' text, 'r' rectangle, 'l' line
	x, y, w, h     float64
	x2, y2         float64
	text           string
	size           float64 // text: em of the base size
	italic, source bool
	stretch        float64 // text: vertical stretch (tall fences), 0 for none
}

// mathBox is a laid-out node: its width, height above and depth below
// the baseline, in em of the base size, and what it draws.
type mathBox struct {
	w, asc, desc float64
	items        []mathItem
}

// add places o's items with its left edge at x and baseline at y.
func (b *mathBox) add(o mathBox, x, y float64) {
	for _, it := range o.items {
		it.x += x
		it.y += y
		it.x2 += x
		it.y2 += y
		b.items = append(b.items, it)
	}
}

// Metrics of the layout, in em of the current size: the axis (where a
// fraction bar sits), rule thickness, and how high text reaches.
const (
	mathAxis  = 0.27
	mathRule  = 0.06
	mathAsc   = 0.78
	mathDesc  = 0.22
	scriptMul = 0.71
)

// mathRelations and mathBinary get space round them, as MathML's
// operator dictionary gives them (0.28 em and 0.22 em a side).
var (
	mathRelations = "=<>≤≥≠≈→←↔⇒⇌∝∈∼≡"
	mathBinary    = "+−×÷·±∓*/∘"
)

func layoutMath(n *mathNode, s float64) mathBox {
	switch n.kind {
	case mRow:
		return layoutRow(n, s)
	case mIdent:
		// Italic as the board sets it; capital Greek upright, as TeX does.
		r := []rune(n.text)
		italic := !(len(r) == 1 && unicode.IsUpper(r[0]) && unicode.In(r[0], unicode.Greek))
		return textBox(n.text, s, italic, false)
	case mNum, mText:
		return textBox(n.text, s, false, false)
	case mOp:
		return layoutOp(n.text, s, false)
	case mSource:
		return textBox(n.text, s*0.8, false, true)
	case mSpace:
		return mathBox{w: emWidthOf(n.text) * s, asc: mathAsc * s, desc: mathDesc * s}
	case mTable:
		return layoutTable(n, s)
	case mFrac:
		return layoutFrac(layoutMath(n.kids[0], s), layoutMath(n.kids[1], s), s)
	case mSqrt:
		return layoutRoot(layoutMath(n.kids[0], s), nil, s)
	case mRoot:
		idx := layoutMath(n.kids[1], s*0.5)
		return layoutRoot(layoutMath(n.kids[0], s), &idx, s)
	case mSup, mSub, mSubSup:
		return layoutScripts(n, s)
	case mOverline, mUnderline, mCancel:
		return layoutDecor(n.kind, layoutMath(n.kids[0], s), s)
	case mAccent:
		return layoutAccent(n.text, layoutMath(n.kids[0], s), s)
	case mOverArrow:
		return layoutArrow(n.text, layoutMath(n.kids[0], s*0.7), s)
	}
	return mathBox{}
}

// layoutRow sets a row's kids side by side. Its fences ("(", "|", a
// \left or \right delimiter, scripted or not) grow to the height of the
// rest, centred on the axis, as MathML stretches them.
func layoutRow(n *mathNode, s float64) mathBox {
	boxes := make([]mathBox, len(n.kids))
	asc, desc := mathAsc*s, mathDesc*s
	for i, k := range n.kids {
		if fenceOf(k) == "" {
			boxes[i] = layoutMath(k, s)
			asc, desc = max(asc, boxes[i].asc), max(desc, boxes[i].desc)
		}
	}
	// The height a fence covers, symmetric about the axis.
	half := max(asc-mathAxis*s, desc+mathAxis*s)
	for i, k := range n.kids {
		switch f := fenceOf(k); {
		case f == "":
		case k.kind == mOp && half > 0.6*s:
			boxes[i] = layoutFence(f, s, half)
		case k.kind == mOp:
			boxes[i] = layoutOp(k.text, s, i == 0)
		case half > 0.6*s:
			fence := layoutFence(f, s, half)
			boxes[i] = layoutScriptsOn(k, fence, s)
		default:
			boxes[i] = layoutMath(k, s)
		}
	}
	var b mathBox
	b.asc, b.desc = mathAsc*s, mathDesc*s
	for i, k := range n.kids {
		kb := boxes[i]
		if k.kind == mOp && fenceOf(k) == "" {
			kb = layoutOp(k.text, s, i == 0)
		}
		b.add(kb, b.w, 0)
		b.w += kb.w
		b.asc, b.desc = max(b.asc, kb.asc), max(b.desc, kb.desc)
	}
	return b
}

// mathFenceChars are the delimiters that stretch.
const mathFenceChars = "()[]{}|‖"

// fenceOf is the delimiter k is ("(", or the base of ")^2"), "" for none.
func fenceOf(k *mathNode) string {
	if k.kind == mSup || k.kind == mSub || k.kind == mSubSup {
		if b := k.kids[0]; b.kind == mRow && len(b.kids) == 1 {
			k = b.kids[0]
		} else {
			k = b
		}
	}
	if k.kind == mOp && len([]rune(k.text)) == 1 && strings.Contains(mathFenceChars, k.text) {
		return k.text
	}
	return ""
}

// layoutFence is a delimiter reaching half above and below the axis.
func layoutFence(f string, s, half float64) mathBox {
	h := 2 * half
	b := mathBox{w: 0.45 * s, asc: mathAxis*s + half, desc: half - mathAxis*s}
	b.items = append(b.items, fenceItems(f, 0.05*s, -b.asc, h, s)...)
	return b
}

func textBox(t string, s float64, italic, source bool) mathBox {
	w := emWidth(t, false) * s
	if italic {
		w += 0.05 * s // the slant leans past the advance
	}
	return mathBox{w: w, asc: mathAsc * s, desc: mathDesc * s,
		items: []mathItem{{kind: 't', text: t, size: s, italic: italic, source: source}}}
}

// drawnOps are operators the board's font lacks, drawn as strokes (em,
// baseline at 0, y down), so a chemistry equation's ⇌ is not a box.
var drawnOps = map[string]struct {
	w     float64
	lines [][4]float64
}{
	"⇌": {1.1, [][4]float64{{0.05, -0.37, 1.05, -0.37}, {1.05, -0.37, 0.8, -0.52}, {0.05, -0.19, 1.05, -0.19}, {0.05, -0.19, 0.3, -0.04}}},
	"⇒": {1.1, [][4]float64{{0.05, -0.36, 0.95, -0.36}, {0.05, -0.2, 0.95, -0.2}, {1.05, -0.28, 0.8, -0.5}, {1.05, -0.28, 0.8, -0.06}}},
	"∓": {0.56, [][4]float64{{0.06, -0.62, 0.5, -0.62}, {0.06, -0.3, 0.5, -0.3}, {0.28, -0.5, 0.28, -0.08}}},
}

func opBox(t string, s float64) mathBox {
	d, ok := drawnOps[t]
	if !ok || mathHas(t) {
		return textBox(t, s, false, false)
	}
	b := mathBox{w: d.w * s, asc: mathAsc * s, desc: mathDesc * s}
	for _, l := range d.lines {
		b.items = append(b.items, mathItem{kind: 'l', x: l[0] * s, y: l[1] * s, x2: l[2] * s, y2: l[3] * s, w: mathRule * s})
	}
	return b
}

// mathHas reports whether the board's font has every character of t.
func mathHas(t string) bool {
	f := mathFaces()[0]
	var buf sfnt.Buffer
	for _, r := range t {
		if g, err := f.GlyphIndex(&buf, r); err != nil || g == 0 {
			return false
		}
	}
	return true
}

func layoutOp(t string, s float64, first bool) mathBox {
	b := opBox(t, s)
	space := 0.0
	switch {
	case strings.Contains(mathRelations, t):
		space = 0.28
	case strings.Contains(mathBinary, t) && !first:
		space = 0.22
	case t == ",":
		b.w += 0.17 * s
		return b
	}
	out := mathBox{w: b.w + 2*space*s, asc: b.asc, desc: b.desc}
	out.add(b, space*s, 0)
	return out
}

func layoutFrac(num, den mathBox, s float64) mathBox {
	w := max(num.w, den.w) + 0.2*s
	axis, gap, rule := mathAxis*s, 0.15*s, mathRule*s
	up := axis + rule/2 + gap + num.desc // num baseline above the baseline
	down := -axis + rule/2 + gap + den.asc
	b := mathBox{w: w, asc: up + num.asc, desc: down + den.desc}
	b.add(num, (w-num.w)/2, -up)
	b.add(den, (w-den.w)/2, down)
	b.items = append(b.items, mathItem{kind: 'r', x: 0.05 * s, y: -axis - rule/2, w: w - 0.1*s, h: rule})
	return b
}

func layoutRoot(e mathBox, idx *mathBox, s float64) mathBox {
	rule, gap := mathRule*s, 0.12*s
	top := e.asc + gap // the bar's centre above the baseline
	bottom := e.desc + 0.05*s
	sign := 0.75 * s
	left := 0.0
	if idx != nil {
		left = max(idx.w-0.35*s, 0)
	}
	b := mathBox{w: left + sign + e.w + 0.1*s, asc: top + rule, desc: bottom}
	x0 := left
	h := top + bottom
	// The radical sign: a short rise, a tick down to the foot, a long
	// stroke up to the bar, and the bar over the radicand.
	pts := [][2]float64{{x0 + 0.05*s, -top + h*0.55}, {x0 + 0.2*s, -top + h*0.48}, {x0 + 0.42*s, bottom}, {x0 + sign - 0.05*s, -top}, {b.w, -top}}
	for i := 1; i < len(pts); i++ {
		w := rule
		if i == 2 {
			w = rule * 1.6 // the down-stroke is the heavy one, as in a font
		}
		b.items = append(b.items, mathItem{kind: 'l', x: pts[i-1][0], y: pts[i-1][1], x2: pts[i][0], y2: pts[i][1], w: w})
	}
	if idx != nil {
		// The index sits over the rise, its foot a little above the middle.
		b.add(*idx, 0, -top+h*0.45-idx.desc)
		b.asc = max(b.asc, top-h*0.45+idx.desc+idx.asc)
	}
	b.add(e, x0+sign, 0)
	return b
}

func layoutScripts(n *mathNode, s float64) mathBox {
	return layoutScriptsOn(n, layoutMath(n.kids[0], s), s)
}

// layoutScriptsOn sets n's scripts on base, laid out already.
func layoutScriptsOn(n *mathNode, base mathBox, s float64) mathBox {
	ss := s * scriptMul
	b := mathBox{w: base.w, asc: base.asc, desc: base.desc}
	b.add(base, 0, 0)
	var sub, sup *mathBox
	switch n.kind {
	case mSup:
		k := layoutMath(n.kids[1], ss)
		sup = &k
	case mSub:
		k := layoutMath(n.kids[1], ss)
		sub = &k
	case mSubSup:
		k1, k2 := layoutMath(n.kids[1], ss), layoutMath(n.kids[2], ss)
		sub, sup = &k1, &k2
	}
	w := 0.0
	if sup != nil {
		up := max(0.42*s, base.asc-0.35*s)
		b.add(*sup, base.w+0.03*s, -up)
		b.asc = max(b.asc, up+sup.asc)
		w = sup.w + 0.03*s
	}
	if sub != nil {
		down := max(0.2*s, base.desc+0.05*s)
		if sup != nil {
			down = max(down, 0.3*s)
		}
		b.add(*sub, base.w, down)
		b.desc = max(b.desc, down+sub.desc)
		w = max(w, sub.w)
	}
	b.w += w + 0.02*s
	return b
}

func layoutDecor(kind mathKind, e mathBox, s float64) mathBox {
	rule := mathRule * s
	b := mathBox{w: e.w, asc: e.asc, desc: e.desc}
	b.add(e, 0, 0)
	switch kind {
	case mOverline:
		y := -e.asc - 0.08*s
		b.items = append(b.items, mathItem{kind: 'r', x: 0, y: y - rule, w: e.w, h: rule})
		b.asc += 0.08*s + rule
	case mUnderline:
		y := e.desc + 0.08*s
		b.items = append(b.items, mathItem{kind: 'r', x: 0, y: y, w: e.w, h: rule})
		b.desc += 0.08*s + rule
	case mCancel:
		b.items = append(b.items, mathItem{kind: 'l', x: 0, y: e.desc - 0.05*s, x2: e.w, y2: -e.asc + 0.1*s, w: rule})
	}
	return b
}

func layoutAccent(a string, e mathBox, s float64) mathBox {
	lift := 0.42 * s
	if a == "→" {
		lift = 0.55 * s // an arrow's glyph sits lower, on the axis
	}
	b := mathBox{w: e.w, asc: e.asc + lift, desc: e.desc}
	b.add(e, 0, 0)
	acc := textBox(a, s, false, false)
	// The accent's glyph sits high in its em; lift it clear of the base.
	b.add(acc, (e.w-acc.w)/2, -(e.asc-mathAsc*s)-lift)
	return b
}

// layoutArrow is \xrightarrow{label}: an arrow as wide as its label, the
// label small above it.
func layoutArrow(arrow string, label mathBox, s float64) mathBox {
	w := max(label.w+0.5*s, 1.2*s)
	pad := 0.28 * s
	b := mathBox{w: w + 2*pad, asc: mathAxis*s + 0.12*s + label.desc + label.asc, desc: mathDesc * s}
	y := -mathAxis * s
	x1, x2 := pad, pad+w
	head := 0.22 * s
	if arrow == "←" {
		x1, x2 = x2, x1
		head = -head
	}
	rule := mathRule * s
	b.items = append(b.items,
		mathItem{kind: 'l', x: x1, y: y, x2: x2, y2: y, w: rule},
		mathItem{kind: 'l', x: x2 - head, y: y - math.Abs(head)*0.6, x2: x2, y2: y, w: rule},
		mathItem{kind: 'l', x: x2 - head, y: y + math.Abs(head)*0.6, x2: x2, y2: y, w: rule})
	b.add(label, pad+(w-label.w)/2, y-0.12*s-label.desc)
	return b
}

// layoutTable sets a matrix, cases or aligned lines on the axis, in its
// fences: aligned lines alternate right- and left-aligned columns with no
// gap in a pair, as amsmath sets them.
func layoutTable(n *mathNode, s float64) mathBox {
	aligned := strings.HasPrefix(n.text, "align") || n.text == "gathered"
	padX, padY := 0.5*s, 0.2*s
	if aligned || n.text == "cases" {
		padX, padY = 0, 0.15*s
	}
	var cells [][]mathBox
	var cols []float64
	for _, row := range n.rows {
		var out []mathBox
		for i, c := range row {
			cb := layoutMath(c, s)
			if i >= len(cols) {
				cols = append(cols, 0)
			}
			cols[i] = max(cols[i], cb.w)
			out = append(out, cb)
		}
		cells = append(cells, out)
	}
	gap := func(i int) float64 { // before column i
		switch {
		case aligned && i%2 == 0:
			return 1 * s // between pairs
		case aligned:
			return 0
		case n.text == "cases":
			return 1 * s
		}
		return 2 * padX
	}
	w := 0.0
	for i, c := range cols {
		if i > 0 {
			w += gap(i)
		}
		w += c
	}
	var b mathBox
	y := 0.0
	var tops []float64
	for _, row := range cells {
		asc, desc := mathAsc*s, mathDesc*s
		for _, c := range row {
			asc, desc = max(asc, c.asc), max(desc, c.desc)
		}
		y += padY + asc
		x := 0.0
		for i, c := range row {
			if i > 0 {
				x += gap(i)
			}
			off := (cols[i] - c.w) / 2
			if aligned && i%2 == 0 {
				off = cols[i] - c.w
			} else if aligned || n.text == "cases" {
				off = 0
			}
			b.add(c, x+off, y)
			x += cols[i]
		}
		tops = append(tops, y)
		y += desc + padY
	}
	h := y
	// Centre the table on the axis.
	shift := -mathAxis*s - h/2
	inner := mathBox{w: w, asc: -shift, desc: h + shift}
	inner.add(b, 0, shift)
	fence, ok := mathEnvs[n.text]
	if !ok || fence == [2]string{} {
		return inner
	}
	fw := 0.45 * s
	out := mathBox{w: inner.w + 2*fw, asc: inner.asc + 0.05*s, desc: inner.desc + 0.05*s}
	if fence[1] == "" {
		out.w -= fw
	}
	out.add(inner, fw, 0)
	for i, f := range fence {
		if f == "" {
			continue
		}
		x := 0.05 * s
		if i == 1 {
			x = fw + inner.w + 0.05*s
		}
		out.items = append(out.items, fenceItems(f, x, -inner.asc, h, s)...)
	}
	return out
}

// fenceItems draw a delimiter as tall as h, top at y: the font's glyph
// stretched upright, which keeps its strokes' width across; ‖, which the
// font lacks, as two rules.
func fenceItems(f string, x, y, h, s float64) []mathItem {
	if f == "‖" {
		return []mathItem{
			{kind: 'l', x: x + 0.1*s, y: y, x2: x + 0.1*s, y2: y + h, w: mathRule * s},
			{kind: 'l', x: x + 0.25*s, y: y, x2: x + 0.25*s, y2: y + h, w: mathRule * s},
		}
	}
	// A glyph runs from about 0.75 em above the baseline to 0.2 below.
	stretch := h / (0.95 * s)
	return []mathItem{{kind: 't', text: f, size: s, x: x, y: y + 0.75*s*stretch, stretch: stretch}}
}

// mathFaces are the board's fonts parsed for drawing (regular, bold).
var mathFaces = sync.OnceValue(func() [2]*sfnt.Font {
	var out [2]*sfnt.Font
	for i := range out {
		f, err := sfnt.Parse(textfit.TTF(i == 1))
		if err != nil {
			panic("whiteboard: embedded font: " + err.Error()) // a broken build
		}
		out[i] = f
	}
	return out
})

// pictureDPI is how many pixels an equation's picture has per inch of
// the slide: twice a default board's (1280 px across the 13.33 in slide),
// sharp on a slide shown full screen. maxPicturePixels bounds a huge
// box's picture, lowering its resolution.
const (
	pictureDPI       = 192.0
	maxPicturePixels = 4 << 20
)

// equationPicture is the deck's fallback picture of an equation in box
// (canvas px), in the text ink c, at scale pixels a canvas pixel, and
// where it goes (canvas px): the
// equation's own bounds within box, as PowerPoint fits an equation's box
// to it, so the picture has no empty margin to compress. The same
// equation in a box of the same size and style is drawn once.
func equationPicture(src string, box textfit.Box, style textfit.Style, c Color, scale float64) ([]byte, textfit.Box) {
	k := pictureKey{src, box.W, box.H, style, c, scale}
	pictures.Lock()
	p, ok := pictures.m[k]
	pictures.Unlock()
	if !ok {
		p = drawPicture(k)
		pictures.Lock()
		if len(pictures.m) >= maxPictures {
			clear(pictures.m)
		}
		pictures.m[k] = p
		pictures.Unlock()
	}
	at := p.at
	at.X += box.X
	at.Y += box.Y
	return p.png, at
}

type pictureKey struct {
	src   string
	w, h  float64
	style textfit.Style
	c     Color
	scale float64
}

type eqPicture struct {
	png []byte
	at  textfit.Box // within the box, from its top left corner
}

// pictures are the pictures drawn so far, up to maxPictures: a deck
// repeats an equation on several slides, and a deck of thousands of
// different ones does not keep them all.
var pictures = struct {
	sync.Mutex
	m map[pictureKey]eqPicture
}{m: map[pictureKey]eqPicture{}}

const maxPictures = 256

func drawPicture(k pictureKey) eqPicture {
	scale := max(k.scale, 0.01)
	if a := k.w * k.h * scale * scale; a > maxPicturePixels {
		scale *= math.Sqrt(maxPicturePixels / a)
	}
	w, h := max(int(math.Round(k.w*scale)), 1), max(int(math.Round(k.h*scale)), 1)
	v, ok := k.c.parse()
	if !ok {
		v, _ = defaultInk.parse()
	}
	b := func(f float64) uint8 { return uint8(math.Round(min(max(f, 0), 1) * 255)) }
	data, r := equationPNG(k.src, w, h, scale, k.style, color.NRGBA{b(v.r), b(v.g), b(v.b), b(v.a)})
	// min: a box under a pixel still gets a one-pixel picture, inside it.
	return eqPicture{data, textfit.Box{X: float64(r.Min.X) / scale, Y: float64(r.Min.Y) / scale,
		W: min(float64(r.Dx())/scale, k.w), H: min(float64(r.Dy())/scale, k.h)}}
}

// equationPNG draws src as a transparent PNG in ink, laid out as the
// board draws it in a box of w × h pixels: the font size the board picks
// for a box w/scale × h/scale px (style's size, or as large as fits up to
// 48 px), shrunk if the layout is wider, centred. Past a bound
// (latexLimit) it draws the source as text, as the board does. The PNG
// holds the part of the box the equation covers (with a margin for
// slanted letters), r.
func equationPNG(src string, w, h int, scale float64, style textfit.Style, ink color.NRGBA) (data []byte, r image.Rectangle) {
	var tree *mathNode
	if latexLimit(src) != "" {
		tree = &mathNode{kind: mRow, kids: []*mathNode{{kind: mText, text: src}}}
	} else {
		tree, _ = parseLatex(src)
	}
	bw, bh := float64(w)/scale, float64(h)/scale
	size := style.FontSize
	if size == 0 {
		size = min(48, bh*0.5)
	}
	ew, eh := mathSize(tree)
	size = max(min(size, bw/max(ew*1.1, 0.1), bh/max(eh*1.2, 0.1)), 8)
	lay := layoutMath(tree, 1)
	// The board clips an equation wider than its box; a picture shrinks it.
	size = min(size, bw/max(lay.w, 0.01), bh/max(lay.asc+lay.desc, 0.01))
	px := size * scale // pixels per em
	x0 := (float64(w) - lay.w*px) / 2
	y0 := (float64(h)-(lay.asc+lay.desc)*px)/2 + lay.asc*px
	m := 0.2 * px
	r = image.Rect(int(math.Floor(x0-m)), int(math.Floor(y0-lay.asc*px-m)), int(math.Ceil(x0+lay.w*px+m)), int(math.Ceil(y0+lay.desc*px+m))).
		Intersect(image.Rect(0, 0, w, h))
	if r.Empty() {
		r = image.Rect(0, 0, 1, 1)
	}
	mask := image.NewAlpha(r)
	d := &mathDrawer{mask: mask, face: mathFaces()[boolIndex(style.Bold)]}
	for _, it := range lay.items {
		d.draw(it, x0, y0, px)
	}
	// One ink at 256 opacities: the coverage mask is the picture's
	// palette indexes as it stands (a byte a pixel, a quarter of RGBA's to
	// compress), and PNG keeps each entry's opacity (tRNS).
	pal := make(color.Palette, 256)
	for i := range pal {
		pal[i] = color.NRGBA{ink.R, ink.G, ink.B, uint8(i * int(ink.A) / 255)}
	}
	img := &image.Paletted{Pix: mask.Pix, Stride: mask.Stride, Rect: mask.Rect, Palette: pal}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: pngBuffers{}}
	_ = enc.Encode(&b, img) // encoding to memory cannot fail
	return b.Bytes(), r
}

// pngBuffers keeps the PNG encoder's state (its compressor is a large
// allocation) from one picture to the next.
type pngBuffers struct{}

var pngPool sync.Pool

func (pngBuffers) Get() *png.EncoderBuffer {
	b, _ := pngPool.Get().(*png.EncoderBuffer)
	return b // nil: the encoder makes one
}

func (pngBuffers) Put(b *png.EncoderBuffer) { pngPool.Put(b) }

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// mathDrawer rasterises items into a coverage mask, each in its own
// bounds, so overlapping items add up rather than cancel.
type mathDrawer struct {
	mask *image.Alpha
	face *sfnt.Font
	buf  sfnt.Buffer
	r    vector.Rasterizer
	path [][2]float32 // points of the current item, for its bounds
	ops  []func(z *vector.Rasterizer, dx, dy float32)
}

func (d *mathDrawer) draw(it mathItem, x0, y0, px float64) {
	d.path, d.ops = d.path[:0], d.ops[:0]
	X := func(v float64) float64 { return x0 + v*px }
	Y := func(v float64) float64 { return y0 + v*px }
	switch it.kind {
	case 'r':
		d.poly([][2]float64{{X(it.x), Y(it.y)}, {X(it.x + it.w), Y(it.y)}, {X(it.x + it.w), Y(it.y + it.h)}, {X(it.x), Y(it.y + it.h)}})
	case 'l':
		ax, ay, bx, by := X(it.x), Y(it.y), X(it.x2), Y(it.y2)
		l := math.Hypot(bx-ax, by-ay)
		if l == 0 {
			return
		}
		hw := math.Max(it.w*px, 1) / 2
		nx, ny := -(by-ay)/l*hw, (bx-ax)/l*hw
		// Square caps, so joined strokes meet without a notch.
		ex, ey := (bx-ax)/l*hw, (by-ay)/l*hw
		d.poly([][2]float64{{ax + nx - ex, ay + ny - ey}, {bx + nx + ex, by + ny + ey}, {bx - nx + ex, by - ny + ey}, {ax - nx - ex, ay - ny - ey}})
	case 't':
		d.text(it, X(it.x), Y(it.y), it.size*px)
	}
	d.fill()
}

func (d *mathDrawer) poly(pts [][2]float64) {
	for i, p := range pts {
		x, y := float32(p[0]), float32(p[1])
		d.path = append(d.path, [2]float32{x, y})
		if i == 0 {
			d.ops = append(d.ops, func(z *vector.Rasterizer, dx, dy float32) { z.MoveTo(x-dx, y-dy) })
		} else {
			d.ops = append(d.ops, func(z *vector.Rasterizer, dx, dy float32) { z.LineTo(x-dx, y-dy) })
		}
	}
	d.ops = append(d.ops, func(z *vector.Rasterizer, dx, dy float32) { z.ClosePath() })
}

// text adds the outlines of t's glyphs, at em size em px from (x, y) on
// the baseline: slanted for italic, stretched upright for a tall fence.
func (d *mathDrawer) text(it mathItem, x, y, em float64) {
	f := d.face
	upem := float64(f.UnitsPerEm())
	ppem := fixed.Int26_6(f.UnitsPerEm()) << 6 // outlines in font units
	slant := 0.0
	if it.italic {
		slant = 0.2 // as a browser slants a face that has no italic
	}
	sy := 1.0
	if it.stretch > 0 {
		sy = it.stretch
	}
	k := em / upem
	pt := func(p fixed.Point26_6) (float32, float32) {
		fx, fy := float64(p.X)/64, float64(p.Y)/64 // y down
		return float32(x + (fx-slant*fy)*k), float32(y + fy*k*sy)
	}
	var prev sfnt.GlyphIndex
	for _, r := range it.text {
		g, err := f.GlyphIndex(&d.buf, r)
		if err != nil {
			continue
		}
		if prev != 0 && g != 0 {
			if kern, err := f.Kern(&d.buf, prev, g, ppem, font.HintingNone); err == nil {
				x += float64(kern) / 64 * k
			}
		}
		prev = g
		segs, err := f.LoadGlyph(&d.buf, g, ppem, nil)
		if err != nil {
			continue
		}
		for _, s := range segs {
			switch s.Op {
			case sfnt.SegmentOpMoveTo:
				ax, ay := pt(s.Args[0])
				d.path = append(d.path, [2]float32{ax, ay})
				d.ops = append(d.ops, func(z *vector.Rasterizer, dx, dy float32) { z.MoveTo(ax-dx, ay-dy) })
			case sfnt.SegmentOpLineTo:
				ax, ay := pt(s.Args[0])
				d.path = append(d.path, [2]float32{ax, ay})
				d.ops = append(d.ops, func(z *vector.Rasterizer, dx, dy float32) { z.LineTo(ax-dx, ay-dy) })
			case sfnt.SegmentOpQuadTo:
				ax, ay := pt(s.Args[0])
				bx, by := pt(s.Args[1])
				d.path = append(d.path, [2]float32{ax, ay}, [2]float32{bx, by})
				d.ops = append(d.ops, func(z *vector.Rasterizer, dx, dy float32) { z.QuadTo(ax-dx, ay-dy, bx-dx, by-dy) })
			case sfnt.SegmentOpCubeTo:
				ax, ay := pt(s.Args[0])
				bx, by := pt(s.Args[1])
				cx, cy := pt(s.Args[2])
				d.path = append(d.path, [2]float32{ax, ay}, [2]float32{bx, by}, [2]float32{cx, cy})
				d.ops = append(d.ops, func(z *vector.Rasterizer, dx, dy float32) { z.CubeTo(ax-dx, ay-dy, bx-dx, by-dy, cx-dx, cy-dy) })
			}
		}
		d.ops = append(d.ops, func(z *vector.Rasterizer, dx, dy float32) { z.ClosePath() })
		adv, err := f.GlyphAdvance(&d.buf, g, ppem, font.HintingNone)
		if err == nil {
			x += float64(adv) / 64 * k
		}
	}
}

// fill rasterises the current item within its bounds (clipped to the
// picture) and adds its coverage to the mask.
func (d *mathDrawer) fill() {
	if len(d.path) == 0 {
		return
	}
	minX, minY, maxX, maxY := d.path[0][0], d.path[0][1], d.path[0][0], d.path[0][1]
	for _, p := range d.path {
		minX, minY = min(minX, p[0]), min(minY, p[1])
		maxX, maxY = max(maxX, p[0]), max(maxY, p[1])
	}
	r := image.Rect(int(math.Floor(float64(minX))), int(math.Floor(float64(minY))), int(math.Ceil(float64(maxX)))+1, int(math.Ceil(float64(maxY)))+1)
	clip := r.Intersect(d.mask.Rect)
	if clip.Empty() {
		return
	}
	// The rasteriser clips what falls outside its size itself.
	d.r.Reset(clip.Dx(), clip.Dy())
	d.r.DrawOp = draw.Over
	dx, dy := float32(clip.Min.X), float32(clip.Min.Y)
	for _, op := range d.ops {
		op(&d.r, dx, dy)
	}
	d.r.Draw(d.mask, clip, image.Opaque, image.Point{})
}
