// Package whiteboard is the Whiteboard modality: a canvas of positioned
// elements that belongs to one slide. It knows nothing of models or tools;
// every change is an intent reduced by Board.
package whiteboard

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/itemlist"
	"github.com/lessongen/lessongen/internal/nodemeta"
	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/internal/suggest"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// Capabilities a whiteboard subagent can be granted.
const (
	CapRead     session.Capability = "whiteboard.read"
	CapMetadata session.Capability = "whiteboard.metadata"
	CapNode     session.Capability = "whiteboard.node"
)

// Canvas defaults, used when a whiteboard does not say. Every range a
// value must lie in is declared once, on the intent field that sets it (see
// rules.go).
const (
	DefaultWidth  = 1280
	DefaultHeight = 720
	// MaxNewElements is the most elements one subagent may add: about twice
	// what stays legible on a 1280x720 board, and few enough that checking
	// every pair for overlaps stays cheap.
	MaxNewElements = 60
)

// Kind is an element's type.
type Kind string

const (
	KindText     Kind = "text"
	KindShape    Kind = "shape"
	KindArrow    Kind = "arrow"
	KindEquation Kind = "equation"
	KindImage    Kind = "image"
	// KindCode is code drawn in a monospace face, its output (if any)
	// under it; KindTable a grid whose "" cells are left blank to fill in;
	// KindBlank an answer space: an optional label and a line to write on.
	KindCode  Kind = "code"
	KindTable Kind = "table"
	KindBlank Kind = "blank"
)

// withArticle is "a text", "an image": messages read as English.
func (k Kind) withArticle() string {
	if k != "" && strings.ContainsRune("aeiou", rune(k[0])) {
		return "an " + string(k)
	}
	return "a " + string(k)
}

// JSONSchema lists the element types; see yamlsrc.SchemaProvider.
func (Kind) JSONSchema() map[string]any {
	var names []any
	for _, k := range Kinds() {
		names = append(names, string(k))
	}
	return map[string]any{"enum": names}
}

// Kinds lists every element type, in the order documentation shows them.
func Kinds() []Kind {
	return []Kind{KindText, KindShape, KindArrow, KindEquation, KindImage, KindCode, KindTable, KindBlank}
}

// Canvas is the whiteboard's drawing area.
type Canvas struct {
	Width      int   `yaml:"width"`
	Height     int   `yaml:"height"`
	Background Color `yaml:"background,omitempty"`
}

// Style is optional presentation for an element.
type Style struct {
	Color    Color   `yaml:"color,omitempty" json:"color,omitempty"`
	Stroke   Color   `yaml:"stroke,omitempty" json:"stroke,omitempty"`
	Fill     Color   `yaml:"fill,omitempty" json:"fill,omitempty"`
	FontSize float64 `yaml:"font_size,omitempty" json:"font_size,omitempty" jsonschema:"px" minimum:"6" maximum:"200"`
	Bold     bool    `yaml:"bold,omitempty" json:"bold,omitempty"`
	Align    string  `yaml:"align,omitempty" json:"align,omitempty" enum:"left,center,right"`
	// StrokeWidth is added after the others: files and pptx writers that
	// do not know it draw the default.
	StrokeWidth float64 `yaml:"stroke_width,omitempty" json:"stroke_width,omitempty" jsonschema:"px (default 3; text box 2)" minimum:"1" maximum:"48"`
}

// Point is a free end of an arrow: a spot on the canvas, in px.
type Point struct {
	X float64 `yaml:"x" json:"x" jsonschema:"px from the left" minimum:"0" maximum:"10000"`
	Y float64 `yaml:"y" json:"y" jsonschema:"px from the top" minimum:"0" maximum:"10000"`
}

