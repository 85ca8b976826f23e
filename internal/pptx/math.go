package pptx

import (
	"fmt"
	"strings"
)

// MathNode is a piece of an Office Math equation (OMML, ECMA-376 §22.1):
// MRun, MFrac, MSup, MSub, MSubSup, MRad, MOver, MBar, MAcc, MStrike,
// MDelim or MMatrix.
type MathNode interface {
	omml(b *strings.Builder, rpr string)
}

// MRun is math text; Plain sets it upright (names, units, chemistry)
// instead of math italic.
type MRun struct {
	Text  string
	Plain bool
}

// MFrac is a stacked fraction.
type MFrac struct{ Num, Den []MathNode }

// MSup, MSub and MSubSup raise and lower scripts on a base.
type (
	MSup    struct{ Base, Sup []MathNode }
	MSub    struct{ Base, Sub []MathNode }
	MSubSup struct{ Base, Sub, Sup []MathNode }
)

// MRad is a square root (Deg empty) or an nth root.
type MRad struct{ Deg, E []MathNode }

// MOver sets Over small above Base (an arrow with a condition over it).
type MOver struct{ Base, Over []MathNode }

func (r MRun) omml(b *strings.Builder, rpr string) {
	t := clean(strings.ReplaceAll(r.Text, "\n", " "))
	if t == "" {
		return
	}
	b.WriteString(`<m:r>`)
	if r.Plain {
		b.WriteString(`<m:rPr><m:sty m:val="p"/></m:rPr>`)
	}
	b.WriteString(rpr)
	space := ""
	if strings.TrimSpace(t) != t {
		space = ` xml:space="preserve"`
	}
	fmt.Fprintf(b, `<m:t%s>%s</m:t></m:r>`, space, esc(t))
}

func (f MFrac) omml(b *strings.Builder, rpr string) {
	b.WriteString(`<m:f>`)
	arg(b, "m:num", f.Num, rpr)
	arg(b, "m:den", f.Den, rpr)
	b.WriteString(`</m:f>`)
}

func (s MSup) omml(b *strings.Builder, rpr string) {
	b.WriteString(`<m:sSup>`)
	arg(b, "m:e", s.Base, rpr)
	arg(b, "m:sup", s.Sup, rpr)
	b.WriteString(`</m:sSup>`)
}

func (s MSub) omml(b *strings.Builder, rpr string) {
	b.WriteString(`<m:sSub>`)
	arg(b, "m:e", s.Base, rpr)
	arg(b, "m:sub", s.Sub, rpr)
	b.WriteString(`</m:sSub>`)
}

func (s MSubSup) omml(b *strings.Builder, rpr string) {
	b.WriteString(`<m:sSubSup>`)
	arg(b, "m:e", s.Base, rpr)
	arg(b, "m:sub", s.Sub, rpr)
	arg(b, "m:sup", s.Sup, rpr)
	b.WriteString(`</m:sSubSup>`)
}

func (r MRad) omml(b *strings.Builder, rpr string) {
	b.WriteString(`<m:rad>`)
	if len(r.Deg) == 0 {
		b.WriteString(`<m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/>`)
	} else {
		arg(b, "m:deg", r.Deg, rpr)
	}
	arg(b, "m:e", r.E, rpr)
	b.WriteString(`</m:rad>`)
}

func (o MOver) omml(b *strings.Builder, rpr string) {
	b.WriteString(`<m:limUpp>`)
	arg(b, "m:e", o.Base, rpr)
	arg(b, "m:lim", o.Over, rpr)
	b.WriteString(`</m:limUpp>`)
}

func arg(b *strings.Builder, tag string, ns []MathNode, rpr string) {
	if len(ns) == 0 {
		b.WriteString(`<` + tag + `/>`)
		return
	}
	b.WriteString(`<` + tag + `>`)
	for _, n := range ns {
		n.omml(b, rpr)
	}
	b.WriteString(`</` + tag + `>`)
}

// mathRunProps is the DrawingML run format PowerPoint puts in each math
// run: the size, the colour and the math font.
func mathRunProps(size float64, c Color) string {
	var b strings.Builder
	b.WriteString(`<a:rPr lang="en-US"`)
	if size > 0 {
		fmt.Fprintf(&b, ` sz="%d"`, fontSize(size))
	}
	b.WriteString(`>`)
	if c.Hex != "" {
		fill(&b, c)
	}
	b.WriteString(`<a:latin typeface="Cambria Math"/></a:rPr>`)
	return b.String()
}

func mathJc(align string) string {
	switch align {
	case "l":
		return "left"
	case "r":
		return "right"
	}
	return "center"
}

