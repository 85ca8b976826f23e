package whiteboard

import "github.com/lessongen/lessongen/session"

// The whiteboard's intents: its closed set of operations. Field tags feed the
// tool schemas models see: `json` names, `jsonschema` descriptions, and
// `enum`, `minimum`, `maximum` constraints.

// Box places an element: top-left corner and size in canvas pixels.
type Box struct {
	X float64 `json:"x" jsonschema:"left edge in pixels from the canvas's left side" minimum:"0" maximum:"10000"`
	Y float64 `json:"y" jsonschema:"top edge in pixels from the canvas's top" minimum:"0" maximum:"10000"`
	W float64 `json:"w" jsonschema:"width in pixels" minimum:"1" maximum:"10000"`
	H float64 `json:"h" jsonschema:"height in pixels" minimum:"1" maximum:"10000"`
}

// Placing is embedded in every add intent: where the element goes, and
// what it was written from.
type Placing struct {
	ID        string   `json:"id,omitempty" jsonschema:"optional id you choose for the element (a short slug: a letter, then letters, digits, - or _; at most 32 characters), unique on this whiteboard; an arrow later in this same turn may name it. Default: one is generated"`
	PendingID string   `json:"pending_id,omitempty" jsonschema:"id of the pending placeholder this element fills (from list_pending); the element is placed there. Omit when there is only one"`
	Sources   []string `json:"sources,omitempty" jsonschema:"where the element's content comes from in the author's sources: path:line or path:start-end, as read_source numbers lines. Omit when not written from a source"`
}

type AddText struct {
	Box
	Text  string `json:"text" jsonschema:"the words shown, in the lesson's language, wrapped to the box's width at style.font_size (default 24 px); text taller than the box is reported as not fitting: keep it short enough"`
	Style *Style `json:"style,omitempty" jsonschema:"optional presentation"`
	Placing
}

type AddShape struct {
	Box
	Shape string `json:"shape" jsonschema:"rect, ellipse, or line (a line runs from the box's top-left to bottom-right)" enum:"rect,ellipse,line"`
	Label string `json:"label,omitempty" jsonschema:"optional text inside the shape"`
	Style *Style `json:"style,omitempty" jsonschema:"optional presentation"`
	Placing
}

// AddArrow joins two ends, each an element or a free point. See arrows.go
// for how it is drawn.
type AddArrow struct {
	From      string `json:"from,omitempty" jsonschema:"id of the element the arrow starts at (one added earlier in this same turn is fine); null when it starts at from_point"`
	To        string `json:"to,omitempty" jsonschema:"id of the element the arrow points to (one added earlier in this same turn is fine); null when it ends at to_point"`
	FromPoint *Point `json:"from_point,omitempty" jsonschema:"a free start {x, y} on the canvas, for an arrow coming from nowhere in particular (light coming in); null when it starts at an element"`
	ToPoint   *Point `json:"to_point,omitempty" jsonschema:"a free end {x, y} on the canvas, for an arrow going nowhere in particular; null when it ends at an element"`
	Label     string `json:"label,omitempty" jsonschema:"optional short text, drawn centred just above the arrow's midpoint"`
	Heads     string `json:"heads,omitempty" jsonschema:"which ends have an arrowhead: end (default, at to), start, both, or none for a plain line (a line between any two points or elements, e.g. crossing something out)" enum:"end,start,both,none"`
	Style     *Style `json:"style,omitempty" jsonschema:"optional presentation: stroke is the line colour, color the label's"`
	Placing
}

type AddEquation struct {
	Box
	Latex string `json:"latex" jsonschema:"the equation in LaTeX, without surrounding $ signs. It is typeset centred in the box: \\frac{a}{b} as a stacked fraction (a over b), _ and ^ as small lowered and raised text, \\sqrt{x} and \\sqrt[n]{x} under a radical sign, \\bar, \\overline, \\underline, \\cancel and accents, \\text{words} upright, \\xrightarrow{text} as an arrow with the text over it, matrices, cases and aligned lines (\\begin{aligned} a &= b \\\\ c &= d \\end{aligned}); symbols and Greek letters as characters; a command it does not know is shown as written and reported. The font size is half the box height (at most 48 px; style.font_size sets it), smaller when the equation does not fit the box: a stacked fraction is 2.2 lines tall and needs a box about 2.6 times the font size high (a 60 px box draws one at 22 px), two aligned lines about 2.8: size the box for the text you want"`
	Placing
}

