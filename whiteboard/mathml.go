package whiteboard

import (
	"html"
	"strconv"
	"strings"
	"unicode"

	"github.com/lessongen/lessongen/internal/textfit"
)

// The board draws an equation as MathML Core, which Chromium, Firefox and
// Safari lay out natively: stacked fractions, roots, scripts and tables,
// with no renderer or font shipped to the page. It is set in the board's
// typeface; only stretchy glyphs (the radical sign, tall fences) come from
// the system math font. Bars, underlines and strikes are CSS borders and a
// gradient, which MathML Core allows on every element and which need no
// math font (menclose is not in MathML Core).

// mathStyles are the inline styles the drawing uses, inline so a board is
// drawn the same in the HTML page, Marp's HTML and a PDF.
const (
	mathFont      = "font-family:'" + textfit.FontFamily + "',math"
	mathGlyphFont = "font-family:math,'STIX Two Math','Cambria Math','Latin Modern Math','DejaVu Math TeX Gyre','" + textfit.FontFamily + "'"
	overlineStyle = "border-top:0.06em solid;padding-top:0.08em"
	underStyle    = "border-bottom:0.06em solid;padding-bottom:0.08em"
	cancelStyle   = "background:linear-gradient(to top right,transparent calc(50% - 0.05em),currentColor calc(50% - 0.04em),currentColor calc(50% + 0.04em),transparent calc(50% + 0.05em))"
	sourceStyle   = "font-family:monospace;font-size:0.8em"
)

// mathML writes n as MathML Core.
func mathML(b *strings.Builder, n *mathNode) {
	switch n.kind {
	case mRow:
		b.WriteString("<mrow>")
		for _, k := range n.kids {
			mathML(b, k)
		}
		b.WriteString("</mrow>")
	case mIdent, mNum, mOp, mText, mSource, mSpace:
		mathLeaf(b, n)
	case mTable:
		mathTable(b, n)
	case mOverArrow:
		// The arrow as wide as its label: a stretched underline of the
		// label with an arrowhead after it.
		b.WriteString("<mover><mo stretchy=\"true\" style=\"" + mathGlyphFont + "\">" + n.text + "</mo><mrow style=\"font-size:0.7em\">")
		mathML(b, n.kids[0])
		b.WriteString("</mrow></mover>")
	default:
		tag, style := mathWrap(n)
		b.WriteString("<" + tag + style + ">")
		for _, k := range n.kids {
			mathML(b, k)
		}
		if n.kind == mAccent {
			b.WriteString("<mo>" + html.EscapeString(n.text) + "</mo>")
		}
		b.WriteString("</" + tag + ">")
	}
}

// mathWrap is the element and style attribute a node with kids becomes.
func mathWrap(n *mathNode) (string, string) {
	switch n.kind {
	case mFrac:
		return "mfrac", ""
	case mSqrt:
		return "msqrt", ` style="` + mathGlyphFont + `"`
	case mRoot:
		return "mroot", ` style="` + mathGlyphFont + `"`
	case mSup:
		return "msup", ""
	case mSub:
		return "msub", ""
	case mSubSup:
		return "msubsup", ""
	case mOverline:
		return "mrow", ` style="` + overlineStyle + `"`
	case mUnderline:
		return "mrow", ` style="` + underStyle + `"`
	case mCancel:
		return "mrow", ` style="` + cancelStyle + `"`
	case mAccent:
		return "mover", ` accent="true"`
	}
	return "mrow", ""
}

func mathLeaf(b *strings.Builder, n *mathNode) {
	t := html.EscapeString(n.text)
	switch n.kind {
	case mIdent:
		// Italic in the board's typeface, not the math font's italic
		// letters; capital Greek stays upright, as TeX sets it.
		if r := []rune(n.text); len(r) == 1 && unicode.IsUpper(r[0]) && unicode.In(r[0], unicode.Greek) {
			b.WriteString(`<mi mathvariant="normal">` + t + "</mi>")
			return
		}
		b.WriteString(`<mi mathvariant="normal" style="font-style:italic">` + t + "</mi>")
	case mNum:
		b.WriteString("<mn>" + t + "</mn>")
	case mOp:
		b.WriteString("<mo>" + t + "</mo>")
	case mText:
		b.WriteString("<mtext>" + strings.ReplaceAll(t, " ", "\u00a0") + "</mtext>")
	case mSource:
		b.WriteString(`<mtext class="latex-source" style="` + sourceStyle + `">` + t + "</mtext>")
	case mSpace:
		b.WriteString(`<mspace width="` + t + `em"></mspace>`)
	}
}

