package whiteboard

import "github.com/lessongen/lessongen/internal/pptx"

// latexMath translates the LaTeX school notation equations use into Office
// Math for a PowerPoint deck: \frac (and \dfrac, \tfrac) as a stacked
// fraction, ^ and _ as scripts, \sqrt[n]{x} as a root, \text and \mathrm
// upright, \xrightarrow{over} as an arrow with its condition above, and
// symbols and Greek letters as the SVG translator maps them (latexSymbols).
// Anything else is kept as written, so nothing is lost. Nesting deeper than
// maxMathDepth is kept as text: hostile input cannot exhaust the stack.
func latexMath(src string) []pptx.MathNode {
	p := &mathParser{rs: []rune(src)}
	return p.seq(0, false)
}

const maxMathDepth = 32

type mathParser struct {
	rs []rune
	i  int
}

// seq reads atoms up to a closing } (consumed) or the end; at the top
// level a stray } is text.
func (p *mathParser) seq(depth int, plain bool) []pptx.MathNode {
	var out []pptx.MathNode
	for p.i < len(p.rs) {
		r := p.rs[p.i]
		switch {
		case r == '}' && depth > 0:
			p.i++
			return merge(out)
		case r == '^' || r == '_':
			p.i++
			var base []pptx.MathNode
			if k := len(out) - 1; k >= 0 {
				base, out = []pptx.MathNode{out[k]}, out[:k]
			}
			script := p.atom(depth+1, plain)
			var node pptx.MathNode
			if r == '^' {
				node = pptx.MSup{Base: base, Sup: script}
			} else {
				node = pptx.MSub{Base: base, Sub: script}
			}
			// x_i^2: both scripts on one base.
			if p.i < len(p.rs) && (p.rs[p.i] == '^' || p.rs[p.i] == '_') && p.rs[p.i] != r {
				p.i++
				other := p.atom(depth+1, plain)
				if r == '^' {
					node = pptx.MSubSup{Base: base, Sub: other, Sup: script}
				} else {
					node = pptx.MSubSup{Base: base, Sub: script, Sup: other}
				}
			}
			out = append(out, node)
		case r == ' ' && !plain:
			p.i++
		default:
			out = append(out, p.atom(depth, plain)...)
		}
	}
	return merge(out)
}

// atom reads one group, command or character.
func (p *mathParser) atom(depth int, plain bool) []pptx.MathNode {
	if p.i >= len(p.rs) {
		return nil
	}
	if depth > maxMathDepth {
		rest := string(p.rs[p.i:])
		p.i = len(p.rs)
		return []pptx.MathNode{pptx.MRun{Text: rest, Plain: true}}
	}
	r := p.rs[p.i]
	switch r {
	case '{':
		p.i++
		return p.seq(depth+1, plain)
	case '\\':
		return p.command(depth, plain)
	}
	p.i++
	return []pptx.MathNode{pptx.MRun{Text: string(r), Plain: plain}}
}

// arg reads a command's argument: a group or one atom.
func (p *mathParser) arg(depth int, plain bool) []pptx.MathNode {
	for p.i < len(p.rs) && p.rs[p.i] == ' ' {
		p.i++
	}
	return p.atom(depth+1, plain)
}

func (p *mathParser) command(depth int, plain bool) []pptx.MathNode {
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
	switch name {
	case "frac", "dfrac", "tfrac":
		num := p.arg(depth, plain)
		return []pptx.MathNode{pptx.MFrac{Num: num, Den: p.arg(depth, plain)}}
	case "sqrt":
		var deg []pptx.MathNode
		if p.i < len(p.rs) && p.rs[p.i] == '[' {
			end := p.i + 1
			for end < len(p.rs) && p.rs[end] != ']' {
				end++
			}
			deg = []pptx.MathNode{pptx.MRun{Text: string(p.rs[p.i+1 : min(end, len(p.rs))])}}
			p.i = min(end+1, len(p.rs))
		}
		return []pptx.MathNode{pptx.MRad{Deg: deg, E: p.arg(depth, plain)}}
	case "text", "mathrm", "textrm", "operatorname":
		return p.arg(depth, true)
	case "mathbf", "mathit", "boldsymbol":
		return p.arg(depth, plain)
	case "xrightarrow", "xleftarrow":
		arrow := "→"
		if name == "xleftarrow" {
			arrow = "←"
		}
		return []pptx.MathNode{pptx.MOver{Base: []pptx.MathNode{pptx.MRun{Text: arrow}}, Over: p.arg(depth, true)}}
	case "left", "right":
		if p.i < len(p.rs) && p.rs[p.i] == '.' {
			p.i++
			return nil
		}
		return nil // the delimiter that follows is read as itself
	}
	if sym, ok := latexSymbols[name]; ok {
		if sym == "" {
			return nil
		}
		return []pptx.MathNode{pptx.MRun{Text: sym, Plain: plain}}
	}
	return []pptx.MathNode{pptx.MRun{Text: `\` + name, Plain: true}}
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
