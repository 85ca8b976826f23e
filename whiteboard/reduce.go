package whiteboard

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/lessongen/lessongen/internal/itemlist"
	"github.com/lessongen/lessongen/internal/nodemeta"
	"github.com/lessongen/lessongen/internal/rule"
	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// Reports: what a reduce tells whoever dispatched the intent.
type (
	Added struct {
		ID        string `json:"added"`
		Type      Kind   `json:"type"`
		PendingID string `json:"placed_at,omitempty"`
	}
	Changed = itemlist.Changed
	Deleted struct {
		IDs []string `json:"deleted"`
	}
	Set    = nodemeta.Set
	Closed = itemlist.Closed
)

// save copies everything a reduce may change and returns how to put it
// back. Whiteboards are small, so copying one costs little and makes every
// undo exact; the cost is per whiteboard, never per lesson.
func (b *Board) save() (restore func()) {
	generated, canvas, heading, layout := b.meta.Generated(), b.Canvas, b.Heading, b.Layout
	elements := b.list().Copy(func(e *Element) {
		if e.Style != nil {
			s := *e.Style
			e.Style = &s
		}
	})
	nextID, selection := b.nextID, slices.Clone(b.selection)
	return func() {
		b.Canvas, b.Heading, b.Layout, b.Elements = canvas, heading, layout, elements
		b.meta.Restore(generated)
		b.nextID, b.selection = nextID, selection
		b.list().Reindex()
	}
}

// Reduce applies one intent. See session.State.
func (b *Board) Reduce(rc *session.Context, in session.Intent) (func(), error) {
	switch in.(type) {
	case DescribeWhiteboard:
		rc.Report(b.Review())
		// Every defect, including those other results only counted.
		for _, d := range b.defects {
			rc.Warn(d.Warning)
		}
		return nil, nil
	case ListPending:
		rc.Report(b.Pending())
		return nil, nil
	}
	return nodemeta.Reduce(b.save, func() error { return b.apply(rc, in) })
}

// Recompile re-derives the element index and the layout defects. It warns
// of the defects the change caused (new ones) and those that concern the
// element it names, and only counts the rest: a result that repeated every
// defect would grow with the board, and a turn of many calls with its
// square.
func (b *Board) Recompile(rc *session.Context, in session.Intent) {
	before := make(map[session.Warning]bool, len(b.defects))
	for _, d := range b.defects {
		before[d.Warning] = true
	}
	b.list().Reindex()
	b.recompute()
	target := targetOf(in)
	elsewhere := 0
	for _, d := range b.defects {
		if !before[d.Warning] || target != "" && (d.ids[0] == target || d.ids[1] == target) {
			rc.Warn(d.Warning)
		} else {
			elsewhere++
		}
	}
	rc.Elsewhere(elsewhere)
}

// targetOf names the existing element an intent changes, if it names one.
func targetOf(in session.Intent) string {
	switch in := in.(type) {
	case UpdateElement:
		return in.ID
	case MoveElement:
		return in.ID
	case ResizeElement:
		return in.ID
	}
	return ""
}

// boardIntent is an intent a board applies, each by its own applyTo
// (apply.go).
type boardIntent interface {
	applyTo(b *Board, rc *session.Context) error
}

func (b *Board) apply(rc *session.Context, in session.Intent) error {
	if a, ok := in.(boardIntent); ok {
		return a.applyTo(b, rc)
	}
	return session.Reject(session.KindInvalidArgs, "", "", "a whiteboard cannot apply %T", in)
}

// danglingArrow reports whether an arrow names an element the board lacks.
func (b *Board) danglingArrow() bool {
	for _, e := range b.elements() {
		if e.Type != KindArrow || e.IsPlaceholder {
			continue
		}
		// A free end (from_point, to_point) names no element.
		for _, end := range []string{e.From, e.To} {
			if _, ok := b.byID[end]; end != "" && !ok {
				return true
			}
		}
	}
	return false
}

// extent is how far right and down the board's elements reach: a canvas
// smaller than that would cut them off.
func (b *Board) extent() (w, h float64) {
	for _, e := range b.elements() {
		if !e.IsPlaceholder && e.Type != KindArrow {
			w, h = max(w, e.X+e.W), max(h, e.Y+e.H)
		}
		for _, p := range []*Point{e.FromPoint, e.ToPoint} { // an arrow's free ends
			if p != nil {
				w, h = max(w, p.X), max(h, p.Y)
			}
		}
	}
	return w, h
}