type AddImage struct {
	Box
	Description string `json:"description" jsonschema:"what the image shows, precisely enough for an illustrator to draw it"`
	Alt         string `json:"alt" jsonschema:"alt text for screen readers, one sentence"`
	Placing
}

// AddCode draws code as written, in a monospace face; see code.go.
type AddCode struct {
	Box
	Language string `json:"language,omitempty" jsonschema:"the code's language, e.g. bash or python"`
	Code     string `json:"code" jsonschema:"the code, one line per line, indentation as it should show; drawn in a monospace face and never wrapped, so size the box for its longest line (about 0.6 × font size per character; font size 20 unless style.font_size says, 12 px inside the edge)"`
	Output   string `json:"output,omitempty" jsonschema:"optional: what running the code prints, drawn under it on a dark panel of its own; size the box for code and output together"`
	Style    *Style `json:"style,omitempty" jsonschema:"optional presentation: font_size, color and fill of the code panel"`
	Placing
}

// AddTable draws a grid; see table.go.
type AddTable struct {
	Box
	Header []string   `json:"header" jsonschema:"the column headings, 1 to 12"`
	Rows   [][]string `json:"rows" jsonschema:"the rows, at most 40, each with exactly one cell per heading; give \"\" for a blank cell pupils fill in (never write the answer in it)"`
	Style  *Style     `json:"style,omitempty" jsonschema:"optional presentation: font_size (default: as large as a row's height allows, at most 24), color, stroke and fill"`
	Placing
}

// AddAnswerSpace draws a blank element; see blank.go.
type AddAnswerSpace struct {
	Box
	Label string `json:"label,omitempty" jsonschema:"optional words before the space, e.g. 'x̄ =' or 'Name:'; the answer itself is never written"`
	Style *Style `json:"style,omitempty" jsonschema:"optional presentation: font_size and color of the label, stroke of the lines"`
	Placing
}

// UpdateElement changes the content of one element; unset fields stay.
type UpdateElement struct {
	ID          string     `json:"id" jsonschema:"id of the element to change"`
	Text        *string    `json:"text,omitempty" jsonschema:"new text (text elements)"`
	Label       *string    `json:"label,omitempty" jsonschema:"new label (shapes, arrows and answer spaces)"`
	Latex       *string    `json:"latex,omitempty" jsonschema:"new LaTeX (equations)"`
	Description *string    `json:"description,omitempty" jsonschema:"new description (images)"`
	Alt         *string    `json:"alt,omitempty" jsonschema:"new alt text (images)"`
	Code        *string    `json:"code,omitempty" jsonschema:"new code (code elements)"`
	Output      *string    `json:"output,omitempty" jsonschema:"new output (code elements)"`
	Header      []string   `json:"header,omitempty" jsonschema:"new column headings (tables)"`
	Rows        [][]string `json:"rows,omitempty" jsonschema:"new rows (tables), each one cell per heading, \"\" for a blank cell to fill in"`
	Style       *Style     `json:"style,omitempty" jsonschema:"new presentation, replacing the old"`
	Sources     []string   `json:"sources,omitempty" jsonschema:"new citations of the author's sources (path:line or path:start-end); replaces the element's list"`
}

type MoveElement struct {
	ID string  `json:"id" jsonschema:"id of the element to move"`
	X  float64 `json:"x" jsonschema:"new left edge in pixels" minimum:"0" maximum:"10000"`
	Y  float64 `json:"y" jsonschema:"new top edge in pixels" minimum:"0" maximum:"10000"`
}

type ResizeElement struct {
	ID string  `json:"id" jsonschema:"id of the element to resize"`
	W  float64 `json:"w" jsonschema:"new width in pixels" minimum:"1" maximum:"10000"`
	H  float64 `json:"h" jsonschema:"new height in pixels" minimum:"1" maximum:"10000"`
}

type DeleteElement struct {
	ID string `json:"id" jsonschema:"id of the element to delete; arrows attached to it are deleted too"`
}

type SetHeading struct {
	Heading string `json:"heading" jsonschema:"the whiteboard's heading, a few words (a longer brief says what it is about: condense it)"`
}

type SetLayout struct {
	Layout string `json:"layout" jsonschema:"a one-sentence layout plan, e.g. 'title on top, diagram left, key terms right'"`
}

