package whiteboard

import "github.com/lessongen/lessongen/session"

// The whiteboard's intents: its closed set of operations. Field tags feed the
// tool schemas models see: `json` names, `jsonschema` descriptions, and
// `enum`, `minimum`, `maximum` constraints.

// Box places an element: top-left corner and size in canvas pixels.
type Box struct {
	X float64 `json:"x" jsonschema:"left edge" minimum:"0" maximum:"10000"`
	Y float64 `json:"y" jsonschema:"top edge" minimum:"0" maximum:"10000"`
	W float64 `json:"w" minimum:"1" maximum:"10000"`
	H float64 `json:"h" minimum:"1" maximum:"10000"`
}

// Placing is embedded in every add intent: where the element goes, and
// what it was written from.
type Placing struct {
	ID        string   `json:"id,omitempty" jsonschema:"your short id; omit for a generated one"`
	PendingID string   `json:"pending_id,omitempty" jsonschema:"placeholder id; omit if only one"`
	Sources   []string `json:"sources,omitempty" jsonschema:"where the element's content comes from in the author's sources: path:line or path:start-end, as read_source numbers lines. Omit when not written from a source"`
}

type AddText struct {
	Box
	Text  string `json:"text" jsonschema:"the words shown, wrapped to the box's width at style.font_size (default 24 px); text taller than the box is reported"`
	Style *Style `json:"style,omitempty"`
	Placing
}

type AddShape struct {
	Box
	Shape string `json:"shape" jsonschema:"rect, ellipse, or line (a line runs from the box's top-left to bottom-right)" enum:"rect,ellipse,line"`
	Label string `json:"label,omitempty" jsonschema:"optional text inside the shape"`
	Style *Style `json:"style,omitempty"`
	Placing
}

// AddArrow joins two ends, each an element or a free point. See arrows.go
// for how it is drawn.
type AddArrow struct {
	From      string `json:"from,omitempty" jsonschema:"id of the element it starts at (one added earlier this turn is fine); null: from_point"`
	To        string `json:"to,omitempty" jsonschema:"id of the element it points to; null: to_point"`
	FromPoint *Point `json:"from_point,omitempty" jsonschema:"a free start, for an arrow from nowhere in particular (light coming in)"`
	ToPoint   *Point `json:"to_point,omitempty" jsonschema:"a free end, for an arrow going nowhere in particular"`
	Label     string `json:"label,omitempty" jsonschema:"optional short text, drawn centred just above the arrow's midpoint"`
	Heads     string `json:"heads,omitempty" jsonschema:"arrowheads: end (default, at to), start, both, or none for a plain line" enum:"end,start,both,none"`
	Style     *Style `json:"style,omitempty" jsonschema:"optional presentation: stroke is the line colour, color the label's"`
	Placing
}

type AddEquation struct {
	Box
	Latex string `json:"latex" jsonschema:"LaTeX without $ signs, typeset centred in the box: \\frac{a}{b} as a stacked fraction, _ and ^ lowered and raised, \\sqrt, \\text, \\xrightarrow{text}, matrices, cases and aligned lines; a command it does not know is shown as written. Font size half the box height (at most 48 px), smaller to fit: a stacked fraction needs a box about 2.6 times the font size high (a 60 px box draws one at 22 px)"`
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
	Code     string `json:"code" jsonschema:"the code, indented as it should show; never wrapped: size the box for its longest line (0.6 × font size a character; font size 20 unless style says, 12 px padding)"`
	Output   string `json:"output,omitempty" jsonschema:"optional: what running the code prints, drawn under it on a dark panel of its own; size the box for code and output together"`
	Style    *Style `json:"style,omitempty" jsonschema:"optional presentation: font_size, color and fill of the code panel"`
	Placing
}

// AddTable draws a grid; see table.go.
type AddTable struct {
	Box
	Header []string   `json:"header" jsonschema:"the column headings, 1 to 12"`
	Rows   [][]string `json:"rows" jsonschema:"the rows, at most 40, each one cell per heading; \"\" is a blank cell pupils fill in (never the answer)"`
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
	// W and H resize it in the same change, so a box is placed by one
	// call and checked once (no overlap between a move and its resize).
	W *float64 `json:"w,omitempty" jsonschema:"new width in pixels; omit to keep it" minimum:"1" maximum:"10000"`
	H *float64 `json:"h,omitempty" jsonschema:"new height in pixels; omit to keep it" minimum:"1" maximum:"10000"`
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
	Heading string `json:"heading" jsonschema:"a few words"`
}

type SetLayout struct {
	Layout string `json:"layout" jsonschema:"a one-sentence layout plan, e.g. 'title on top, diagram left, key terms right'"`
}

type SetCanvas struct {
	Width      int   `json:"width" jsonschema:"px" minimum:"100" maximum:"10000"`
	Height     int   `json:"height" jsonschema:"px" minimum:"100" maximum:"10000"`
	Background Color `json:"background,omitempty" jsonschema:"e.g. white or #fdf6e3"`
}

type SetBackground struct {
	Background Color `json:"background" jsonschema:"e.g. white or #fdf6e3"`
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
	return session.Spec{Capability: CapNode, Adds: true, Doc: "Add an arrow (or a plain line) from one element or free point to another, head at the to end, label just above the midpoint; an element it crosses is a layout defect."}
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
	return session.Spec{Capability: CapNode, Doc: "Move an element you added to a new position; with w and h, resize it in the same call."}
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
	return session.Spec{Capability: CapRead, ReadOnly: true, Doc: "Describe the whiteboard as it stands: canvas, heading, every element and its box."}
}
func (ListPending) Spec() session.Spec {
	return session.Spec{Capability: CapRead, ReadOnly: true, Doc: "List what is still pending on this whiteboard, with briefs and placeholder ids."}
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