// checkBox rejects a box that does not start on the canvas. A box that starts
// on it but runs past an edge is allowed and reported as a layout warning, so
// a model can see and fix it.
func (b *Board) checkBox(box Box) error {
	c := b.CanvasSize()
	switch {
	case !(box.X >= 0 && box.X <= float64(c.Width)): // NaN too
		return session.Reject(session.KindInvalidArgs, "x", fmt.Sprintf("x must be between 0 and %d; the canvas is %d wide", c.Width, c.Width), "x = %g is off the canvas", box.X)
	case !(box.Y >= 0 && box.Y <= float64(c.Height)):
		return session.Reject(session.KindInvalidArgs, "y", fmt.Sprintf("y must be between 0 and %d; the canvas is %d high", c.Height, c.Height), "y = %g is off the canvas", box.Y)
	case !sizeRule("w").In(box.W):
		return session.Reject(session.KindInvalidArgs, "w", "w must be "+sizeRule("w").Range(), "w = %g is not a usable width", box.W)
	case !sizeRule("h").In(box.H):
		return session.Reject(session.KindInvalidArgs, "h", "h must be "+sizeRule("h").Range(), "h = %g is not a usable height", box.H)
	}
	return nil
}

// checkStyle is the dispatch check of a style.
func checkStyle(s *Style) error {
	if err := checkLayoutStyle(s); err != nil {
		return err
	}
	if s == nil {
		return nil
	}
	if err := checkColor("style.color", s.Color); err != nil {
		return err
	}
	if err := checkColor("style.stroke", s.Stroke); err != nil {
		return err
	}
	return checkColor("style.fill", s.Fill)
}

// checkLayoutStyle checks a style's alignment and font size, at load and at
// dispatch, against the ranges Style's tags declare.
func checkLayoutStyle(s *Style) *session.Error {
	if s == nil {
		return nil
	}
	if r := rule.Of[Style]("align"); s.Align != "" && !r.Allows(s.Align) {
		return session.Reject(session.KindInvalidArgs, "style.align", "use "+r.Options(), "style.align must be %s, got %q", r.Options(), s.Align)
	}
	if r := rule.Of[Style]("font_size"); s.FontSize != 0 && !r.In(s.FontSize) {
		return session.Reject(session.KindInvalidArgs, "style.font_size", "font_size must be "+r.Range(), "style.font_size must be %s, got %g", r.Range(), s.FontSize)
	}
	if r := rule.Of[Style]("stroke_width"); s.StrokeWidth != 0 && !r.In(s.StrokeWidth) {
		return session.Reject(session.KindInvalidArgs, "style.stroke_width", "stroke_width must be "+r.Range(), "style.stroke_width must be %s, got %g", r.Range(), s.StrokeWidth)
	}
	return nil
}

// add gives e an id and box and places it: at its placeholder when it fills
// one, else at the end.
func (b *Board) add(rc *session.Context, e *Element, box Box, at Placing) error {
	if at.ID != "" {
		if err := session.CheckChosenID(at.ID, b.list().Taken); err != nil {
			return err
		}
	}
	if err := sources.CheckList(at.Sources); err != nil {
		return err
	}
	e.Sources = slices.Clone(at.Sources)
	if e.Type != KindArrow {
		e.X, e.Y, e.W, e.H = box.X, box.Y, box.W, box.H
	}
	e.ID = at.ID
	if e.ID == "" {
		e.ID = b.list().Numbered(idPrefix(e.Type), &b.nextID)
	}
	ph, _, err := b.list().Add(e, at.PendingID, 0)
	if err != nil {
		return err
	}
	rep := Added{ID: e.ID, Type: e.Type}
	if ph != nil {
		rep.PendingID = ph.PlaceholderID
	}
	rc.Report(rep)
	return nil
}

// idPrefix starts the ids generation gives elements of kind k.
func idPrefix(k Kind) string {
	switch k {
	case KindEquation:
		return "eq"
	case KindImage:
		return "img"
	}
	return string(k)
}

