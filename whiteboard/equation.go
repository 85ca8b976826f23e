package whiteboard

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"

	"github.com/lessongen/lessongen/internal/textfit"
)

// Equations are drawn from their LaTeX source by a small translator to
// SVG text: symbols and Greek letters become their Unicode characters,
// _ and ^ become lowered and raised smaller text, \frac{a}{b} becomes
// a/b, and arrows with text (\xrightarrow{light}) carry it over them
// inline. It covers the school notation lessons use, needs no network or
// bundled renderer at view time, and keeps the source in a <title> so
// nothing is lost; anything it does not know is shown as written.
//
// Why not a library (checked for #9): treeblood (pure-Go LaTeX to MathML)
// is not served by the module proxy this project builds from. KaTeX run
// in-process through goja does work (0.16.22: 143 ms to load, 1–3.5 ms an
// equation, deterministic MathML), but MathML is drawn with the browser's
// math font, which the layout model cannot measure, so an equation could
// overflow its box unseen; it would also add 277 kB of vendored JS and a JS
// engine. Switching needs a math font embedded in the binary and the page
// and measured like the text font. go-latex/latex (the mathtext engine of
// gonum/plot, on the proxy) was checked too: archived on GitHub, and it
// has no \xrightarrow, \text or \mathrm, which chemistry and units need.

// The bounds of an equation's source, declared once: the load check, the
// dispatch check and the render read them here. The translator recurses
// into each {…} group and a box shows a line or two, so a school equation
// needs far less; past either bound an equation is drawn as its source
// text, validate warns at its line, and a tool call that sends one is
// refused naming the bound.
const (
	// MaxLatexLength is the most characters an equation's LaTeX may have.
	MaxLatexLength = 1000
	// MaxLatexDepth is the deepest its {…} groups may nest.
	MaxLatexDepth = 16
)

// latexLimit says how src passes a bound ("4000 characters, over the 1000
// …"), "" when it is within both.
func latexLimit(src string) string {
	if n := utf8.RuneCountInString(src); n > MaxLatexLength {
		return fmt.Sprintf("is %d characters long, over the %d an equation may have", n, MaxLatexLength)
	}
	depth, deepest := 0, 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '{':
			depth++
			deepest = max(deepest, depth)
		case '}':
			depth = max(depth-1, 0)
		}
	}
	if deepest > MaxLatexDepth {
		return fmt.Sprintf("nests {…} %d deep, over the %d an equation may have", deepest, MaxLatexDepth)
	}
	return ""
}

// latexLimitHint is what to do about an equation past a bound.
var latexLimitHint = fmt.Sprintf("keep an equation within %d characters and %d levels of {…}; split a long one into several equations", MaxLatexLength, MaxLatexDepth)

// mathSegment is a run of equation text at one level: 0 baseline, -1
// subscript, +1 superscript.
type mathSegment struct {
	text  string
	level int
	// arrow is a long arrow (+1 right, -1 left) drawn as a line with the
	// segment's text small over it, instead of the text.
	arrow int
}

var latexSymbols = map[string]string{
	"rightarrow": "→", "to": "→", "leftarrow": "←", "leftrightarrow": "↔", "Rightarrow": "⇒",
	"rightleftharpoons": "⇌", "times": "×", "cdot": "·", "div": "÷", "pm": "±", "mp": "∓",
	"le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "approx": "≈",
	"infty": "∞", "sqrt": "√", "sum": "∑", "int": "∫", "partial": "∂", "circ": "°", "degree": "°",
	"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "Delta": "Δ", "epsilon": "ε",
	"theta": "θ", "lambda": "λ", "mu": "μ", "pi": "π", "rho": "ρ", "sigma": "σ", "Sigma": "Σ",
	"tau": "τ", "phi": "φ", "omega": "ω", "Omega": "Ω", ",": " ", ";": " ", "quad": "  ",
	"qquad": "    ", "{": "{", "}": "}", "%": "%", "$": "$", "left": "", "right": "",
	"mathrm": "", "text": "", "mathbf": "", "mathit": "",
}