// Element is one thing on the canvas. Which fields apply depends on Type.
type Element struct {
	itemlist.Entry
	Src *yaml.Node `yaml:"-"`

	// ID is as written, or derived (see ElementIDs) when the author wrote
	// none.
	ID        string `yaml:"id,omitempty"`
	Type      Kind   `yaml:"type"`
	Shape     string `yaml:"shape,omitempty"`
	From      string `yaml:"from,omitempty"`
	To        string `yaml:"to,omitempty"`
	FromPoint *Point `yaml:"from_point,omitempty"`
	ToPoint   *Point `yaml:"to_point,omitempty"`
	// Heads says which ends of an arrow carry an arrowhead: end (the
	// default, at to), start, both or none (a plain line between any two
	// points or elements).
	Heads       string                `yaml:"heads,omitempty"`
	X           float64               `yaml:"x"`
	Y           float64               `yaml:"y"`
	W           float64               `yaml:"w"`
	H           float64               `yaml:"h"`
	Text        yamlsrc.Field[string] `yaml:"text"`
	Label       yamlsrc.Field[string] `yaml:"label"`
	Latex       yamlsrc.Field[string] `yaml:"latex"`
	Description yamlsrc.Field[string] `yaml:"description"`
	Alt         yamlsrc.Field[string] `yaml:"alt"`
	// Language, Code and Output are a code element's (code.go); Header and
	// Rows a table's (table.go). A blank's words are its Label.
	Language string                    `yaml:"language,omitempty" jsonschema:"a code element's language (bash, python, …), said to readers and the model; code is drawn as written either way"`
	Code     yamlsrc.Field[string]     `yaml:"code" jsonschema:"a code element's code, drawn in a monospace face line by line as written, never wrapped"`
	Output   yamlsrc.Field[string]     `yaml:"output" jsonschema:"what a code element's code prints, drawn under it on a panel of its own"`
	Header   yamlsrc.Field[[]string]   `yaml:"header" jsonschema:"a table's column headings"`
	Rows     yamlsrc.Field[[][]string] `yaml:"rows" jsonschema:"a table's rows, each with one cell per heading; \"\" is a blank cell to fill in"`
	// PictureSrc, Fit, Credit and Licence put a real picture in an image
	// element: a file beside the YAML that holds it (see picture.go).
	// Only an author sets them; no tool does.
	PictureSrc string `yaml:"src,omitempty" jsonschema:"an image's picture: a PNG, JPEG, SVG, WebP or GIF file inside the folder of the YAML file that holds it, at most 5 MB"`
	Fit        string `yaml:"fit,omitempty" json:"fit,omitempty" enum:"contain,cover" jsonschema:"how the picture fills its box: contain (all of it, letterboxed; the default) or cover (the box filled, edges cut)"`
	Credit     string `yaml:"credit,omitempty" jsonschema:"who made the picture, shown small under it and on the credits list"`
	Licence    string `yaml:"licence,omitempty" jsonschema:"the picture's licence, shown small under it and on the credits list"`
	picture    *picture
	Style      *Style `yaml:"style,omitempty"`
	// Prompt is what an image model was asked to draw, for a picture
	// generate --images made (see picture_generate.go).
	Prompt string `yaml:"prompt,omitempty" jsonschema:"what an image model was asked to draw, for a picture generate --images made"`
	// Sources cite the author's sources the element was written from:
	// "path:line" or "path:start-end" (see sources.ParseCitation).
	Sources []string `yaml:"sources,omitempty"`
	// GeneratedFor is the hint of the open placeholder a run generated this
	// element for. It is written while the placeholder stays open (a run
	// stopped before finishing it), so a rerun knows what that placeholder
	// already has and adds only what its hint still lacks; it is dropped
	// when the placeholder closes.
	GeneratedFor string `yaml:"generated_for,omitempty"`
}

// Refs are the fields the element list reads and writes; see itemlist.
// An authored element without sources may be given some when a run fills
// its pending fields from a source.
func (e *Element) Refs() itemlist.Refs {
	return itemlist.Refs{ID: &e.ID, GeneratedFor: &e.GeneratedFor, Sources: &e.Sources, Src: e.Src}
}

// elementSpec is how messages speak of elements.
var elementSpec = itemlist.Spec{
	Noun: "element", IDsLabel: "existing ids", Empty: "the whiteboard has no elements yet", SortIDs: true,
	Authored: "the author's elements stay as written; add new elements around them",
	Named:    "%q",
}

