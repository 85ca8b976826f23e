package lesson

import (
	"fmt"
	"html"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/internal/rule"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// Callout is one box a slide carries beside its speaker notes: an
// instructor's note, a callout, a caution or a tip. It is the teacher's
// (drawn with the notes) unless show: slide puts it on the slide, where
// pupils see it too. In the file it is {kind, text, show}; `- !pending
// "hint"` in the list is a placeholder where a run adds callouts.
type Callout struct {
	yamlsrc.Placeholder
	Kind string
	Text string
	// Show is "slide" for a callout on the slide; "" or "notes" keeps it
	// the teacher's.
	Show string

	src *yaml.Node
}

// AddCallout adds callouts to one slide: where its callouts are pending
// (the whole list, or a placeholder in the author's list), or to a slide
// generation wrote.
type AddCallout struct {
	ID        string `json:"id" jsonschema:"id of the slide the callout belongs to"`
	Kind      string `json:"kind" jsonschema:"instructor (what the teacher does or says here), callout (a point to draw attention to), caution (a safety or common-mistake warning) or tip (a teaching tip)" enum:"instructor,callout,caution,tip"`
	Text      string `json:"text" jsonschema:"the callout, one or two sentences"`
	Show      string `json:"show,omitempty" jsonschema:"notes (default: the teacher's only, with the speaker notes) or slide (on the slide, where pupils see it). Never put an answer on the slide" enum:"notes,slide"`
	PendingID string `json:"pending_id,omitempty" jsonschema:"id of the pending placeholder in the slide's callouts this fills (from list_pending); omit when the whole list is pending or there is only one"`
}

func (AddCallout) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Fills: []string{"slides[*].callouts", "slides[*].callouts[*]"}, Doc: "Add a callout to a slide: an instructor note, callout, caution or tip, for the teacher (default) or shown on the slide."}
}

func (in AddCallout) Target() string { return in.ID }

func (in AddCallout) applyTo(p *Plan, rc *session.Context) (func(), error) {
	return p.addCallout(rc, in)
}

// CalloutKinds are the kinds a callout may have (declared once, on
// AddCallout).
func CalloutKinds() []string { return rule.Of[AddCallout]("kind").Enum }

func calloutShows() []string { return rule.Of[AddCallout]("show").Enum }

// calloutShapes names how a callout is written, for errors.
const calloutShapes = "{kind: instructor|callout|caution|tip, text: ..., show: slide (optional)}"

// JSONSchema is what DecodeNode accepts; see yamlsrc.SchemaProvider.
func (Callout) JSONSchema() map[string]any {
	var kinds, shows []any
	for _, k := range CalloutKinds() {
		kinds = append(kinds, k)
	}
	for _, s := range calloutShows() {
		shows = append(shows, s)
	}
	return map[string]any{"type": "object", "additionalProperties": false, "required": []any{"kind", "text"},
		"properties": map[string]any{
			"kind": map[string]any{"enum": kinds},
			"text": map[string]any{"type": "string"},
			"show": map[string]any{"enum": shows, "description": "slide: on the slide; notes (default): the teacher's only"},
		}}
}

func (c *Callout) DecodeNode(n *yaml.Node, r *yamlsrc.Reporter, path string) {
	*c = Callout{src: n}
	if n.Kind != yaml.MappingNode {
		r.At(n, "%s must be a mapping %s", path, calloutShapes)
		return
	}
	seen, _ := yamlsrc.Entries(n, r, path, func(k, v *yaml.Node) {
		if v.Kind != yaml.ScalarNode || v.Tag == yamlsrc.PendingTag {
			r.At(v, "%s.%s must be text (a whole callout may be pending: - !pending \"hint\")", path, k.Value)
			return
		}
		switch k.Value {
		case "kind":
			c.Kind = v.Value
			if !rule.Of[AddCallout]("kind").Allows(v.Value) {
				r.At(v, "%s.kind must be one of %s, got %q", path, strings.Join(CalloutKinds(), ", "), v.Value)
			}
		case "text":
			c.Text = v.Value
			if strings.TrimSpace(v.Value) == "" {
				r.At(v, "%s.text is empty; write the callout or remove it", path)
			}
		case "show":
			c.Show = v.Value
			if !rule.Of[AddCallout]("show").Allows(v.Value) {
				r.At(v, "%s.show must be slide (on the slide) or notes (the teacher's, the default), got %q", path, v.Value)
			}
		default:
			r.At(k, "unknown key %q in %s; write %s", k.Value, path, calloutShapes)
		}
	})
	for _, key := range []string{"kind", "text"} {
		if seen[key] == nil {
			r.At(n, "%s is missing the required key %q; write %s", path, key, calloutShapes)
		}
	}
}

