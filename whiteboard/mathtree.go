package whiteboard

import (
	"strings"
	"unicode"
)

// An equation's LaTeX is parsed once into a small tree of mathNodes; the
// board draws it as MathML Core (mathml.go) and the size estimate reads
// the same tree. The parser covers the notation school lessons use (see
// docs/architecture.md); a command it does not know is kept as its source
// (kind mSource), drawn as written and listed by latexUnknown so validate
// can warn.
type mathKind int

const (
	mRow       mathKind = iota // kids in a row
	mIdent                     // a letter or Greek symbol, italic
	mNum                       // a run of digits
	mOp                        // an operator, relation or fence
	mText                      // upright text: \text, \mathrm
	mSource                    // a command the parser does not know, as written
	mSpace                     // a space of width text (em)
	mFrac                      // kids: numerator, denominator
	mSqrt                      // kids: radicand
	mRoot                      // kids: radicand, index
	mSup                       // kids: base, superscript
	mSub                       // kids: base, subscript
	mSubSup                    // kids: base, subscript, superscript
	mOverline                  // kids: base (\bar, \overline)
	mUnderline                 // kids: base
	mCancel                    // kids: base, struck through
	mAccent                    // kids: base; text the accent (\hat, \vec)
	mOverArrow                 // kids: label; text the arrow (\xrightarrow)
	mTable                     // rows of cells; text the environment
)

type mathNode struct {
	kind mathKind
	text string
	kids []*mathNode
	rows [][]*mathNode
}

// mathEnvs are the environments drawn as tables, with their delimiters.
var mathEnvs = map[string][2]string{
	"matrix": {"", ""}, "pmatrix": {"(", ")"}, "bmatrix": {"[", "]"}, "vmatrix": {"|", "|"},
	"Vmatrix": {"‖", "‖"}, "cases": {"{", ""}, "aligned": {"", ""}, "align": {"", ""},
	"align*": {"", ""}, "gathered": {"", ""}, "array": {"", ""},
}

// mathSpaces are spacing commands and their widths in em.
var mathSpaces = map[string]string{",": "0.17", ":": "0.22", ";": "0.28", " ": "0.33", "quad": "1", "qquad": "2", "!": "0"}

// mathAccents are accents drawn over their base.
var mathAccents = map[string]string{"hat": "^", "vec": "→", "dot": "˙", "ddot": "¨", "tilde": "~", "widehat": "^"}

type texParser struct {
	rs      []rune
	i       int
	unknown []string
}

// parseLatex parses src into a row, and the commands it could not draw.
func parseLatex(src string) (*mathNode, []string) {
	p := &texParser{rs: []rune(src)}
	root := p.body(0, "")
	return root, p.unknown
}

// body reads a sequence up to end ("" the source's end, "}" a group, "]"
// an optional argument, or an environment's name); when it holds & or \\
// it is a table.
func (p *texParser) body(depth int, end string) *mathNode {
	var rows [][]*mathNode
	var row []*mathNode
	table := false
	for {
		cell, stop := p.seq(depth, end, true)
		row = append(row, &mathNode{kind: mRow, kids: cell})
		switch stop {
		case "&":
			table = true
			continue
		case `\\`:
			table = true
			rows, row = append(rows, row), nil
			continue
		}
		break
	}
	rows = append(rows, row)
	if !table {
		return row[0]
	}
	if len(rows) > 1 && len(rows[len(rows)-1]) == 1 && len(rows[len(rows)-1][0].kids) == 0 {
		rows = rows[:len(rows)-1] // a trailing \\
	}
	return &mathNode{kind: mRow, kids: []*mathNode{{kind: mTable, text: "aligned", rows: rows}}}
}

