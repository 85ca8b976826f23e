package pptx

import (
	"fmt"
	"strings"
)

// Table is a native table (a:tbl in a p:graphicFrame): PowerPoint and
// Impress edit it as a table, so a teacher can type into a blank cell.
// Rows[0] is the header, drawn bold on HeaderFill; every row is as wide
// as the header; a "" cell is empty, its borders a box to write in.
type Table struct {
	Name, Descr string
	Box         Box
	Rows        [][]string
	Size        float64 // points
	Color       Color   // the text's
	HeaderFill  Color
	Fill        Color
	Line        Line // every cell border
}

func (*Table) shape() {}

// nsTable is the graphicData uri of a DrawingML table.
const nsTable = "http://schemas.openxmlformats.org/drawingml/2006/table"

// table writes t with shape id id.
func (w *sw) table(t *Table, id int) {
	b := &w.b
	fmt.Fprintf(b, `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="%d" name="%s"`, id, attr(t.Name))
	if t.Descr != "" {
		b.WriteString(` descr="` + attr(t.Descr) + `"`)
	}
	b.WriteString(`/><p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr>`)
	fmt.Fprintf(b, `<p:xfrm><a:off x="%d" y="%d"/><a:ext cx="%d" cy="%d"/></p:xfrm>`, t.Box.X, t.Box.Y, max(t.Box.W, 0), max(t.Box.H, 0))
	fmt.Fprintf(b, `<a:graphic><a:graphicData uri="%s"><a:tbl><a:tblPr firstRow="1"/><a:tblGrid>`, nsTable)
	cols := 1
	if len(t.Rows) > 0 {
		cols = max(len(t.Rows[0]), 1)
	}
	rows := max(len(t.Rows), 1)
	for c := range cols {
		// The last column takes the rounding, so the grid is the frame.
		fmt.Fprintf(b, `<a:gridCol w="%d"/>`, t.Box.W/int64(cols)+boolInt(c == cols-1)*(t.Box.W%int64(cols)))
	}
	b.WriteString(`</a:tblGrid>`)
	for r, row := range t.Rows {
		fmt.Fprintf(b, `<a:tr h="%d">`, t.Box.H/int64(rows))
		for c := range cols {
			cell := ""
			if c < len(row) {
				cell = row[c]
			}
			fill := t.Fill
			if r == 0 && t.HeaderFill.Hex != "" {
				fill = t.HeaderFill
			}
			w.cell(cell, r == 0, fill, t)
		}
		b.WriteString(`</a:tr>`)
	}
	b.WriteString(`</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`)
}

// cell writes one table cell: its text centred, or nothing, and its
// borders and fill.
func (w *sw) cell(text string, bold bool, fill Color, t *Table) {
	b := &w.b
	b.WriteString(`<a:tc><a:txBody><a:bodyPr/><a:lstStyle/>`)
	if strings.TrimSpace(text) == "" {
		fmt.Fprintf(b, `<a:p><a:endParaRPr lang="en-US" sz="%d"/></a:p>`, fontSize(t.Size))
	} else {
		paras(b, []Para{{Runs: []Run{{Text: text, Size: t.Size, Bold: bold, Color: t.Color}}, Align: "ctr"}})
	}
	b.WriteString(`</a:txBody><a:tcPr marL="45720" marR="45720" marT="22860" marB="22860" anchor="ctr">`)
	for _, side := range []string{"lnL", "lnR", "lnT", "lnB"} {
		var l strings.Builder
		line(&l, &t.Line)
		b.WriteString(strings.Replace(strings.Replace(l.String(), "<a:ln ", "<a:"+side+" ", 1), "</a:ln>", "</a:"+side+">", 1))
	}
	if fill.Hex != "" {
		b.WriteString(`<a:solidFill>`)
		color(b, fill)
		b.WriteString(`</a:solidFill>`)
	} else {
		b.WriteString(`<a:noFill/>`)
	}
	b.WriteString(`</a:tcPr></a:tc>`)
}

func boolInt(v bool) int64 {
	if v {
		return 1
	}
	return 0
}