// list is the board's element list.
func (b *Board) list() itemlist.List[Element, *Element] {
	return itemlist.List[Element, *Element]{Field: &b.Elements, ByID: &b.byID, Spec: &elementSpec}
}

// OmitKey drops the box of an arrow, which is placed by its endpoints.
func (e Element) OmitKey(key string) bool {
	if e.Type != KindArrow {
		return false
	}
	switch key {
	case "x", "y", "w", "h":
		return true
	}
	return false
}

// Board is a whiteboard's whole state.
type Board struct {
	Src *yaml.Node `yaml:"-"`

	Canvas   yamlsrc.Field[Canvas]     `yaml:"canvas"`
	Heading  yamlsrc.Field[string]     `yaml:"heading"`
	Layout   yamlsrc.Field[string]     `yaml:"layout"`
	Elements yamlsrc.Field[[]*Element] `yaml:"elements"`

	// Protect keeps authored elements as written (on by default).
	Protect bool `yaml:"-"`

	// meta knows which of heading, layout and canvas generation set, and
	// which a binding set.
	meta      nodemeta.Meta
	byID      map[string]*Element
	nextID    int
	selection []string
	defects   []defect
}

// Todo returns a whiteboard that is pending as a whole, with the author's
// hint: its heading, layout and elements are all to be generated.
func Todo(hint string) *Board {
	b := &Board{Heading: yamlsrc.Todo[string](""), Layout: yamlsrc.Todo[string](""), Elements: yamlsrc.Todo[[]*Element](hint), Protect: true}
	b.meta.PendingWhole(hint)
	return b
}

// Decode reads a whiteboard from its node, reporting every problem to r.
func Decode(n *yaml.Node, r *yamlsrc.Reporter, path string) *Board {
	b := &Board{Protect: true}
	yamlsrc.Decode(n, b, r, path)
	b.Src = n
	b.list().Load(yamlsrc.Value(n, "elements"), ElementIDs)
	b.validate(r, path)
	b.recompute()
	b.report(r, path)
	return b
}

// report gives the board's defects as load problems, each at the element
// (or key) it concerns.
func (b *Board) report(r *yamlsrc.Reporter, path string) {
	// An arrow may name an element a pending placeholder is to add; with
	// nothing left to generate, a missing end is the author's error.
	open := b.Elements.Pending
	for _, e := range b.elements() {
		open = open || e.IsPlaceholder
	}
	for _, d := range b.defects {
		at, where := b.Src, path
		if id, ok := strings.CutPrefix(d.Path, "elements["); ok {
			if e, found := b.byID[strings.TrimSuffix(id, "]")]; found && e.Src != nil {
				at, where = e.Src, path+": "+b.Name(e)
			}
		}
		if d.dangling && !open {
			r.At(at, "%s: %s; point it at an element of this whiteboard", where, d.Message)
			continue
		}
		if d.Path == "heading" {
			at = keyNode(b.Src, "heading")
		}
		r.WarnAt(at, "%s: %s", where, d.Message)
	}
}

// Hint is the author's hint for the whiteboard as a whole, if it had one.
func (b *Board) Hint() string {
	hint, _ := b.meta.Whole()
	return hint
}

func (b *Board) elements() []*Element {
	return b.Elements.Value
}

// ElementName is how messages, plan and prompts name an element:
// `element "arrow1" (4)`, its id and 1-based position among the board's
// real elements.
func ElementName(id string, pos int) string { return session.ItemName("element", id, pos) }

// ElementIDs gives each item of an elements list the id it goes by (see
// yamlsrc.ItemIDs): the id written, else its type's id prefix, as new
// elements are named, and N for the N-th element written without an id
// (text1, eq2); derived says which ids the file does not hold.
func ElementIDs(list *yaml.Node) (ids []string, derived []bool) {
	return yamlsrc.ItemIDs(list, func(item *yaml.Node, n int) string {
		k := Kind(yamlsrc.Scalar(item, "type"))
		if !slices.Contains(Kinds(), k) {
			return fmt.Sprintf("element%d", n)
		}
		return fmt.Sprintf("%s%d", idPrefix(k), n)
	})
}

