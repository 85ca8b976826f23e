package whiteboard

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"

	"github.com/lessongen/lessongen/internal/textfit"
)

// Equations are parsed once from their LaTeX (mathtree.go) and drawn as
// MathML Core on the board (mathml.go) and as Office Math in the deck
// (omml.go). Stacked fractions, scripts, roots with an index, \bar,
// \overline, \underline, \cancel, accents, \text, \xrightarrow,
// matrices and aligned lines are drawn; a command it does not know is
// drawn as its source and validate warns; the source is kept in an
// annotation, so nothing is lost.
//
// Compared for #25: MathML Core is drawn natively by Chromium, Firefox
// and Safari (no renderer or font shipped to the page; bars and strikes as
// CSS, which Core allows), maps onto Office Math node for node, and is
// sized here from the board font's own advances, so the old reason not to
// use it (a math font the layout model cannot measure) is gone: the text
// is in the board's typeface and only the radical sign and a cases brace
// come from the system math font. go-latex/latex (gonum/plot's mtex, on
// the proxy) was checked again: its parser panics on an unknown macro,
// has no \begin (so no matrices or aligned lines), no \bar, \underline,
// \cancel or \text, draws to a raster or PDF canvas rather than the
// page, and pulls in gioui and four font modules. So the translator stays
// hand-written but now builds a tree; KaTeX through goja (checked for #9)
// would add 277 kB of JS and a JS engine for the same MathML.

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