type SetCanvas struct {
	Width      int   `json:"width" jsonschema:"canvas width in pixels" minimum:"100" maximum:"10000"`
	Height     int   `json:"height" jsonschema:"canvas height in pixels" minimum:"100" maximum:"10000"`
	Background Color `json:"background,omitempty" jsonschema:"background colour, e.g. white or #fdf6e3"`
}

type SetBackground struct {
	Background Color `json:"background" jsonschema:"background colour, e.g. white or #fdf6e3"`
}

// DescribeWhiteboard reports the whiteboard as it stands: read-only.
type DescribeWhiteboard struct{}

// ListPending reports what is still to be generated here: read-only.
type ListPending struct{}

// SelectElements sets the editor selection. Hidden: no model needs it.
type SelectElements struct {
	IDs []string `json:"ids"`
}

// ApplyBinding fills a property bound by the slide's props, unless the
// property is already set. Hidden: the orchestrator applies bindings before
// any subagent runs, and a value set this way counts as given, not generated.
type ApplyBinding struct {
	Property string `json:"property"`
	Value    string `json:"value"`
}

// ClosePlaceholders removes placeholders that received content. The
// orchestrator dispatches it when a node subagent finishes normally, so an
// interrupted run leaves the placeholder for the next run to continue.
type ClosePlaceholders struct{}

func (AddText) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Adds: true, Doc: "Add a text box to the whiteboard."}
}
func (AddShape) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Adds: true, Doc: "Add a rectangle, ellipse or line, optionally labelled."}
}
func (AddArrow) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Adds: true, Doc: "Add an arrow: a straight line from the edge of one element (or a free point) to the edge of another (or a free point), arrowhead at the to end, label centred just above the midpoint. Keep other elements off the line: an arrow crossing an element that is not one of its ends is reported as a layout defect."}
}
func (AddEquation) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Adds: true, Doc: "Add an equation written in LaTeX."}
}
func (AddImage) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Adds: true, Doc: "Add an image placeholder: a description for an illustrator plus alt text."}
}
func (AddCode) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Adds: true, Doc: "Add code (a command, a program) drawn as written in a monospace face, optionally with its output under it."}
}
func (AddTable) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Adds: true, Doc: "Add a table: column headings and rows of cells; an empty cell is a blank box for pupils to fill in."}
}
func (AddAnswerSpace) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Adds: true, Doc: "Add an answer space: an optional label such as 'x̄ =' and ruled lines for pupils to write on."}
}
func (UpdateElement) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Doc: "Change the content or style of an element you added, or fill an element's pending field."}
}
func (MoveElement) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Doc: "Move an element you added to a new position."}
}
func (ResizeElement) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Doc: "Resize an element you added."}
}
func (DeleteElement) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Doc: "Delete an element you added."}
}
func (SetHeading) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"heading"}, Doc: "Set the whiteboard's heading."}
}
func (SetLayout) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"layout"}, Doc: "Set the whiteboard's layout plan, which guides where elements go."}
}
func (SetCanvas) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"canvas"}, Doc: "Set the canvas size and, optionally, its background."}
}
func (SetBackground) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"canvas"}, Doc: "Set the canvas background colour."}
}
func (DescribeWhiteboard) Spec() session.Spec {
	return session.Spec{Capability: CapRead, ReadOnly: true, Doc: "Describe the whiteboard as it stands: canvas, heading and every element with its position."}
}
func (ListPending) Spec() session.Spec {
	return session.Spec{Capability: CapRead, ReadOnly: true, Doc: "List what is still to be generated on this whiteboard, with their briefs (the author's or an earlier assistant's) and placeholder ids."}
}
func (SelectElements) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Hidden: true, Doc: "Select elements in an editor."}
}
func (ApplyBinding) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Hidden: true, Doc: "Fill a property bound by the slide's props."}
}
func (ClosePlaceholders) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Hidden: true, Doc: "Remove placeholders that received content."}
}

// Intents lists one zero value of every whiteboard intent: the closed set.
func Intents() []session.Intent {
	return []session.Intent{
		SetHeading{}, SetLayout{}, SetCanvas{}, SetBackground{},
		AddText{}, AddShape{}, AddArrow{}, AddEquation{}, AddImage{}, PlaceImage{},
		AddCode{}, AddTable{}, AddAnswerSpace{},
		UpdateElement{}, MoveElement{}, ResizeElement{}, DeleteElement{},
		DescribeWhiteboard{}, ListPending{},
		SelectElements{}, ApplyBinding{}, ClosePlaceholders{}, AttachPicture{},
		session.Undo{}, session.Redo{},
	}
}