// ItemNames names the elements of a list while it is decoded; see
// yamlsrc.ItemNamer.
func (*Element) ItemNames(path string, list *yaml.Node) []string {
	ids, _ := ElementIDs(list)
	owner, _ := strings.CutSuffix(path, ".elements")
	return yamlsrc.NameItems(list, ids, func(id string, pos int) string { return owner + ": " + ElementName(id, pos) })
}

// Name is e's ElementName on b.
func (b *Board) Name(e *Element) string {
	return ElementName(e.ID, yamlsrc.Position(b.elements(), e))
}

// CanvasSize is the canvas with defaults filled in.
func (b *Board) CanvasSize() Canvas {
	c := b.Canvas.Or(Canvas{Width: DefaultWidth, Height: DefaultHeight})
	if c.Width == 0 {
		c.Width = DefaultWidth
	}
	if c.Height == 0 {
		c.Height = DefaultHeight
	}
	return c
}

// Element returns the element with id, if any.
func (b *Board) Element(id string) (*Element, bool) { return b.list().Get(id) }

func (b *Board) validate(r *yamlsrc.Reporter, path string) {
	if c, ok := b.Canvas.Get(); ok {
		at := keyNode(b.Src, "canvas")
		if !canvasSide().In(float64(c.Width)) || !canvasSide().In(float64(c.Height)) {
			r.At(at, "%s.canvas must be %s pixels on each side, got %dx%d", path, canvasSide().Range(), c.Width, c.Height)
		}
		if c.Background != "" {
			if err := c.Background.Check(); err != nil {
				r.At(pathNode(b.Src, "canvas.background"), "%s.canvas.background: %v", path, err)
			}
		}
	}
	seen := map[string]*yaml.Node{}
	for _, e := range b.elements() {
		if e.IsPlaceholder {
			continue
		}
		ep := path + ": " + b.Name(e)
		if e.IDDerived {
			// derived ids are unique and well formed by construction
		} else if !itemlist.WrittenID.MatchString(e.ID) {
			r.At(keyNode(e.Src, "id"), "%s.id %q must start with a letter and use only letters, digits, - and _", ep, e.ID)
		} else if first, dup := seen[e.ID]; dup {
			r.At(keyNode(e.Src, "id"), "duplicate element id %q (first at line %d); ids must be unique on a whiteboard", e.ID, first.Line)
		} else {
			seen[e.ID] = keyNode(e.Src, "id")
		}
		for _, p := range e.problems(b.CanvasSize()) {
			r.At(pathNode(e.Src, p.key), "%s: %s", ep, p.msg)
		}
		sources.CheckRefs(sources.Refs(e.Src, e.Sources, ep+".sources"), r)
		if msg := e.loadPicture(filepath.Dir(r.File)); msg != "" {
			r.At(pathNode(e.Src, "src"), "%s: %s", ep, msg)
		}
	}
}

// Citations lists every element's citations, for validate --sources.
func (b *Board) Citations() []sources.Ref { return b.list().Citations() }

// problem is what is wrong with an element, at its key path (see pathNode:
// "rows.2" is a table's third row).
type problem struct{ key, msg string }