// seq reads atoms until end, or & and \\ when cells is set; it returns
// what stopped it ("" at the source's end).
func (p *texParser) seq(depth int, end string, cells bool) ([]*mathNode, string) {
	var out []*mathNode
	for p.i < len(p.rs) {
		r := p.rs[p.i]
		switch {
		case end == "}" && r == '}', end == "]" && r == ']':
			p.i++
			return out, end
		case cells && r == '&':
			p.i++
			return out, "&"
		case cells && p.at(`\\`):
			p.i += 2
			return out, `\\`
		case end != "" && end != "}" && end != "]" && p.at(`\end{`+end+`}`):
			p.i += len([]rune(`\end{` + end + `}`))
			return out, end
		case r == '^' || r == '_':
			p.i++
			out = p.script(out, r, depth)
		case unicode.IsSpace(r):
			p.i++
		default:
			out = append(out, p.atom(depth)...)
		}
	}
	return out, ""
}

func (p *texParser) at(s string) bool {
	return strings.HasPrefix(string(p.rs[p.i:min(p.i+len([]rune(s)), len(p.rs))]), s)
}

// script attaches a ^ or _ to the last atom of out (x_i^2: both on one base).
func (p *texParser) script(out []*mathNode, r rune, depth int) []*mathNode {
	base := &mathNode{kind: mRow}
	if k := len(out) - 1; k >= 0 {
		base, out = out[k], out[:k]
	}
	s := p.arg(depth)
	switch {
	case base.kind == mSub && r == '^':
		return append(out, &mathNode{kind: mSubSup, kids: []*mathNode{base.kids[0], base.kids[1], s}})
	case base.kind == mSup && r == '_':
		return append(out, &mathNode{kind: mSubSup, kids: []*mathNode{base.kids[0], s, base.kids[1]}})
	case r == '^':
		return append(out, &mathNode{kind: mSup, kids: []*mathNode{base, s}})
	}
	return append(out, &mathNode{kind: mSub, kids: []*mathNode{base, s}})
}

// arg reads a command's argument: a {group} or one atom, as a row.
func (p *texParser) arg(depth int) *mathNode {
	for p.i < len(p.rs) && unicode.IsSpace(p.rs[p.i]) {
		p.i++
	}
	if depth >= maxMathDepth {
		rest := string(p.rs[p.i:])
		p.i = len(p.rs)
		return &mathNode{kind: mSource, text: rest}
	}
	kids := p.atom(depth + 1)
	if len(kids) == 1 && kids[0].kind == mRow {
		return kids[0] // a {group}: already a row
	}
	return &mathNode{kind: mRow, kids: kids}
}

// raw reads a {group}'s text as written (\text{…}, \begin{…}).
func (p *texParser) raw() string {
	if p.i >= len(p.rs) || p.rs[p.i] != '{' {
		return ""
	}
	depth, j := 0, p.i
	for ; j < len(p.rs); j++ {
		if p.rs[j] == '{' {
			depth++
		} else if p.rs[j] == '}' {
			if depth--; depth == 0 {
				break
			}
		}
	}
	s := string(p.rs[p.i+1 : min(j, len(p.rs))])
	p.i = min(j+1, len(p.rs))
	return s
}

// atom reads one group, command or character.
func (p *texParser) atom(depth int) []*mathNode {
	if p.i >= len(p.rs) {
		return nil
	}
	r := p.rs[p.i]
	switch {
	case r == '{':
		p.i++
		if depth >= maxMathDepth {
			return []*mathNode{p.arg(depth)}
		}
		kids, _ := p.seq(depth+1, "}", false)
		return []*mathNode{{kind: mRow, kids: kids}}
	case r == '\\':
		return p.command(depth)
	case r >= '0' && r <= '9' || r == '.':
		j := p.i
		for j < len(p.rs) && (p.rs[j] >= '0' && p.rs[j] <= '9' || p.rs[j] == '.') {
			j++
		}
		n := string(p.rs[p.i:j])
		p.i = j
		return []*mathNode{{kind: mNum, text: n}}
	case r == '~':
		p.i++
		return []*mathNode{{kind: mSpace, text: "0.33"}}
	}
	p.i++
	if unicode.IsLetter(r) {
		return []*mathNode{{kind: mIdent, text: string(r)}}
	}
	if r == '-' {
		r = '−'
	}
	return []*mathNode{{kind: mOp, text: string(r)}}
}