func (b *Board) update(rc *session.Context, in UpdateElement) error {
	e, ok := b.list().Get(in.ID)
	if !ok {
		return b.list().NotFound("id", in.ID)
	}
	type change struct {
		name  string
		value *string
		field *yamlsrc.Field[string]
		kinds []Kind
	}
	changes := []change{
		{"text", in.Text, &e.Text, []Kind{KindText}},
		{"label", in.Label, &e.Label, []Kind{KindShape, KindArrow, KindBlank}},
		{"latex", in.Latex, &e.Latex, []Kind{KindEquation}},
		{"description", in.Description, &e.Description, []Kind{KindImage}},
		{"alt", in.Alt, &e.Alt, []Kind{KindImage}},
		{"code", in.Code, &e.Code, []Kind{KindCode}},
		{"output", in.Output, &e.Output, []Kind{KindCode}},
	}
	fields, err := b.updateTable(e, in)
	if err != nil {
		return err
	}
	for _, c := range changes {
		if c.value == nil {
			continue
		}
		if err := b.updatable(e, c.name, c.field.Pending, c.kinds); err != nil {
			return err
		}
		clean := nodemeta.NonEmpty
		if c.name == "code" || c.name == "output" {
			clean = codeValue // indentation is part of code
		}
		v, err := clean(c.name, *c.value)
		if err != nil {
			return err
		}
		if msg := latexLimit(v); c.name == "latex" && msg != "" {
			return session.Reject(session.KindInvalidArgs, "latex", latexLimitHint, "the LaTeX %s", msg)
		}
		*c.field = yamlsrc.Val(v)
		fields = append(fields, c.name)
	}
	if in.Style != nil {
		if err := b.restyle(e, in.Style); err != nil {
			return err
		}
		fields = append(fields, "style")
	}
	if cited, err := b.list().Cite(e, in.Sources, b.Protect); err != nil {
		return err
	} else if cited {
		fields = append(fields, "sources")
	}
	if len(fields) == 0 {
		return session.Reject(session.KindInvalidArgs, "", "set at least one of text, label, latex, description, alt, code, output, header, rows, style, sources", "nothing to change")
	}
	rc.Report(Changed{ID: e.ID, Fields: fields})
	return nil
}

// restyle gives e a copy of style, unless the author styled e.
func (b *Board) restyle(e *Element, style *Style) error {
	if e.Authored && b.Protect {
		return session.Reject(session.KindPrecondition, "style", "the author's elements keep their style", "style of %q was written by the author", e.ID)
	}
	if err := checkStyle(style); err != nil {
		return err
	}
	s := *style
	e.Style = &s
	return nil
}

// updatable refuses a change of field name on e: a field its type lacks,
// or one the author wrote (only a pending one may be filled).
func (b *Board) updatable(e *Element, name string, pending bool, kinds []Kind) error {
	if !slices.Contains(kinds, e.Type) {
		return session.Reject(session.KindInvalidArgs, name, fmt.Sprintf("%q is %s element", e.ID, e.Type.withArticle()), "%s element has no %s", e.Type.withArticle(), name)
	}
	if e.Authored && b.Protect && !pending {
		return session.Reject(session.KindPrecondition, name, "only the author's pending fields can be filled", "%s of %q was written by the author", name, e.ID)
	}
	return nil
}

// updateTable applies an update's header and rows to table e, checked as
// a whole: every row one cell per heading, old or new.
func (b *Board) updateTable(e *Element, in UpdateElement) ([]string, error) {
	if in.Header == nil && in.Rows == nil {
		return nil, nil
	}
	t := &Element{Type: KindTable, Header: e.Header, Rows: e.Rows}
	var fields []string
	if in.Header != nil {
		if err := b.updatable(e, "header", e.Header.Pending, []Kind{KindTable}); err != nil {
			return nil, err
		}
		t.Header, fields = yamlsrc.Val(slices.Clone(in.Header)), append(fields, "header")
	}
	if in.Rows != nil {
		if err := b.updatable(e, "rows", e.Rows.Pending, []Kind{KindTable}); err != nil {
			return nil, err
		}
		t.Rows, fields = yamlsrc.Val(cloneRows(in.Rows)), append(fields, "rows")
	}
	if err := checkTable(t); err != nil {
		return nil, err
	}
	e.Header, e.Rows = t.Header, t.Rows
	return fields, nil
}

// checkTable is the dispatch check of a table: tableProblems as a refusal.
func checkTable(t *Element) error {
	if ps := t.tableProblems(); len(ps) > 0 {
		return session.Reject(session.KindInvalidArgs, strings.SplitN(ps[0].key, ".", 2)[0], "every row needs one cell per heading; \"\" is a blank cell", "%s", ps[0].msg)
	}
	return nil
}

func cloneRows(rows [][]string) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = slices.Clone(r)
	}
	return out
}

// codeValue is code or output as given, but for blank lines before and
// whitespace after it: its indentation is part of it.
func codeValue(path, v string) (string, error) {
	v = strings.TrimRightFunc(v, unicode.IsSpace)
	for {
		line, rest, ok := strings.Cut(v, "\n")
		if !ok || strings.TrimSpace(line) != "" {
			break
		}
		v = rest
	}
	if strings.TrimSpace(v) == "" {
		return "", session.Reject(session.KindInvalidArgs, path, "give a non-empty value", "%s is empty", path)
	}
	return v, nil
}
