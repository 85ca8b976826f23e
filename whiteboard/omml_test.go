package whiteboard

import (
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/pptx"
)

func TestLatexMath(t *testing.T) {
	for _, c := range []struct{ latex, want string }{
		{`6CO_2 + 6H_2O`, "6CO_2+6H_2O"},
		{`\frac{1}{2}mv^2`, "1/2mv^2"},
		{`x_i^2 + y^{n+1}`, "x_i^2+y^(n+1)"},
		{`\sqrt{b^2-4ac}`, "√(b^2−4ac)"}, // a minus sign, as MathML draws it
		{`\sqrt[3]{x}`, "√x"},
		{`A \xrightarrow{light} B`, "A→[light]B"},
		{`\text{speed} = \frac{d}{t}`, "speed=d/t"},
		{`\alpha \le \beta`, "α≤β"},
		{`\unknown{x}`, `\unknownx`},
		{`\frac{a`, "a/"},
		{`}}x^`, "}}x^"},
	} {
		if got := pptx.MathText(latexMath(c.latex)); got != c.want {
			t.Errorf("latexMath(%q) = %q, want %q", c.latex, got, c.want)
		}
	}
	// Scripts bind to the last atom only: CO_2 lowers the 2 on the O.
	ns := latexMath(`CO_2`)
	if len(ns) != 2 || ns[0] != (pptx.MRun{Text: "C"}) {
		t.Fatalf("CO_2 = %#v", ns)
	}
	if s, ok := ns[1].(pptx.MSub); !ok || pptx.MathText(s.Base) != "O" {
		t.Errorf("CO_2's subscript is not on the O: %#v", ns[1])
	}
}

// TestLatexMathDepth: nesting past maxMathDepth is kept as text, not
// recursed into.
func TestLatexMathDepth(t *testing.T) {
	deep := strings.Repeat(`\frac{`, 10000) + "x" + strings.Repeat("}", 10000)
	got := pptx.MathText(latexMath(deep))
	if !strings.Contains(got, `\frac{`) || !strings.Contains(got, "x") {
		t.Errorf("deep nesting lost its text: %.80q", got)
	}
}

// TestLatexMathTeacherNotation: the notation the board draws maps to its
// Office Math element for the deck too.
func TestLatexMathTeacherNotation(t *testing.T) {
	for _, c := range []struct{ latex, want string }{
		{`\bar{x}`, `<m:bar><m:barPr><m:pos m:val="top"/></m:barPr><m:e><m:r><m:t>x</m:t></m:r></m:e></m:bar>`},
		{`\underline{\qquad}`, `<m:pos m:val="bot"/>`},
		{`\cancel{2}`, `<m:strikeBLTR m:val="1"/>`},
		{`\sqrt[3]{8}`, `<m:deg><m:r><m:t>3</m:t></m:r></m:deg>`},
		{`\begin{pmatrix}1&2\\3&4\end{pmatrix}`, `<m:d><m:dPr><m:begChr m:val="("/><m:endChr m:val=")"/></m:dPr><m:e><m:m><m:mr><m:e><m:r><m:t>1</m:t></m:r></m:e><m:e><m:r><m:t>2</m:t></m:r></m:e></m:mr><m:mr>`},
	} {
		if got := pptx.MathOMML(latexMath(c.latex)); !strings.Contains(got, c.want) {
			t.Errorf("latexMath(%q) = %s, want it to hold %s", c.latex, got, c.want)
		}
	}
}

// TestLatexMathAligned: aligned lines are one cell a line in Office Math,
// and \qquad a blank of em spaces.
func TestLatexMathAligned(t *testing.T) {
	ns := latexMath(`\begin{aligned} 2x &= 8 \\ x &= 4 \end{aligned}`)
	m, ok := ns[0].(pptx.MMatrix)
	if len(ns) != 1 || !ok || len(m.Rows) != 2 || len(m.Rows[0]) != 1 || pptx.MathText(m.Rows[0][0]) != "2x=8" {
		t.Errorf("aligned lines = %#v", ns)
	}
	if got := pptx.MathText(latexMath(`\underline{\qquad}`)); got != "\u2003\u2003" {
		t.Errorf(`\underline{\qquad} = %q, want two em spaces`, got)
	}
}