// mathFences are the delimiters round a matrix, drawn as lines (borders
// and gradients) so they are as tall as the table in any font.
var mathFences = map[string]string{
	"pmatrix": "border-left:0.07em solid;border-right:0.07em solid;border-radius:0.5em/50%;padding:0 0.25em",
	"bmatrix": "background:" + bracket("left") + "," + bracket("right") + ";padding:0 0.3em",
	"vmatrix": "border-left:0.06em solid;border-right:0.06em solid;padding:0 0.2em",
	"Vmatrix": "border-left:0.2em double;border-right:0.2em double;padding:0 0.2em",
}

// bracket draws a square bracket on side with three gradients: the upright
// and its two ticks.
func bracket(side string) string {
	g := "linear-gradient(currentColor,currentColor) " + side
	return g + " top/0.07em 100% no-repeat," + g + " top/0.3em 0.07em no-repeat," + g + " bottom/0.3em 0.07em no-repeat"
}

// mathTable writes a matrix, cases or aligned lines: an mtable inside its
// delimiters. Aligned lines alternate right- and left-aligned columns with
// no gap between a pair, as amsmath sets them.
func mathTable(b *strings.Builder, n *mathNode) {
	aligned := strings.HasPrefix(n.text, "align") || n.text == "gathered"
	b.WriteString(`<mrow style="` + mathFences[n.text] + `">`)
	if n.text == "cases" {
		b.WriteString(`<mo stretchy="true" style="` + mathGlyphFont + `">{</mo>`)
	}
	b.WriteString("<mtable>")
	for _, row := range n.rows {
		b.WriteString("<mtr>")
		for i, cell := range row {
			style := "padding:0.2em 0.5em"
			switch {
			case aligned && i%2 == 0:
				// Chromium aligns a cell's math by the -webkit- values only.
				style = "text-align:right;text-align:-webkit-right;padding:0.15em 0"
			case aligned:
				style = "text-align:left;text-align:-webkit-left;padding:0.15em 1em 0.15em 0"
			case n.text == "cases":
				style = "text-align:left;text-align:-webkit-left;padding:0.15em 0.5em"
			}
			b.WriteString(`<mtd style="` + style + `">`)
			mathML(b, cell)
			b.WriteString("</mtd>")
		}
		b.WriteString("</mtr>")
	}
	b.WriteString("</mtable></mrow>")
}

// mathSize estimates n's width and height in em of the board's typeface,
// from the font's own advances, so an equation is sized to fit its box
// before the browser draws it.
func mathSize(n *mathNode) (w, h float64) {
	switch n.kind {
	case mRow:
		h = 1
		for _, k := range n.kids {
			kw, kh := mathSize(k)
			w, h = w+kw, max(h, kh)
		}
		return w, h
	case mIdent, mNum, mText:
		return emWidth(n.text, false), 1
	case mOp:
		return emWidth(n.text, false) + 0.56, 1
	case mSource:
		return emWidth(n.text, false)*0.8 + 0.1, 1
	case mSpace:
		return emWidthOf(n.text), 1
	case mTable:
		return tableSize(n)
	}
	return mathWrapSize(n)
}

func mathWrapSize(n *mathNode) (w, h float64) {
	ws, hs := make([]float64, len(n.kids)), make([]float64, len(n.kids))
	for i, k := range n.kids {
		ws[i], hs[i] = mathSize(k)
	}
	switch n.kind {
	case mFrac:
		return max(ws[0], ws[1]) + 0.2, hs[0] + hs[1] + 0.2
	case mSqrt:
		return ws[0] + 1, hs[0] + 0.2
	case mRoot:
		return ws[0] + 1 + ws[1]*0.5, hs[0] + 0.2
	case mSup, mSub:
		return ws[0] + ws[1]*0.71, hs[0] + hs[1]*0.4
	case mSubSup:
		return ws[0] + max(ws[1], ws[2])*0.71, hs[0] + (hs[1]+hs[2])*0.4
	case mOverArrow:
		return max(ws[0]*0.7+1.2, 2), hs[0]*0.7 + 0.8
	}
	return ws[0], hs[0] + 0.2
}

func tableSize(n *mathNode) (w, h float64) {
	var cols []float64
	for _, row := range n.rows {
		rh := 1.0
		for i, cell := range row {
			cw, ch := mathSize(cell)
			if i >= len(cols) {
				cols = append(cols, 0)
			}
			cols[i], rh = max(cols[i], cw), max(rh, ch)
		}
		h += rh + 0.4
	}
	for _, c := range cols {
		w += c + 1
	}
	return w + 1, h
}

// emWidth is how wide text is in the board's typeface, in em.
func emWidth(text string, bold bool) float64 {
	return textfit.Measure(text, textfit.Style{FontSize: 100, Bold: bold}).Width / 100
}

func emWidthOf(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}