// problems lists what is wrong with e on its own (not its neighbours).
func (e *Element) problems(c Canvas) []problem {
	var ps []problem
	need := func(key string, ok bool) {
		if !ok {
			ps = append(ps, problem{"type", fmt.Sprintf("%s element needs %q", e.Type.withArticle(), key)})
		}
	}
	forbid := func(key string, present bool) {
		if present {
			ps = append(ps, problem{key, fmt.Sprintf("%s element has no %q", e.Type.withArticle(), key)})
		}
	}
	has := func(f yamlsrc.Field[string]) bool { return f.Set || f.Pending }
	switch e.Type {
	case KindText:
		need("text", has(e.Text))
	case KindShape:
		if !shapeRule().Allows(e.Shape) {
			ps = append(ps, problem{"shape", fmt.Sprintf("shape must be %s, got %q%s", shapeRule().Options(), e.Shape,
				suggest.DidYouMean(e.Shape, shapeRule().Enum, shapeSynonyms))})
		}
	case KindArrow:
		// Each end is an element or a free point, never both.
		need("from or from_point", e.From != "" || e.FromPoint != nil)
		need("to or to_point", e.To != "" || e.ToPoint != nil)
		for _, p := range []struct {
			key, id string
			p       *Point
		}{{"from_point", e.From, e.FromPoint}, {"to_point", e.To, e.ToPoint}} {
			if p.p != nil && p.id != "" {
				end, _ := strings.CutSuffix(p.key, "_point")
				ps = append(ps, problem{p.key, fmt.Sprintf("an arrow's %s end is an element (%s) or a point (%s), not both", end, end, p.key)})
			}
			if p.p != nil && !p.p.on(c) {
				ps = append(ps, problem{p.key, fmt.Sprintf("%s (%g,%g) must lie on the %dx%d canvas", p.key, p.p.X, p.p.Y, c.Width, c.Height)})
			}
		}
	case KindEquation:
		need("latex", has(e.Latex))
	case KindImage:
		// Either says what the image shows; the other is taken from it
		// (imageText), so an author writes one and loses nothing.
		need("description or alt", has(e.Description) || has(e.Alt))
	case KindCode:
		need("code", has(e.Code))
	case KindTable:
		need("header", e.Header.Set || e.Header.Pending)
		ps = append(ps, e.tableProblems()...)
	case KindBlank:
	default:
		return []problem{{"type", fmt.Sprintf("type must be one of %s, got %q", kindList(), e.Type)}}
	}
	forbid("shape", e.Type != KindShape && e.Shape != "")
	if e.Type == KindArrow && e.Heads != "" && !headsRule().Allows(e.Heads) {
		ps = append(ps, problem{"heads", fmt.Sprintf("heads must be %s, got %q", headsRule().Options(), e.Heads)})
	}
	forbid("heads", e.Type != KindArrow && e.Heads != "")
	forbid("from", e.Type != KindArrow && e.From != "")
	forbid("to", e.Type != KindArrow && e.To != "")
	forbid("from_point", e.Type != KindArrow && e.FromPoint != nil)
	forbid("to_point", e.Type != KindArrow && e.ToPoint != nil)
	forbid("text", e.Type != KindText && has(e.Text))
	forbid("latex", e.Type != KindEquation && has(e.Latex))
	forbid("description", e.Type != KindImage && has(e.Description))
	forbid("alt", e.Type != KindImage && has(e.Alt))
	for _, f := range [][2]string{{"src", e.PictureSrc}, {"fit", e.Fit}, {"credit", e.Credit}, {"licence", e.Licence}, {"prompt", e.Prompt}} {
		forbid(f[0], e.Type != KindImage && f[1] != "")
	}
	if e.Fit != "" && !fitRule().Allows(e.Fit) {
		ps = append(ps, problem{"fit", fmt.Sprintf("fit must be %s, got %q", fitRule().Options(), e.Fit)})
	}
	forbid("label", e.Type != KindArrow && e.Type != KindShape && e.Type != KindBlank && has(e.Label))
	for _, f := range e.worksheetFields() {
		forbid(f.key, f.present)
	}
	if e.Type != KindArrow {
		// Written as "not inside" so NaN, which compares false, is refused.
		if !sizeRule("w").In(e.W) || !sizeRule("h").In(e.H) {
			ps = append(ps, problem{"w", fmt.Sprintf("w and h must be %s, got %gx%g", sizeRule("w").Range(), e.W, e.H)})
		}
		if !(e.X >= 0 && e.Y >= 0 && e.X <= float64(c.Width) && e.Y <= float64(c.Height)) {
			ps = append(ps, problem{"x", fmt.Sprintf("x,y (%g,%g) must lie on the %dx%d canvas", e.X, e.Y, c.Width, c.Height)})
		}
	}
	if s := e.Style; s != nil {
		for _, c := range []struct {
			key string
			c   Color
		}{{"color", s.Color}, {"stroke", s.Stroke}, {"fill", s.Fill}} {
			if c.c == "" {
				continue
			}
			if err := c.c.Check(); err != nil {
				ps = append(ps, problem{"style." + c.key, fmt.Sprintf("style.%s: %v", c.key, err)})
			}
		}
	}
	if err := checkLayoutStyle(e.Style); err != nil {
		ps = append(ps, problem{"style", err.Message})
	}
	return ps
}

