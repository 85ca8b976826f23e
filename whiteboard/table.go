package whiteboard

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/lessongen/lessongen/internal/textfit"
)

// A table element is a grid: a header row of column headings over rows of
// cells, every row as wide as the header. A cell written "" is a blank to
// fill in: drawn, and printed, as an empty box. Rows share the box's
// height evenly; the header is one of them.
const (
	// MaxTableColumns and MaxTableRows bound a table: a 30-value survey
	// fits as 3 rows of 10 or 10 rows of 3, and more cells than this do
	// not read on a board.
	MaxTableColumns = 12
	MaxTableRows    = 40
	// cellPad and cellPadY are the space inside a cell left and right,
	// and above and below, its text.
	cellPad  = 6.0
	cellPadY = 3.0
	// tableHeaderFill shades the header row when the style sets no fill.
	tableHeaderFill Color = "#eef2f6"
	// tableFill is a table's cells when its style sets no fill: white, to
	// write on.
	tableFill Color = "white"
)

// tableProblems checks a table's shape as written: at most MaxTableColumns
// headings, MaxTableRows rows, and every row one cell per heading.
func (e *Element) tableProblems() []problem {
	var ps []problem
	cols := len(e.Header.Value)
	if e.Header.Set && (cols == 0 || cols > MaxTableColumns) {
		ps = append(ps, problem{"header", fmt.Sprintf("a table's header names 1 to %d columns, got %d", MaxTableColumns, cols)})
	}
	if len(e.Rows.Value) > MaxTableRows {
		ps = append(ps, problem{"rows", fmt.Sprintf("a table has at most %d rows, got %d; split it into two tables", MaxTableRows, len(e.Rows.Value))})
	}
	if !e.Header.Set {
		return ps
	}
	for i, row := range e.Rows.Value {
		if len(row) != cols {
			ps = append(ps, problem{fmt.Sprintf("rows.%d", i), fmt.Sprintf("row %d has %d cells, the header has %d; give every row one cell per column (\"\" for a blank cell to fill in)", i+1, len(row), cols)})
		}
	}
	return ps
}

// tableGrid is where a table's cells go: the height of each row and the
// font its text is drawn in.
type tableGrid struct {
	box        textfit.Box
	cols, rows int // rows counts the header
	rowH, colW float64
	style      textfit.Style
}

// grid lays e's table out. Text is its style's size, else the body size,
// shrunk to what a row's height holds.
func (e *Element) grid() tableGrid {
	g := tableGrid{box: e.box(), cols: max(len(e.Header.Value), 1), rows: len(e.Rows.Value) + 1}
	if e.Rows.Pending {
		g.rows = 2 // the header over a placeholder as tall
	}
	g.rowH, g.colW = g.box.H/float64(g.rows), g.box.W/float64(g.cols)
	g.style = e.renderStyle()
	if g.style.FontSize == 0 {
		g.style.FontSize = max(math.Floor(min(bodyFontSize, (g.rowH-2*cellPadY)/textfit.LineHeight)), 1)
	}
	return g
}

// cell is the box of the cell at row r (0 is the header), column c.
func (g tableGrid) cell(r, c int) textfit.Box {
	return textfit.Box{X: g.box.X + float64(c)*g.colW, Y: g.box.Y + float64(r)*g.rowH, W: g.colW, H: g.rowH}
}

// inner is the room for text in the cell at row r, column c.
func (g tableGrid) inner(r, c int) textfit.Box {
	b := g.cell(r, c)
	return textfit.Box{X: b.X + cellPad, Y: b.Y + cellPadY, W: max(b.W-2*cellPad, 0), H: max(b.H-2*cellPadY, 0)}
}

// tableDefects is the fit check of a table: text too small for its rows,
// and the first cell whose text does not fit (with how many others do
// not), so a big table gives one warning, not one per cell.
func (g Geometry) tableDefects(e *Element) []string {
	if !e.Header.Set {
		return nil
	}
	tg := e.grid()
	var out []string
	if size := tg.style.Size(); size < g.MinFontSize {
		out = append(out, fmt.Sprintf("%s's text is %g px in rows %g px tall, too small to read on a %gpx-wide canvas (at least %g); make the table taller or give it fewer rows",
			e.ID, size, math.Round(tg.rowH*10)/10, g.Width, g.MinFontSize))
	}
	var first string
	bad := 0
	for r, row := range e.tableRows() {
		for c, text := range row {
			st := tg.style
			st.Bold, st.MinFontSize = r == 0, g.MinFontSize
			if v := textfit.Fit(text, st, tg.inner(r, c)); !v.Fits {
				if bad == 0 {
					first = fmt.Sprintf("%s's %s does not fit its %gx%g cell: %s", e.ID, cellName(r, c), math.Round(tg.colW*10)/10, math.Round(tg.rowH*10)/10, v.Hint)
				}
				bad++
			}
		}
	}
	if bad > 1 {
		first += fmt.Sprintf(" (and %d other cells do not fit either)", bad-1)
	}
	if bad > 0 {
		out = append(out, first)
	}
	return out
}

