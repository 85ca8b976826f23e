package whiteboard

import (
	"strings"

	"github.com/lessongen/lessongen/internal/pptx"
)

// latexMath is an equation as Office Math for a PowerPoint deck, from the
// same tree the board draws as MathML (mathtree.go): \frac a stacked
// fraction, scripts, \sqrt[n]{x} a root, \bar and \underline bars, \cancel
// a strike, matrices and aligned lines a grid, \text upright, and a
// command the parser does not know kept as written, so nothing is lost.
func latexMath(src string) []pptx.MathNode {
	tree, _ := parseLatex(src)
	return merge(omml(tree))
}

// maxMathDepth bounds how deep the parser recurses: nesting past it is
// kept as text, so hostile input cannot exhaust the stack.
const maxMathDepth = 32

// omml converts n to Office Math nodes.
func omml(n *mathNode) []pptx.MathNode {
	kid := func(i int) []pptx.MathNode { return merge(omml(n.kids[i])) }
	switch n.kind {
	case mRow:
		var out []pptx.MathNode
		for _, k := range n.kids {
			out = append(out, omml(k)...)
		}
		return out
	case mIdent, mNum, mOp:
		return []pptx.MathNode{pptx.MRun{Text: n.text}}
	case mText, mSource:
		return []pptx.MathNode{pptx.MRun{Text: n.text, Plain: true}}
	case mSpace:
		// Em spaces as wide as the space (\qquad a blank to write on).
		return []pptx.MathNode{pptx.MRun{Text: strings.Repeat("\u2003", max(int(emWidthOf(n.text)+0.5), 1)), Plain: true}}
	case mFrac:
		return []pptx.MathNode{pptx.MFrac{Num: kid(0), Den: kid(1)}}
	case mSqrt:
		return []pptx.MathNode{pptx.MRad{E: kid(0)}}
	case mRoot:
		return []pptx.MathNode{pptx.MRad{Deg: kid(1), E: kid(0)}}
	case mSup:
		return []pptx.MathNode{pptx.MSup{Base: kid(0), Sup: kid(1)}}
	case mSub:
		return []pptx.MathNode{pptx.MSub{Base: kid(0), Sub: kid(1)}}
	case mSubSup:
		return []pptx.MathNode{pptx.MSubSup{Base: kid(0), Sub: kid(1), Sup: kid(2)}}
	case mOverline, mUnderline:
		return []pptx.MathNode{pptx.MBar{E: kid(0), Under: n.kind == mUnderline}}
	case mCancel:
		return []pptx.MathNode{pptx.MStrike{E: kid(0)}}
	case mAccent:
		return []pptx.MathNode{pptx.MAcc{Chr: n.text, E: kid(0)}}
	case mOverArrow:
		over := merge(omml(n.kids[0]))
		for i, o := range over {
			if r, ok := o.(pptx.MRun); ok {
				over[i] = pptx.MRun{Text: r.Text, Plain: true}
			}
		}
		return []pptx.MathNode{pptx.MOver{Base: []pptx.MathNode{pptx.MRun{Text: n.text}}, Over: merge(over)}}
	case mTable:
		return ommlTable(n)
	}
	return nil
}

// ommlTable is a matrix or aligned lines as a grid, in its delimiters.
func ommlTable(n *mathNode) []pptx.MathNode {
	var m pptx.MMatrix
	aligned := strings.HasPrefix(n.text, "align")
	for _, row := range n.rows {
		var cells [][]pptx.MathNode
		for _, c := range row {
			cells = append(cells, merge(omml(c)))
		}
		if aligned {
			// One cell a line: a cell that starts "= 8" is not a whole
			// expression to Office Math.
			cells = [][]pptx.MathNode{merge(concat(cells))}
		}
		m.Rows = append(m.Rows, cells)
	}
	fence := map[string][2]string{"pmatrix": {"(", ")"}, "bmatrix": {"[", "]"}, "vmatrix": {"|", "|"}, "Vmatrix": {"‖", "‖"}, "cases": {"{", ""}}[n.text]
	if fence == [2]string{} {
		return []pptx.MathNode{m}
	}
	return []pptx.MathNode{pptx.MDelim{Beg: fence[0], End: fence[1], E: []pptx.MathNode{m}}}
}

// merge joins neighbouring runs of one style, so a word stays one run.
func merge(ns []pptx.MathNode) []pptx.MathNode {
	var out []pptx.MathNode
	for _, n := range ns {
		r, ok := n.(pptx.MRun)
		if k := len(out) - 1; ok && k >= 0 {
			if prev, ok := out[k].(pptx.MRun); ok && prev.Plain == r.Plain {
				out[k] = pptx.MRun{Text: prev.Text + r.Text, Plain: r.Plain}
				continue
			}
		}
		out = append(out, n)
	}
	return out
}

func concat(cells [][]pptx.MathNode) []pptx.MathNode {
	var out []pptx.MathNode
	for _, c := range cells {
		out = append(out, c...)
	}
	return out
}