func (c Callout) EncodeNode() (*yaml.Node, bool) {
	str := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
	n := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{str("kind"), yamlsrc.Encode(c.Kind), str("text"), yamlsrc.Encode(c.Text)}}
	if c.Show != "" {
		n.Content = append(n.Content, str("show"), yamlsrc.Encode(c.Show))
	}
	return n, true
}

// OnSlide reports whether pupils see the callout: it is on the slide.
func (c Callout) OnSlide() bool { return c.Show == "slide" }

// numberCallouts gives each placeholder of the slide's callouts its id.
func (s *Slide) numberCallouts() {
	yamlsrc.NumberPlaceholders(s.Callouts.Value, "callouts-")
}

// calloutsPending lists the open placeholders of the slide's callouts
// (the whole list pending is one of slideFields).
func (s *Slide) calloutsPending(pos int) []session.Pending {
	var ps []session.Pending
	for _, sp := range yamlsrc.OpenSpots(s.Callouts.Value) {
		ps = append(ps, session.Pending{Level: session.LevelNode, Path: fmt.Sprintf("slides[%s].callouts[%d]", s.ID, sp.Index),
			Hint: sp.Hint, ID: sp.PlaceholderID, Label: fmt.Sprintf("new callouts on %s", SlideName(s.ID, pos))})
	}
	return ps
}

// addCallout adds one callout to a slide: at its open placeholder, as its
// pending list, or on a slide generation wrote.
func (p *Plan) addCallout(rc *session.Context, in AddCallout) (func(), error) {
	s, ok := p.list().Get(in.ID)
	if !ok {
		return nil, p.list().NotFound("id", in.ID)
	}
	text := strings.TrimSpace(in.Text)
	switch {
	case !rule.Of[AddCallout]("kind").Allows(in.Kind):
		return nil, session.Reject(session.KindInvalidArgs, "kind", "use one of "+strings.Join(CalloutKinds(), ", "), "unknown callout kind %q", in.Kind)
	case in.Show != "" && !rule.Of[AddCallout]("show").Allows(in.Show):
		return nil, session.Reject(session.KindInvalidArgs, "show", "use notes or slide", "unknown show %q", in.Show)
	case text == "":
		return nil, session.Reject(session.KindInvalidArgs, "text", "write the callout in a sentence or two", "text is empty")
	}
	c := Callout{Kind: in.Kind, Text: text, Show: in.Show}
	if c.Show == "notes" {
		c.Show = "" // the default, as an author leaves it out
	}
	old := s.Callouts
	restore := func() { s.Callouts = old }
	if in.PendingID != "" || len(yamlsrc.OpenSpots(s.Callouts.Value)) > 0 {
		out, ph, err := yamlsrc.FillPlaceholder(s.Callouts.Value, in.PendingID, []Callout{c})
		if err != nil {
			return nil, session.Reject(session.KindNotFound, "pending_id", err.Error(), "callouts of slide %q: no placeholder to fill", s.ID)
		}
		s.Callouts.Value = out
		rc.Report(ItemsAdded{List: fmt.Sprintf("slides[%s].callouts", s.ID), PendingID: ph.PlaceholderID, Count: 1})
		return restore, nil
	}
	if s.Authored && p.Protect && !s.Callouts.Pending && !s.calloutsOwn {
		return nil, session.Reject(session.KindPrecondition, "id", "add callouts only where they are pending or on slides you added", "the callouts of slide %q were written by the author", s.ID)
	}
	s.Callouts = yamlsrc.Val(append(append([]Callout(nil), old.Value...), c))
	own := s.calloutsOwn
	s.calloutsOwn = true
	rc.Report(ItemsAdded{List: fmt.Sprintf("slides[%s].callouts", s.ID), Count: 1})
	return func() { restore(); s.calloutsOwn = own }, nil
}