// MathText is the equation as plain text, for a fallback or alt text:
// fractions as (a)/(b), scripts as ^ and _.
func MathText(ns []MathNode) string {
	var b strings.Builder
	mathText(&b, ns)
	return b.String()
}

func mathText(b *strings.Builder, ns []MathNode) {
	group := func(ns []MathNode) {
		s := MathText(ns)
		if len([]rune(s)) > 1 {
			s = "(" + s + ")"
		}
		b.WriteString(s)
	}
	for _, n := range ns {
		switch n := n.(type) {
		case MRun:
			b.WriteString(n.Text)
		case MFrac:
			group(n.Num)
			b.WriteString("/")
			group(n.Den)
		case MSup:
			mathText(b, n.Base)
			b.WriteString("^")
			group(n.Sup)
		case MSub:
			mathText(b, n.Base)
			b.WriteString("_")
			group(n.Sub)
		case MSubSup:
			mathText(b, n.Base)
			b.WriteString("_")
			group(n.Sub)
			b.WriteString("^")
			group(n.Sup)
		case MRad:
			b.WriteString("√")
			group(n.E)
		case MOver:
			mathText(b, n.Base)
			b.WriteString("[")
			mathText(b, n.Over)
			b.WriteString("]")
		case MBar:
			mathText(b, n.E)
		case MAcc:
			mathText(b, n.E)
		case MStrike:
			mathText(b, n.E)
		case MDelim:
			b.WriteString(n.Beg)
			mathText(b, n.E)
			b.WriteString(n.End)
		case MMatrix:
			for i, row := range n.Rows {
				if i > 0 {
					b.WriteString("; ")
				}
				for j, cell := range row {
					if j > 0 {
						b.WriteString(" ")
					}
					mathText(b, cell)
				}
			}
		}
	}
}

// MBar draws a bar over E (\bar, \overline), or under it when Under is set.
type MBar struct {
	E     []MathNode
	Under bool
}

// MAcc sets the accent Chr over E (\hat, \vec).
type MAcc struct {
	Chr string
	E   []MathNode
}

// MStrike strikes E through from bottom left to top right (\cancel).
type MStrike struct{ E []MathNode }

// MDelim wraps E in the delimiters Beg and End ("" for none), grown to its height.
type MDelim struct {
	Beg, End string
	E        []MathNode
}

// MMatrix is a grid of cells: a matrix, or aligned lines.
type MMatrix struct{ Rows [][][]MathNode }

func (m MBar) omml(b *strings.Builder, rpr string) {
	pos := "top"
	if m.Under {
		pos = "bot"
	}
	b.WriteString(`<m:bar><m:barPr><m:pos m:val="` + pos + `"/></m:barPr>`)
	arg(b, "m:e", m.E, rpr)
	b.WriteString(`</m:bar>`)
}

func (m MAcc) omml(b *strings.Builder, rpr string) {
	b.WriteString(`<m:acc><m:accPr><m:chr m:val="` + esc(m.Chr) + `"/></m:accPr>`)
	arg(b, "m:e", m.E, rpr)
	b.WriteString(`</m:acc>`)
}

func (m MStrike) omml(b *strings.Builder, rpr string) {
	b.WriteString(`<m:borderBox><m:borderBoxPr><m:hideTop m:val="1"/><m:hideBot m:val="1"/><m:hideLeft m:val="1"/><m:hideRight m:val="1"/><m:strikeBLTR m:val="1"/></m:borderBoxPr>`)
	arg(b, "m:e", m.E, rpr)
	b.WriteString(`</m:borderBox>`)
}

func (m MDelim) omml(b *strings.Builder, rpr string) {
	b.WriteString(`<m:d><m:dPr><m:begChr m:val="` + esc(m.Beg) + `"/><m:endChr m:val="` + esc(m.End) + `"/></m:dPr>`)
	arg(b, "m:e", m.E, rpr)
	b.WriteString(`</m:d>`)
}

func (m MMatrix) omml(b *strings.Builder, rpr string) {
	b.WriteString(`<m:m>`)
	for _, row := range m.Rows {
		b.WriteString(`<m:mr>`)
		for _, cell := range row {
			arg(b, "m:e", cell, rpr)
		}
		b.WriteString(`</m:mr>`)
	}
	b.WriteString(`</m:m>`)
}

// MathOMML is ns as Office Math XML without run formatting, to check a
// translation by its elements.
func MathOMML(ns []MathNode) string {
	var b strings.Builder
	for _, n := range ns {
		n.omml(&b, "")
	}
	return b.String()
}
