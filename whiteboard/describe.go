package whiteboard

import (
	"fmt"
	"iter"
	"math"
	"strconv"
	"strings"

	"github.com/lessongen/lessongen/internal/clip"
	"github.com/lessongen/lessongen/internal/itemlist"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// Describe says in plain sentences what the whiteboard holds, for a model's
// context and for people reading `lessongen plan`: its Content, then the
// author's brief while the board is pending. Every value in it is clipped
// (clip.Text): a huge text is shown by its start, never whole.
func (b *Board) Describe() string { return b.describe(true, true) }

// Summary is Describe without where each element sits: what the other
// children of its slide need to agree with the board (its words, its
// pictures), for their describe chains (session.Summarizer).
func (b *Board) Summary() string { return b.describe(true, false) }

// Content is Describe without the brief, which a filled board keeps in
// memory but its saved file does not: what resume compares.
func (b *Board) Content() string { return b.describe(false, true) }

func (b *Board) describe(brief, where bool) string {
	c := b.CanvasSize()
	var s strings.Builder
	fmt.Fprintf(&s, "A %dx%d whiteboard", c.Width, c.Height)
	if c.Background != "" {
		fmt.Fprintf(&s, " on a %s background", c.Background) // a colour, checked by pattern
	}
	switch {
	case b.Heading.Set:
		fmt.Fprintf(&s, ", headed %q.", clip.Text(b.Heading.Value))
	default:
		s.WriteString(", heading not written yet.")
	}
	if b.Layout.Set {
		fmt.Fprintf(&s, " Layout: %s.", strings.TrimSuffix(clip.Text(b.Layout.Value), "."))
	}
	var els []*Element
	for _, e := range b.Elements.Value {
		if !e.IsPlaceholder {
			els = append(els, e)
		}
	}
	switch len(els) {
	case 0:
		s.WriteString(" It has no elements yet.")
	case 1:
		s.WriteString(" It has 1 element:")
	default:
		fmt.Fprintf(&s, " It has %d elements:", len(els))
	}
	for _, e := range els {
		s.WriteString("\n- " + e.describe(where))
	}
	hint := b.Hint()
	if hint == "" && b.Elements.Pending {
		hint = b.Elements.Hint // a whole-pending board saved part way keeps its hint here
	}
	if hint != "" && brief {
		fmt.Fprintf(&s, "\nBrief for this whiteboard: %s.", strings.TrimSuffix(clip.Text(hint), "."))
	}
	return s.String()
}

func (e *Element) describe(where bool) string {
	box := ""
	if where {
		box = fmt.Sprintf(" at (%g,%g) size %gx%g", e.X, e.Y, e.W, e.H)
	}
	text := func(label string, f interface{ Get() (string, bool) }) string {
		if v, ok := f.Get(); ok {
			return fmt.Sprintf(" %s %q", label, clip.Text(v))
		}
		return " " + label + " (pending)"
	}
	switch e.Type {
	case KindText:
		return fmt.Sprintf("text %s%s:%s", e.ID, box, text("reading", e.Text))
	case KindShape:
		d := fmt.Sprintf("%s %s%s", e.Shape, e.ID, box)
		if e.Label.Set || e.Label.Pending {
			d += "," + text("labelled", e.Label)
		}
		return d
	case KindArrow:
		end := func(id string, p *Point) string {
			if p != nil {
				return fmt.Sprintf("point (%g,%g)", p.X, p.Y)
			}
			return id
		}
		d := fmt.Sprintf("arrow %s from %s to %s", e.ID, end(e.From, e.FromPoint), end(e.To, e.ToPoint))
		switch e.Heads {
		case "none":
			d = fmt.Sprintf("line %s from %s to %s (no arrowheads)", e.ID, end(e.From, e.FromPoint), end(e.To, e.ToPoint))
		case "start":
			d += " (arrowhead at the from end)"
		case "both":
			d += " (arrowheads at both ends)"
		}
		if e.Label.Set || e.Label.Pending {
			d += "," + text("labelled", e.Label)
		}
		return d
	case KindEquation:
		return fmt.Sprintf("equation %s%s:%s", e.ID, box, text("LaTeX", e.Latex))
	case KindImage:
		description, alt := e.imageText()
		return fmt.Sprintf("image %s%s:%s,%s%s", e.ID, box, text("showing", description), text("alt", alt), e.pictureNote())
	case KindCode, KindTable, KindBlank:
		return e.describeWorksheet(box, text)
	}
	return e.ID
}

// describeWorksheet describes code, a table or an answer space; text
// quotes a field, or says it is pending.
func (e *Element) describeWorksheet(box string, text func(string, interface{ Get() (string, bool) }) string) string {
	switch e.Type {
	case KindCode:
		d := "code " + e.ID
		if e.Language != "" {
			d = fmt.Sprintf("%s code %s", clip.Text(e.Language), e.ID)
		}
		d = fmt.Sprintf("%s%s:%s", d, box, text("reading", e.Code))
		if e.hasOutput() {
			d += "," + text("with output", e.Output)
		}
		return d
	case KindTable:
		return fmt.Sprintf("table %s%s: %s", e.ID, box, e.describeTable())
	}
	d := fmt.Sprintf("answer space %s%s", e.ID, box)
	if e.Label.Set || e.Label.Pending {
		d += "," + text("labelled", e.Label)
	}
	return d
}

// describeTable says a table's headings and rows, a blank cell as _.
func (e *Element) describeTable() string {
	if !e.Header.Set {
		return "headings (pending)"
	}
	row := func(cells []string) string {
		out := make([]string, len(cells))
		for i, c := range cells {
			out[i] = strconv.Quote(clip.Text(c))
			if strings.TrimSpace(c) == "" {
				out[i] = "_"
			}
		}
		return "[" + strings.Join(out, ", ") + "]"
	}
	d := "headings " + row(e.Header.Value)
	switch rows := e.Rows.Value; {
	case e.Rows.Pending:
		return d + ", rows (pending)"
	case len(rows) == 0:
		return d + ", no rows"
	default:
		d += fmt.Sprintf(", %d rows", len(rows))
		if n := e.blankCells(); n > 0 {
			d += fmt.Sprintf(" (%d blank cells, _, for pupils to fill in)", n)
		}
		parts := make([]string, 0, min(len(rows), describedRows))
		for _, r := range rows[:min(len(rows), describedRows)] {
			parts = append(parts, row(r))
		}
		d += ": " + strings.Join(parts, " ")
		if len(rows) > describedRows {
			d += fmt.Sprintf(" … and %d more", len(rows)-describedRows)
		}
		return d
	}
}

// describedRows is how many of a table's rows a description shows.
const describedRows = 12

// Pending lists what is still to be generated, metadata first.
func (b *Board) Pending() []session.Pending {
	var ps []session.Pending
	meta := func(path string, pending bool, hint string) {
		if pending {
			ps = append(ps, session.Pending{Level: session.LevelMetadata, Path: path, Hint: hint})
		}
	}
	meta("canvas", b.Canvas.Pending, b.Canvas.Hint)
	meta("heading", b.Heading.Pending, b.Heading.Hint)
	meta("layout", b.Layout.Pending, b.Layout.Hint)
	return append(ps, b.list().Pending("elements", nil, elementFields)...)
}

// elementFields are the fields of e that may be pending.
func elementFields(e *Element) []itemlist.Field {
	var fs []itemlist.Field
	for name, f := range e.textFields() {
		fs = append(fs, itemlist.Field{Name: name, Pending: f.Pending, Hint: f.Hint})
	}
	return append(fs, itemlist.Field{Name: "header", Pending: e.Header.Pending, Hint: e.Header.Hint},
		itemlist.Field{Name: "rows", Pending: e.Rows.Pending, Hint: e.Rows.Hint})
}

// textFields yields an element's optional text fields in a fixed order.
func (e *Element) textFields() iter.Seq2[string, *yamlsrc.Field[string]] {
	return func(yield func(string, *yamlsrc.Field[string]) bool) {
		for _, f := range []struct {
			name string
			f    *yamlsrc.Field[string]
		}{{"text", &e.Text}, {"label", &e.Label}, {"latex", &e.Latex}, {"description", &e.Description}, {"alt", &e.Alt}, {"code", &e.Code}, {"output", &e.Output}} {
			if !yield(f.name, f.f) {
				return
			}
		}
	}
}

// defect is a layout warning and the elements it concerns: the element
// itself and, for an overlap, the other one.
type defect struct {
	session.Warning
	ids [2]string
	// dangling marks an arrow naming a missing element: in author content
	// that is an error at load, not a warning.
	dangling bool
}

// recompute finds layout defects (see layout.go): a heading or text that
// does not fit its box, text too small to read, elements past the canvas
// edge, elements that partly overlap (a label fully inside a shape is fine),
// and arrows to elements that do not exist.
func (b *Board) recompute() {
	c := b.CanvasSize()
	g := b.Geometry()
	b.defects = b.defects[:0]
	if h, ok := b.Heading.Get(); ok {
		if msg := g.headingDefect(h); msg != "" {
			b.defects = append(b.defects, defect{Warning: session.Warning{Path: "heading", Message: msg}})
		}
	}
	var boxed []*Element
	for _, e := range b.Elements.Value {
		if e.IsPlaceholder {
			continue
		}
		if e.Type == KindArrow {
			for _, end := range []string{e.From, e.To} {
				if _, ok := b.byID[end]; !ok && end != "" { // "": a free end (a point)
					b.defects = append(b.defects, defect{session.Warning{Path: "elements[" + e.ID + "]", Message: fmt.Sprintf("arrow %s points at %q, which does not exist", e.ID, end)}, [2]string{e.ID}, true})
				}
			}
			continue
		}
		if e.X+e.W > float64(c.Width) || e.Y+e.H > float64(c.Height) {
			b.defects = append(b.defects, defect{session.Warning{Path: "elements[" + e.ID + "]",
				Message: fmt.Sprintf("%s runs past the canvas edge (right %g of %d, bottom %g of %d)", e.ID, e.X+e.W, c.Width, e.Y+e.H, c.Height)}, [2]string{e.ID}, false})
		}
		if b.hasHeading() {
			if msg := g.headingOverlap(e); msg != "" {
				b.defects = append(b.defects, defect{session.Warning{Path: "elements[" + e.ID + "]", Message: msg}, [2]string{e.ID}, false})
			}
		}
		for _, msg := range g.textDefects(e) {
			b.defects = append(b.defects, defect{session.Warning{Path: "elements[" + e.ID + "]", Message: msg}, [2]string{e.ID}, false})
		}
		if msg := b.contrastDefect(e); msg != "" {
			b.defects = append(b.defects, defect{session.Warning{Path: "elements[" + e.ID + "]", Message: msg}, [2]string{e.ID}, false})
		}
		if e.Type == KindEquation && e.Latex.Set {
			if msg := latexLimit(e.Latex.Value); msg != "" {
				b.defects = append(b.defects, defect{session.Warning{Path: "elements[" + e.ID + "]",
					Message: fmt.Sprintf("%s's LaTeX %s, so it is drawn as written, untranslated; %s", e.ID, msg, latexLimitHint)}, [2]string{e.ID}, false})
			}
			if unk := latexUnknown(e.Latex.Value); len(unk) > 0 {
				b.defects = append(b.defects, defect{session.Warning{Path: "elements[" + e.ID + "]",
					Message: fmt.Sprintf("%s's LaTeX uses %s, which the board cannot draw, so it is shown as written; %s", e.ID, strings.Join(unk, ", "), latexUnknownHint)}, [2]string{e.ID}, false})
			}
		}
		boxed = append(boxed, e)
	}
	for i, a := range boxed {
		for _, o := range boxed[i+1:] {
			if w, h, partial := overlap(a, o); partial {
				b.defects = append(b.defects, defect{session.Warning{Path: "elements[" + o.ID + "]",
					Message: fmt.Sprintf("%s overlaps %s by %gx%g px; move or resize one of them", o.ID, a.ID, w, h)}, [2]string{o.ID, a.ID}, false})
			}
		}
	}
	b.defects = append(b.defects, b.arrowDefects()...)
}

// Defects returns the current layout warnings.
func (b *Board) Defects() []session.Warning {
	out := make([]session.Warning, len(b.defects))
	for i, d := range b.defects {
		out[i] = d.Warning
	}
	return out
}

func overlap(a, o *Element) (w, h float64, partial bool) {
	w = math.Min(a.X+a.W, o.X+o.W) - math.Max(a.X, o.X)
	h = math.Min(a.Y+a.H, o.Y+o.H) - math.Max(a.Y, o.Y)
	if w <= 0 || h <= 0 {
		return 0, 0, false
	}
	inside := func(p, q *Element) bool {
		return p.X >= q.X && p.Y >= q.Y && p.X+p.W <= q.X+q.W && p.Y+p.H <= q.Y+q.H
	}
	return w, h, !inside(a, o) && !inside(o, a)
}
