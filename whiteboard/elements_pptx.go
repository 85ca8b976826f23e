package whiteboard

import (
	"math"
	"strings"

	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/internal/textfit"
)

// pptxMono is the typeface code is set in on a slide: Go Mono is not on
// the viewer's machine, and Courier New is (Impress substitutes the
// metric-compatible Liberation Mono); both are 0.6 em a character, as Go
// Mono is, so code fits its box as the checks measured it.
const pptxMono = "Courier New"

// codePPTX draws a code element as a group: the code panel, its text in
// the monospace face, and the output's dark panel under it.
func (m mapper) codePPTX(e *Element) pptx.Shape {
	if e.Code.Pending {
		return m.placeholder(e.ID, e.box(), "code", e.Code.Hint)
	}
	code, output := e.codePanels()
	text, _, fillInk := e.inks()
	if fillInk == "" {
		fillInk = codeFill
	}
	col, _ := pptxColor(text)
	fill, _ := pptxColor(fillInk)
	size := m.pt(e.codeStyle().Size())
	inset := int64(math.Round(codePad * m.scale))
	run := func(s string, c pptx.Color) []pptx.Para {
		return []pptx.Para{{Runs: []pptx.Run{{Text: expandTabs(s), Size: size, Color: c, Font: pptxMono}}}}
	}
	shapes := []pptx.Shape{&pptx.Sp{Name: e.ID + " code", Descr: e.Language, Box: m.box(code), Geom: "roundRect", Fill: fill,
		Line: m.line(codeRule, 1), Inset: inset, Paras: run(e.Code.Value, col)}}
	switch {
	case e.Output.Pending:
		shapes = append(shapes, m.placeholder(e.ID+" output", output, "output", e.Output.Hint))
	case e.Output.Set:
		bg, _ := pptxColor(outputFill)
		ink, _ := pptxColor(outputInk)
		shapes = append(shapes, &pptx.Sp{Name: e.ID + " output", Box: m.box(output), Geom: "roundRect", Fill: bg, Inset: inset, Paras: run(e.Output.Value, ink)})
	}
	return &pptx.Group{Name: e.ID, Shapes: shapes}
}

// expandTabs is code's tabs as the spaces the board draws (textfit's
// TabWidth), so its indentation survives the viewer's own tab stops.
func expandTabs(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = textfit.ExpandTabs(l)
	}
	return strings.Join(lines, "\n")
}

// tablePPTX draws a table as a native table: a teacher can type into its
// blank cells. Rows still to be generated are a placeholder under the
// header.
func (m mapper) tablePPTX(e *Element) pptx.Shape {
	if e.Header.Pending {
		return m.placeholder(e.ID, e.box(), "table", e.Header.Hint)
	}
	text, stroke, fillInk := e.inks()
	col, _ := pptxColor(text)
	header, fill := tableHeaderFill, tableFill
	if fillInk != "" {
		header, fill = fillInk, fillInk
	}
	hf, _ := pptxColor(header)
	bf, _ := pptxColor(fill)
	ln := m.line(stroke, e.strokeWidth(2))
	if ln == nil {
		ln = &pptx.Line{}
	}
	tg := e.grid()
	rows := e.tableRows()
	box := tg.box
	if e.Rows.Pending {
		rows, box.H = rows[:1], tg.rowH
	}
	t := &pptx.Table{Name: e.ID, Box: m.box(box), Rows: rows, Size: m.pt(tg.style.Size()), Color: col, HeaderFill: hf, Fill: bf, Line: *ln}
	if !e.Rows.Pending {
		return t
	}
	return &pptx.Group{Name: e.ID, Shapes: []pptx.Shape{t, m.placeholder(e.ID+" rows", tg.cellsBelowHeader(), "rows", e.Rows.Hint)}}
}

// blankPPTX draws an answer space as a group: its label and its ruled
// lines, nothing written on them.
func (m mapper) blankPPTX(e *Element) pptx.Shape {
	text, stroke, _ := e.inks()
	col, _ := pptxColor(text)
	l := e.blankLayout()
	box := e.box()
	var shapes []pptx.Shape
	if len(l.label.Lines) > 0 && len(l.rules) > 0 {
		at := textfit.Box{X: box.X, Y: l.rules[0] - l.label.Height - 2, W: l.label.Width + labelGap, H: l.label.Height}
		shapes = append(shapes, &pptx.Sp{Name: e.ID + " label", Box: m.box(at), Inset: 1, Anchor: "b",
			Paras: []pptx.Para{{Runs: []pptx.Run{{Text: e.labelText(), Size: m.pt(e.renderStyle().Size()), Color: col}}}}})
	}
	for i, y := range l.rules {
		x := box.X
		if i == 0 {
			x = l.x0
		}
		shapes = append(shapes, &pptx.Sp{Name: e.ID + " line", Geom: "line", Box: m.box(textfit.Box{X: x, Y: y - 1, W: box.X + box.W - x}), Line: m.line(stroke, e.strokeWidth(2))})
	}
	return &pptx.Group{Name: e.ID, Shapes: shapes}
}
