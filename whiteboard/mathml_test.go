package whiteboard

import (
	"encoding/xml"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/textfit"
)

func mathMLOf(src string) string {
	tree, _ := parseLatex(src)
	var b strings.Builder
	mathML(&b, tree)
	return b.String()
}

// TestMathMLConstructs: each construct teachers write becomes its MathML
// Core element, with its parts in order.
func TestMathMLConstructs(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`\frac{1}{4}`, `<mrow><mfrac><mrow><mn>1</mn></mrow><mrow><mn>4</mn></mrow></mfrac></mrow>`},
		{`E = mc^2`, `<mrow><mi mathvariant="normal" style="font-style:italic">E</mi><mo>=</mo><mi mathvariant="normal" style="font-style:italic">m</mi><msup><mi mathvariant="normal" style="font-style:italic">c</mi><mrow><mn>2</mn></mrow></msup></mrow>`},
		{`x_i^2`, `<mrow><msubsup><mi mathvariant="normal" style="font-style:italic">x</mi><mrow><mi mathvariant="normal" style="font-style:italic">i</mi></mrow><mrow><mn>2</mn></mrow></msubsup></mrow>`},
		{`\sqrt{x}`, `<msqrt style="` + mathGlyphFont + `"><mrow><mi mathvariant="normal" style="font-style:italic">x</mi></mrow></msqrt>`},
		{`\sqrt[3]{8}`, `<mroot style="` + mathGlyphFont + `"><mrow><mn>8</mn></mrow><mrow><mn>3</mn></mrow></mroot>`},
		{`\bar{x}`, `<mrow style="` + overlineStyle + `"><mrow><mi mathvariant="normal" style="font-style:italic">x</mi></mrow></mrow>`},
		{`\overline{AB}`, `<mrow style="` + overlineStyle + `"><mrow><mi mathvariant="normal" style="font-style:italic">A</mi><mi mathvariant="normal" style="font-style:italic">B</mi></mrow></mrow>`},
		{`\underline{\qquad}`, `<mrow style="` + underStyle + `"><mrow><mspace width="2em"></mspace></mrow></mrow>`},
		{`\cancel{3}`, `<mrow style="` + cancelStyle + `"><mrow><mn>3</mn></mrow></mrow>`},
		{`\text{speed of light}`, "<mtext>speed\u00a0of\u00a0light</mtext>"},
		{`a - b`, `<mo>−</mo>`},
		{`\alpha \le 2`, `<mi mathvariant="normal" style="font-style:italic">α</mi><mo>≤</mo><mn>2</mn>`},
		{`A \xrightarrow{light} B`, `<mover><mo stretchy="true" style="` + mathGlyphFont + `">→</mo><mrow style="font-size:0.7em"><mrow><mi mathvariant="normal" style="font-style:italic">l</mi>`},
		{`\hat{y}`, `<mover accent="true"><mrow><mi mathvariant="normal" style="font-style:italic">y</mi></mrow><mo>^</mo></mover>`},
		{`\foo{x}`, `<mtext class="latex-source" style="` + sourceStyle + `">\foo</mtext><mrow><mi mathvariant="normal" style="font-style:italic">x</mi></mrow>`},
	} {
		if got := mathMLOf(c.src); !strings.Contains(got, c.want) {
			t.Errorf("%q:\n got %s\nwant %s", c.src, got, c.want)
		}
	}
}

// TestMathMLTables: matrices get their fences around an mtable with one
// mtr a row; aligned lines alternate right and left columns.
func TestMathMLTables(t *testing.T) {
	m := mathMLOf(`\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}`)
	if strings.Count(m, "<mtr>") != 2 || strings.Count(m, "<mtd") != 4 {
		t.Errorf("pmatrix is not 2×2: %s", m)
	}
	if !strings.Contains(m, `<mrow style="`+mathFences["pmatrix"]+`"><mtable>`) {
		t.Errorf("pmatrix has no parentheses round its table: %s", m)
	}
	a := mathMLOf(`\begin{aligned} 2x + 3 &= 11 \\ 2x &= 8 \\ \end{aligned}`)
	if strings.Count(a, "<mtr>") != 2 {
		t.Errorf("aligned with a trailing \\\\ is not two rows: %s", a)
	}
	if strings.Count(a, `text-align:right`) != 2 || strings.Count(a, `text-align:left`) != 2 {
		t.Errorf("aligned columns are not right then left: %s", a)
	}
	// Lines without an environment are aligned lines too.
	if l := mathMLOf(`x &= 1 \\ y &= 2`); strings.Count(l, "<mtr>") != 2 {
		t.Errorf("bare \\\\ lines are not a table: %s", l)
	}
}

// TestMathMLWellFormed: every drawing is well-formed XML with balanced
// tags, also for broken or hostile input.
func TestMathMLWellFormed(t *testing.T) {
	for _, src := range []string{`\frac{a`, `}}x^`, `x_`, `{`, `\sqrt[3`, `\begin{pmatrix}1&2`, `\end{pmatrix}`, `<b>&amp;`, `\begin{}`, `\text{a`, `&&\\\\`} {
		svg := equationSVG(src, textfit.Box{W: 400, H: 100}, textfit.Style{}, "#000")
		d := xml.NewDecoder(strings.NewReader(svg))
		for {
			_, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Errorf("%q draws malformed XML (%v): %s", src, err, svg)
				break
			}
		}
		if !strings.Contains(svg, "<annotation encoding=\"application/x-tex\">") {
			t.Errorf("%q lost its source: %s", src, svg)
		}
	}
}

// TestLatexUnknown: the commands the board cannot draw are listed, once
// per use, and known ones are not.
func TestLatexUnknown(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string
	}{
		{`\frac{1}{4} + \bar{x} + \underline{\qquad} + \sqrt[3]{x} + \cancel{2}`, nil},
		{`\foo + \frac{\baz}{2}`, []string{`\foo`, `\baz`}},
		{`\begin{tabular}x\end{tabular}`, []string{`\begin{tabular}`}},
		{`x \end{y}`, []string{`\end`}},
	} {
		if got := latexUnknown(c.src); !reflect.DeepEqual(got, c.want) {
			t.Errorf("latexUnknown(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}

// TestEquationFitsItsBox: a wide equation is drawn smaller than a short
// one in the same box, and a stacked fraction smaller than its inline
// form's height allows.
func TestEquationFitsItsBox(t *testing.T) {
	box := textfit.Box{W: 300, H: 120}
	size := func(src string) string {
		s := equationSVG(src, box, textfit.Style{}, "#000")
		i := strings.Index(s, "font-size:")
		return s[i : i+strings.Index(s[i:], "px")]
	}
	if a, b := size(`x`), size(`x + y + z + a + b + c + d + e + f + g`); a == b {
		t.Errorf("a long equation is drawn at the size of a short one (%s)", a)
	}
	if a, b := size(`x`), size(`\frac{\frac{1}{2}}{\frac{3}{4}}`); a == b {
		t.Errorf("a tall fraction is drawn at the size of one line (%s)", a)
	}
}

// TestMathMLGreek: lower-case Greek is italic like Latin letters, capital
// Greek upright, as TeX sets them.
func TestMathMLGreek(t *testing.T) {
	got := mathMLOf(`\Delta T = \theta`)
	for _, want := range []string{`<mi mathvariant="normal">Δ</mi>`, `<mi mathvariant="normal" style="font-style:italic">T</mi>`, `<mi mathvariant="normal" style="font-style:italic">θ</mi>`} {
		if !strings.Contains(got, want) {
			t.Errorf("%s has no %s", got, want)
		}
	}
}