// worksheetFields says, for each field only code or a table has, whether
// e, of another type, has it.
func (e *Element) worksheetFields() []struct {
	key     string
	present bool
} {
	code, table := e.Type == KindCode, e.Type == KindTable
	return []struct {
		key     string
		present bool
	}{
		{"language", !code && e.Language != ""},
		{"code", !code && (e.Code.Set || e.Code.Pending)},
		{"output", !code && (e.Output.Set || e.Output.Pending)},
		{"header", !table && (e.Header.Set || e.Header.Pending)},
		{"rows", !table && (e.Rows.Set || e.Rows.Pending)},
	}
}

// pathNode finds the node of a dotted key path ("style.color", "rows.2")
// in mapping m: the last key's node (a list item's own node), or the
// deepest one found on the way, so a problem always has a position.
func pathNode(m *yaml.Node, path string) *yaml.Node {
	at := m
	for {
		key, rest, more := strings.Cut(path, ".")
		var k, v *yaml.Node
		if i, err := strconv.Atoi(key); err == nil && m.Kind == yaml.SequenceNode {
			if i >= 0 && i < len(m.Content) {
				k, v = m.Content[i], m.Content[i]
			}
		} else if k = keyNode(m, key); k != m {
			v = yamlsrc.Value(m, key)
		}
		if k == m || k == nil {
			return at
		}
		at = k
		if !more {
			return at
		}
		m, path = v, rest
		if m == nil || m.Kind != yaml.MappingNode && m.Kind != yaml.SequenceNode {
			return at
		}
	}
}

// keyNode finds the key node for key in mapping m, falling back to m so a
// problem always has a position.
func keyNode(m *yaml.Node, key string) *yaml.Node {
	if m == nil {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i]
		}
	}
	return m
}

// EncodeNode writes the board as YAML nodes. A whiteboard that was pending as
// a whole and has not been touched stays one `!pending "hint"` marker.
// A bound property is saved as the file had it, never as its value.
func (b *Board) EncodeNode() (*yaml.Node, bool) {
	c := *b
	c.meta.Unbind(c.bindable)
	n, ok := c.meta.Encode(c, c.untouched())
	if ok {
		b.flowTables(n)
	}
	return n, ok
}

// flowTables writes a generated table's header and each of its rows on
// one line, as an author writes a grid; the author's tables keep their
// own style.
func (b *Board) flowTables(n *yaml.Node) {
	list := yamlsrc.Value(n, "elements")
	if list == nil || list.Kind != yaml.SequenceNode {
		return
	}
	for _, item := range list.Content {
		e, ok := b.byID[yamlsrc.Scalar(item, "id")]
		if !ok || e.Authored || e.Type != KindTable {
			continue
		}
		if h := yamlsrc.Value(item, "header"); h != nil && h.Kind == yaml.SequenceNode {
			h.Style = yaml.FlowStyle
		}
		if rows := yamlsrc.Value(item, "rows"); rows != nil && rows.Kind == yaml.SequenceNode {
			for _, r := range rows.Content {
				r.Style = yaml.FlowStyle
			}
		}
	}
}

func (b *Board) untouched() bool {
	return !b.Canvas.Set && b.Heading.Pending && b.Layout.Pending && b.Elements.Pending && b.Elements.Hint == b.Hint()
}

// imageText is an image's description and alt text, each standing in for
// the other when only one is written.
func (e *Element) imageText() (description, alt yamlsrc.Field[string]) {
	description, alt = e.Description, e.Alt
	if !description.Set && !description.Pending {
		description = alt
	}
	if !alt.Set && !alt.Pending {
		alt = description
	}
	return description, alt
}