// command reads a \command and its arguments.
func (p *texParser) command(depth int) []*mathNode {
	start := p.i
	p.i++ // the backslash
	j := p.i
	for j < len(p.rs) && isLetter(p.rs[j]) {
		j++
	}
	if j == p.i && j < len(p.rs) {
		j++ // \, \{ \% and the like: one non-letter
	}
	name := string(p.rs[p.i:j])
	p.i = j
	if n := p.structure(name, depth); n != nil {
		return []*mathNode{n}
	}
	if w, ok := mathSpaces[name]; ok {
		return []*mathNode{{kind: mSpace, text: w}}
	}
	switch name {
	case "left", "right", "big", "Big", "bigl", "bigr", "Bigl", "Bigr":
		if p.i < len(p.rs) && p.rs[p.i] == '.' {
			p.i++
		}
		return nil // the delimiter that follows is read as itself
	case "mathbf", "mathit", "boldsymbol", "displaystyle", "textstyle":
		return nil // the argument that follows is read as itself
	}
	if sym, ok := latexSymbols[name]; ok && sym != "" {
		if r := []rune(sym); len(r) == 1 && unicode.IsLetter(r[0]) {
			return []*mathNode{{kind: mIdent, text: sym}}
		}
		return []*mathNode{{kind: mOp, text: sym}}
	}
	src := string(p.rs[start:p.i])
	p.unknown = append(p.unknown, src)
	return []*mathNode{{kind: mSource, text: src}}
}

// structure reads a command that builds a node from its arguments, nil
// when name is not one.
func (p *texParser) structure(name string, depth int) *mathNode {
	one := func(k mathKind) *mathNode { return &mathNode{kind: k, kids: []*mathNode{p.arg(depth)}} }
	switch name {
	case "frac", "dfrac", "tfrac":
		num := p.arg(depth)
		return &mathNode{kind: mFrac, kids: []*mathNode{num, p.arg(depth)}}
	case "sqrt":
		if p.i < len(p.rs) && p.rs[p.i] == '[' {
			p.i++
			index, _ := p.seq(depth+1, "]", false)
			return &mathNode{kind: mRoot, kids: []*mathNode{p.arg(depth), {kind: mRow, kids: index}}}
		}
		return one(mSqrt)
	case "bar", "overline":
		return one(mOverline)
	case "underline":
		return one(mUnderline)
	case "cancel", "bcancel", "xcancel", "sout":
		return one(mCancel)
	case "text", "mathrm", "textrm", "operatorname", "mbox", "textbf", "textit":
		for p.i < len(p.rs) && p.rs[p.i] == ' ' {
			p.i++
		}
		return &mathNode{kind: mText, text: p.raw()}
	case "xrightarrow", "xleftarrow":
		arrow := "→"
		if name == "xleftarrow" {
			arrow = "←"
		}
		return &mathNode{kind: mOverArrow, text: arrow, kids: []*mathNode{p.arg(depth)}}
	case "begin":
		return p.env(depth)
	}
	if a, ok := mathAccents[name]; ok {
		n := one(mAccent)
		n.text = a
		return n
	}
	return nil
}

// env reads \begin{name}…\end{name} as a table.
func (p *texParser) env(depth int) *mathNode {
	name := p.raw()
	if _, ok := mathEnvs[name]; !ok {
		p.unknown = append(p.unknown, `\begin{`+name+`}`)
	}
	if name == "array" {
		p.raw() // the column spec
	}
	if depth >= maxMathDepth || name == "" {
		return &mathNode{kind: mSource, text: `\begin{` + name + `}`}
	}
	t := p.body(depth+1, name)
	if len(t.kids) == 1 && t.kids[0].kind == mTable {
		t = t.kids[0]
	} else {
		t = &mathNode{kind: mTable, rows: [][]*mathNode{{t}}}
	}
	t.text = name
	return t
}