// tableRows is the header then the written rows.
func (e *Element) tableRows() [][]string {
	return append([][]string{e.Header.Value}, e.Rows.Value...)
}

func cellName(r, c int) string {
	if r == 0 {
		return fmt.Sprintf("heading %d", c+1)
	}
	return fmt.Sprintf("cell in row %d, column %d", r, c+1)
}

// blankCells counts the cells written "" (to fill in).
func (e *Element) blankCells() int {
	n := 0
	for _, row := range e.Rows.Value {
		for _, c := range row {
			if strings.TrimSpace(c) == "" {
				n++
			}
		}
	}
	return n
}

// renderTable draws a table: the header row shaded, a grid of lines, each
// cell's text centred, and each blank cell an empty box (class
// "blank-cell") to write in.
func (e *Element) renderTable(s *strings.Builder) {
	if e.Header.Pending {
		drawPlaceholder(s, e.box(), "table", e.Header.Hint)
		return
	}
	color, line, fill, _ := e.colors()
	header := string(tableHeaderFill)
	if fill == "none" {
		fill = string(tableFill)
	} else {
		header = fill
	}
	tg := e.grid()
	sw := e.strokeWidth(2)
	b := tg.box
	fmt.Fprintf(s, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\"/>", n(b.X), n(b.Y), n(b.W), n(b.H), html.EscapeString(fill))
	fmt.Fprintf(s, "<rect class=\"table-header\" x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\"/>", n(b.X), n(b.Y), n(b.W), n(tg.rowH), html.EscapeString(header))
	for r, row := range e.tableRows() {
		for c, text := range row {
			cb, in := tg.cell(r, c), tg.inner(r, c)
			if strings.TrimSpace(text) == "" && r > 0 {
				fmt.Fprintf(s, "<rect class=\"blank-cell\" x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"none\"/>", n(cb.X), n(cb.Y), n(cb.W), n(cb.H))
				continue
			}
			st := tg.style
			st.Bold = r == 0
			l := textfit.Wrap(text, st, in.W)
			at := textfit.Box{X: in.X, Y: cb.Y + (cb.H-l.Height)/2, W: in.W, H: l.Height}
			s.WriteString(l.SVG(at, "center", color))
		}
	}
	e.tableLines(s, tg, line, sw)
	if e.Rows.Pending {
		drawPlaceholder(s, tg.cellsBelowHeader(), "rows", e.Rows.Hint)
	}
}

// cellsBelowHeader is the part of the table under its header row.
func (g tableGrid) cellsBelowHeader() textfit.Box {
	return textfit.Box{X: g.box.X, Y: g.box.Y + g.rowH, W: g.box.W, H: g.box.H - g.rowH}
}

// tableLines draws the outline and the lines between rows and columns.
func (e *Element) tableLines(s *strings.Builder, tg tableGrid, line string, sw float64) {
	b := tg.box
	stroke := fmt.Sprintf(" stroke=\"%s\" stroke-width=\"%s\"", html.EscapeString(line), n(sw))
	var d strings.Builder
	for r := 1; r < tg.rows; r++ {
		y := b.Y + float64(r)*tg.rowH
		fmt.Fprintf(&d, "M%s,%sH%s", n(b.X), n(y), n(b.X+b.W))
	}
	for c := 1; c < tg.cols; c++ {
		x := b.X + float64(c)*tg.colW
		fmt.Fprintf(&d, "M%s,%sV%s", n(x), n(b.Y), n(b.Y+b.H))
	}
	fmt.Fprintf(s, "<path class=\"table-grid\" d=\"%s\" fill=\"none\"%s/>", d.String(), stroke)
	fmt.Fprintf(s, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"none\"%s/>", n(b.X), n(b.Y), n(b.W), n(b.H), stroke)
}