// calloutsHTML draws the slide's callouts: those on the slide (for Head,
// which pupils see) and the teacher's (for Notes), each styled by kind.
func (s *Slide) calloutsHTML() (onSlide, notes string) {
	var slide, teacher strings.Builder
	if s.Callouts.Pending {
		teacher.WriteString("<p>" + pending("callouts", s.Callouts.Hint) + "</p>\n")
	}
	for _, c := range s.Callouts.Value {
		if c.IsPlaceholder {
			teacher.WriteString("<p>" + pending("callouts", c.Hint) + "</p>\n")
			continue
		}
		box := fmt.Sprintf("<aside class=\"callout callout-%s\"><strong>%s:</strong> %s</aside>\n",
			html.EscapeString(c.Kind), calloutLabel(c.Kind), html.EscapeString(c.Text))
		if c.OnSlide() {
			slide.WriteString(box)
		} else {
			teacher.WriteString(box)
		}
	}
	return slide.String(), teacher.String()
}

// calloutsPPTX draws the slide's callouts for a deck: those on the slide
// as paragraphs for a box on it, the teacher's as notes.
func (s *Slide) calloutsPPTX() (onSlide, notes []pptx.Para) {
	if s.Callouts.Pending {
		notes = append(notes, pptx.Text(pendingText("callouts", s.Callouts.Hint), 0, false, pptx.Color{}))
	}
	for _, c := range s.Callouts.Value {
		if c.IsPlaceholder {
			notes = append(notes, pptx.Text(pendingText("callouts", c.Hint), 0, false, pptx.Color{}))
			continue
		}
		label := pptx.Run{Text: calloutLabel(c.Kind) + ": ", Bold: true}
		if c.OnSlide() {
			label.Size, label.Color = 18, calloutColour(c.Kind)
			onSlide = append(onSlide, pptx.Para{Runs: []pptx.Run{label, {Text: c.Text, Size: 18}}})
		} else {
			notes = append(notes, pptx.Para{Runs: []pptx.Run{label, {Text: c.Text}}})
		}
	}
	return onSlide, notes
}

func calloutLabel(kind string) string {
	if kind == "" {
		return "Callout"
	}
	return strings.ToUpper(kind[:1]) + kind[1:]
}

// calloutColour is each kind's colour on a deck's slide, as page.css
// colours its border.
func calloutColour(kind string) pptx.Color {
	switch kind {
	case "caution":
		return pptx.RGB("9B1C1C")
	case "tip":
		return pptx.RGB("1E6B3A")
	case "instructor":
		return pptx.RGB("5B3A8C")
	}
	return pptx.RGB("1F3A5F")
}

// describeCallouts says what callouts the slide has, for a model's
// context: how many, of which kinds, and which are on the slide.
func (s *Slide) describeCallouts() string {
	var parts []string
	for _, c := range s.Callouts.Value {
		if c.IsPlaceholder {
			continue
		}
		where := "teacher-only"
		if c.OnSlide() {
			where = "on the slide"
		}
		parts = append(parts, fmt.Sprintf("%s (%s): %s", c.Kind, where, strings.TrimSuffix(strings.TrimSpace(c.Text), ".")))
	}
	if len(parts) == 0 {
		return ""
	}
	return " Callouts: " + strings.Join(parts, "; ") + "."
}