// latexSegments translates src into segments.
func latexSegments(src string) []mathSegment {
	var out []mathSegment
	// cur is the text segment being written, at level: a builder, so a
	// long run costs its length, not its square.
	var cur strings.Builder
	level := 0
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, mathSegment{text: cur.String(), level: level})
			cur.Reset()
		}
	}
	add := func(t string, lvl int) {
		if t == "" {
			return
		}
		if lvl != level {
			flush()
			level = lvl
		}
		cur.WriteString(t)
	}
	rs := []rune(src)
	// group reads a {…} group or a single character at i.
	group := func(i int) (string, int) {
		if i >= len(rs) {
			return "", i
		}
		if rs[i] != '{' {
			if rs[i] == '\\' {
				j := i + 1
				for j < len(rs) && isLetter(rs[j]) {
					j++
				}
				name := string(rs[i+1 : j])
				if sym, ok := latexSymbols[name]; ok {
					return sym, j
				}
				return string(rs[i:j]), j
			}
			return string(rs[i]), i + 1
		}
		depth, j := 0, i
		for ; j < len(rs); j++ {
			switch rs[j] {
			case '{':
				depth++
			case '}':
				depth--
			}
			if depth == 0 {
				break
			}
		}
		inner := string(rs[i+1 : min(j, len(rs))])
		return flatten(latexSegments(inner)), min(j+1, len(rs))
	}
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case r == '_' || r == '^':
			g, j := group(i + 1)
			lvl := -1
			if r == '^' {
				lvl = 1
			}
			add(g, lvl)
			i = j
		case r == '{' || r == '}':
			i++
		case r == '\\':
			j := i + 1
			for j < len(rs) && isLetter(rs[j]) {
				j++
			}
			if j == i+1 && j < len(rs) { // \, \; \{ …
				j++
			}
			name := string(rs[i+1 : j])
			switch name {
			case "xrightarrow", "xleftarrow":
				g, k := group(j)
				// A long arrow, as wide as its label, with the label over it.
				dir := 1
				if name == "xleftarrow" {
					dir = -1
				}
				flush()
				out = append(out, mathSegment{text: g, arrow: dir})
				j = k
			case "frac":
				a, k := group(j)
				b, k2 := group(k)
				add(paren(a)+"/"+paren(b), 0)
				j = k2
			default:
				if sym, ok := latexSymbols[name]; ok {
					add(sym, 0)
				} else {
					add(`\`+name, 0)
				}
			}
			i = j
		default:
			add(string(r), 0)
			i++
		}
	}
	flush()
	return out
}

func isLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

func flatten(ss []mathSegment) string {
	var b strings.Builder
	for _, s := range ss {
		b.WriteString(s.text)
	}
	return b.String()
}

// paren wraps a fraction's part in parentheses when it is more than one
// token, so a/b reads right.
func paren(s string) string {
	if strings.ContainsAny(s, "+-−×· ") {
		return "(" + s + ")"
	}
	return s
}

// equationSVG draws src centred in box, as large as fits (up to the
// style's font size, or 48 px).
func equationSVG(src string, box textfit.Box, style textfit.Style, color string) string {
	if latexLimit(src) != "" {
		// Past a bound (validate warns): the source as written, wrapped in
		// the box, instead of a translation whose cost grows with depth.
		st := textfit.Style{FontSize: min(style.Size(), 16), Bold: style.Bold}
		return "<g class=\"equation-source\">" + textfit.Wrap(src, st, box.W).SVG(box, "left", color) + "</g>"
	}
	segs := latexSegments(src)
	for i := range segs {
		// No-break spaces: drawn and measured as written, where plain
		// spaces would collapse or be trimmed at a tspan's edge.
		segs[i].text = strings.ReplaceAll(segs[i].text, " ", "\u00a0")
	}
	size := style.FontSize
	if size == 0 {
		size = min(48, box.H*0.5)
	}
	width := func(size float64) float64 {
		w := 0.0
		for _, s := range segs {
			w += segWidth(s, size, style.Bold)
		}
		return w
	}
	for size > 8 && width(size) > box.W {
		size--
	}
	w := width(size)
	x := box.X + (box.W-w)/2
	y := box.Y + box.H/2 + size*0.35
	var b strings.Builder
	fmt.Fprintf(&b, "<text class=\"equation\" font-family=\"'%s'\" font-size=\"%s\" fill=\"%s\" text-rendering=\"geometricPrecision\"><title>%s</title>",
		textfit.FontFamily, n(size), html.EscapeString(color), html.EscapeString(src))
	cx := x
	var arrows strings.Builder
	for _, s := range segs {
		w := segWidth(s, size, style.Bold)
		if s.arrow != 0 {
			fmt.Fprintf(&b, "<tspan x=\"%s\" y=\"%s\" font-size=\"%s\" text-anchor=\"middle\">%s</tspan>", n(cx+w/2), n(y-size*0.55), n(size*0.5), html.EscapeString(s.text))
			x1, x2, ay, sw := cx+size*0.25, cx+w-size*0.25, y-size*0.32, max(size/16, 1.5)
			fmt.Fprintf(&arrows, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\" stroke-width=\"%s\"/>",
				n(x1), n(ay), n(x2), n(ay), html.EscapeString(color), n(sw))
			if s.arrow < 0 {
				x1, x2 = x2, x1
			}
			arrows.WriteString(arrowHead(x1, ay, x2, ay, sw, color))
			cx += w
			continue
		}
		st := textfit.Style{FontSize: size, Bold: style.Bold}
		dy := 0.0
		switch s.level {
		case -1:
			st.FontSize, dy = size*0.7, size*0.3
		case 1:
			st.FontSize, dy = size*0.7, -size*0.4
		}
		fmt.Fprintf(&b, "<tspan x=\"%s\" y=\"%s\" font-size=\"%s\">%s</tspan>", n(cx), n(y+dy), n(st.FontSize), html.EscapeString(s.text))
		cx += w
	}
	b.WriteString("</text>")
	b.WriteString(arrows.String())
	return b.String()
}

// segWidth is how wide a segment is drawn at font size size: its text, or
// for a long arrow its label's width plus room for the head, at least 1.5 em.
func segWidth(s mathSegment, size float64, bold bool) float64 {
	st := textfit.Style{FontSize: size, Bold: bold}
	switch {
	case s.arrow != 0:
		st.FontSize = size * 0.5
		return max(textfit.Measure(s.text, st).Width+size, size*1.5)
	case s.level != 0:
		st.FontSize = size * 0.7
	}
	return textfit.Measure(s.text, st).Width
}
