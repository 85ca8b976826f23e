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

func isLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

// equationSVG draws src centred in box as MathML, as large as fits (up
// to the style's font size, or 48 px), with its source kept in an
// annotation so nothing is lost.
func equationSVG(src string, box textfit.Box, style textfit.Style, color string) string {
	if latexLimit(src) != "" {
		// Past a bound (validate warns): the source as written, wrapped in
		// the box, instead of a translation whose cost grows with depth.
		st := textfit.Style{FontSize: min(style.Size(), 16), Bold: style.Bold}
		return "<g class=\"equation-source\">" + textfit.Wrap(src, st, box.W).SVG(box, "left", color) + "</g>"
	}
	tree, _ := parseLatex(src)
	size := style.FontSize
	if size == 0 {
		size = min(48, box.H*0.5)
	}
	w, h := mathSize(tree)
	// 1.1: room for the browser's spacing the estimate leaves out.
	size = max(min(size, box.W/max(w*1.1, 0.1), box.H/max(h*1.2, 0.1)), 8)
	weight := ""
	if style.Bold {
		weight = ";font-weight:bold"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<foreignObject class=\"equation\" x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\">", n(box.X), n(box.Y), n(box.W), n(box.H))
	fmt.Fprintf(&b, "<div xmlns=\"http://www.w3.org/1999/xhtml\" style=\"display:flex;align-items:center;justify-content:safe center;width:100%%;height:100%%;overflow:hidden;color:%s;font-size:%spx%s\">",
		html.EscapeString(color), n(size), weight)
	b.WriteString("<math xmlns=\"http://www.w3.org/1998/Math/MathML\" display=\"block\" style=\"margin:0;" + mathFont + "\"><semantics>")
	mathML(&b, tree)
	b.WriteString("<annotation encoding=\"application/x-tex\">" + html.EscapeString(src) + "</annotation></semantics></math></div></foreignObject>")
	return b.String()
}

// latexText is an equation as one line of plain text (a fallback where
// math cannot be drawn).
func latexText(src string) string {
	tree, _ := parseLatex(src)
	var b strings.Builder
	plainMath(&b, tree)
	return b.String()
}

// latexUnknownHint is what to do about a command the board cannot draw.
const latexUnknownHint = "write it with the commands the board draws (\\frac, \\sqrt, \\bar, \\underline, \\cancel, \\text, matrices, aligned) or as \\text{…}"

// latexUnknown lists the commands in src the board cannot draw.
func latexUnknown(src string) []string {
	if latexLimit(src) != "" {
		return nil
	}
	_, unknown := parseLatex(src)
	return unknown
}
