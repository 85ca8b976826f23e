// Package lesson is the LessonPlan modality: lesson metadata and slides, each
// slide placing children of the registered kinds (a whiteboard, a quiz). It
// holds the lesson's model, intents, reduce and describe, and decodes its own
// fields; the document with its children (package compose) loads and saves
// the file.
package lesson

import (
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/itemlist"
	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// Capabilities a lesson subagent can be granted.
const (
	CapRead     session.Capability = "lesson.read"
	CapMetadata session.Capability = "lesson.metadata"
	CapNode     session.Capability = "lesson.node"
)

// FormatVersion is the only file format version this build reads.
const FormatVersion = 1

// MaxNewSlides is the most slides one subagent may add. Forty slides is a
// whole day of teaching, far past any one lesson; and every new slide
// starts a whiteboard's subagents, so this also bounds a run's requests.
const MaxNewSlides = 40

// Term is one vocabulary entry. In the file it is a bare term (`-
// chlorophyll`: listed, no definition wanted) or a mapping {term,
// definition} whose definition may be pending; either way every byte the
// author wrote is kept (see DecodeNode and EncodeNode). `- !pending
// "hint"` in the list is a placeholder where a run adds terms.
type Term struct {
	yamlsrc.Placeholder
	Term       string   `yaml:"term" json:"term" jsonschema:"the word or phrase"`
	Definition string   `yaml:"definition" json:"definition" jsonschema:"a definition pitched at the lesson's grade"`
	Sources    []string `yaml:"sources" json:"sources,omitempty" jsonschema:"where the definition comes from in the author's sources: path:line or path:start-end, as read_source numbers lines. Omit when not written from a source"`

	// src is the node the term was read from, for its citations.
	src *yaml.Node
	// bare is a term written without a mapping: complete as it stands.
	bare bool
	// definitionPending asks for the definition to be written, with an
	// optional hint.
	definitionPending bool
	definitionHint    string
	// noDefinition: a {term: x} mapping with no definition key.
	noDefinition bool
	// defined: the definition was generated in this session.
	defined bool
}

// Misconception is a mistaken idea students often hold, with how the
// teacher answers it. The response may be pending in the file ("here are
// the misconceptions I see; suggest responses"); `- !pending "hint"` in
// the list is a placeholder where a run adds misconceptions.
type Misconception struct {
	yamlsrc.Placeholder
	Misconception string   `yaml:"misconception" json:"misconception" jsonschema:"the mistaken idea, as a student would put it"`
	Response      string   `yaml:"response" json:"response" jsonschema:"how the teacher answers it: what to say or show, one or two sentences"`
	Sources       []string `yaml:"sources" json:"sources,omitempty" jsonschema:"where it comes from in the author's sources: path:line or path:start-end, as read_source numbers lines. Omit when not written from a source"`

	// src is the node it was read from, for its citations.
	src             *yaml.Node
	responsePending bool
	responseHint    string
	// answered: the response was generated in this session.
	answered bool
}

// PendingResponse reports whether the response is still to be written, and
// the author's hint for it.
func (m Misconception) PendingResponse() (hint string, pending bool) {
	return m.responseHint, m.responsePending
}

// JSONSchema is what DecodeNode accepts; see yamlsrc.SchemaProvider.
func (Misconception) JSONSchema() map[string]any {
	return map[string]any{"type": "object", "additionalProperties": false,
		"required": []any{"misconception", "response"},
		"properties": map[string]any{
			"misconception": map[string]any{"type": "string"},
			"response":      yamlsrc.OrPending(map[string]any{"type": "string"}),
			"sources":       citationsSchema(),
		}}
}

func (m *Misconception) DecodeNode(n *yaml.Node, r *yamlsrc.Reporter, path string) {
	if n.Kind != yaml.MappingNode {
		r.At(n, "%s must be a mapping {misconception: what students think, response: how the teacher answers (may be !pending)}", path)
		return
	}
	*m = Misconception{src: n}
	seen, _ := yamlsrc.Entries(n, r, path, func(k, v *yaml.Node) {
		_, pending := yamlsrc.Pending(v)
		switch {
		case k.Value == "misconception" && (pending || v.Kind != yaml.ScalarNode):
			r.At(v, "%s.misconception must be the mistaken idea itself (only a response may be pending)", path)
		case k.Value == "misconception":
			m.Misconception = v.Value
		case k.Value == "response" && pending:
			m.responseHint, _ = yamlsrc.Pending(v)
			m.responsePending = true
		case k.Value == "response" && v.Kind != yaml.ScalarNode:
			r.At(v, "%s.response must be text", path)
		case k.Value == "response":
			m.Response = v.Value
		case k.Value == "sources":
			m.Sources = sources.DecodeList(v, r, path+".sources")
		default:
			r.At(k, "unknown key %q in %s; a misconception has the keys misconception, response and sources", k.Value, path)
		}
	})
	for _, key := range []string{"misconception", "response"} {
		if seen[key] == nil {
			r.At(n, "%s is missing the required key %q", path, key)
		}
	}
}

func (m Misconception) EncodeNode() (*yaml.Node, bool) {
	resp := yamlsrc.Encode(m.Response)
	if m.responsePending {
		resp = yamlsrc.PendingNode(m.responseHint)
	}
	n := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "misconception"}, yamlsrc.Encode(m.Misconception),
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "response"}, resp,
	}}
	sources.AppendList(n, m.Sources)
	return n, true
}

// Metadata describes the lesson as a whole.
type Metadata struct {
	Src *yaml.Node `yaml:"-"`

	Title           yamlsrc.Field[string]   `yaml:"title,required"`
	Subject         yamlsrc.Field[string]   `yaml:"subject"`
	Grade           yamlsrc.Field[string]   `yaml:"grade"`
	DurationMinutes yamlsrc.Field[int]      `yaml:"duration_minutes"`
	Language        yamlsrc.Field[string]   `yaml:"language"`
	Objectives      yamlsrc.Field[[]Item]   `yaml:"objectives"`
	Vocabulary      yamlsrc.Field[[]Term]   `yaml:"vocabulary"`
	Prerequisites   yamlsrc.Field[[]string] `yaml:"prerequisites"`
	Standards       yamlsrc.Field[[]string] `yaml:"standards"`

	KeyLearningPoints yamlsrc.Field[[]Item]          `yaml:"key_learning_points"`
	Misconceptions    yamlsrc.Field[[]Misconception] `yaml:"misconceptions"`
	// Materials is what the teacher needs in the room.
	Materials yamlsrc.Field[[]Item] `yaml:"materials"`

	// Outcome is the lesson's one outcome; KeyQuestions the learner-facing
	// questions it answers; Sections its learning cycles (see meta.go).
	Outcome      yamlsrc.Field[string]    `yaml:"outcome" jsonschema:"the lesson's one outcome, e.g. I can explain why the Romans left Britain"`
	KeyQuestions yamlsrc.Field[[]Item]    `yaml:"key_questions" jsonschema:"the questions the lesson answers, as a learner would ask them"`
	Sections     yamlsrc.Field[[]Section] `yaml:"sections" jsonschema:"the lesson's learning cycles, each with its outcome and minutes; slides name theirs in section:"`
	// Licence and Attribution are the terms a reuse must honour: every
	// render shows them, the handout too.
	Licence     yamlsrc.Field[string]      `yaml:"licence" jsonschema:"the lesson's licence: an SPDX id or expression (CC-BY-4.0, MIT, CC-BY-NC-SA-4.0), or free text"`
	Attribution yamlsrc.Field[Attribution] `yaml:"attribution" jsonschema:"credit for the work the lesson is adapted from: text, or {text, url}"`
}

// Slide is one placement in the lesson: its own fields and its whiteboard.
type Slide struct {
	itemlist.Entry
	Src *yaml.Node `yaml:"-"`

	// ID is the slide's id: as written, or derived (see SlideIDs) when the
	// author wrote none.
	ID              string                `yaml:"id,omitempty"`
	Title           yamlsrc.Field[string] `yaml:"title,required"`
	Section         yamlsrc.Field[string] `yaml:"section"`
	DurationMinutes yamlsrc.Field[int]    `yaml:"duration_minutes"`
	Notes           yamlsrc.Field[string] `yaml:"notes"`
	// Callouts are the slide's instructor notes, callouts, cautions and
	// tips (callouts.go).
	Callouts yamlsrc.Field[[]Callout] `yaml:"callouts"`
	// Sources cite the author's sources the slide was written from:
	// "path:line" or "path:start-end" (see sources.ParseCitation).
	Sources []string `yaml:"sources,omitempty"`
	// Props binds children's properties to templates over lesson and slide
	// values, e.g. heading: "{{ .lesson.title }}".
	Props map[string]string `yaml:"props,omitempty"`
	// Children are the slide's children, one field per registered kind
	// (whiteboard:, quiz:, ...).
	Children Children `yaml:",rest"`
	// GeneratedFor is the hint (or id) of the open placeholder a run
	// generated this slide for, written while the placeholder stays open so
	// a rerun after an interruption adds only what the hint still lacks (as
	// on whiteboards and quizzes); dropped when the placeholder closes.
	GeneratedFor string `yaml:"generated_for,omitempty"`

	// wrote: generation filled a pending field of the author's slide, so
	// it may cite its sources for what it wrote.
	wrote    bool
	compiled map[string]tpl // parsed props templates
	// calloutsOwn: generation wrote the slide's callouts list.
	calloutsOwn bool
}

// Refs are the fields the slide list reads and writes; see itemlist.
func (s *Slide) Refs() itemlist.Refs {
	return itemlist.Refs{ID: &s.ID, GeneratedFor: &s.GeneratedFor, Sources: &s.Sources, Src: s.Src}
}

// slideSpec is how messages speak of slides.
var slideSpec = itemlist.Spec{
	Noun: "slide", IDsLabel: "slide ids", Empty: "the lesson has no slides yet",
	Authored: "the author's slides stay as written; add new slides instead",
	Named:    "slide %q",
}

// list is the plan's slide list.
func (p *Plan) list() itemlist.List[Slide, *Slide] {
	return itemlist.List[Slide, *Slide]{Field: &p.Slides, ByID: &p.byID, Spec: &slideSpec}
}

// Plan is the lesson's whole state (minus its slides' children, which live
// in child sessions).
type Plan struct {
	Src *yaml.Node `yaml:"-"`

	Version  int                     `yaml:"version"`
	Metadata Metadata                `yaml:"metadata"`
	Slides   yamlsrc.Field[[]*Slide] `yaml:"slides,required"`

	// Protect keeps authored slides as written (on by default).
	Protect bool `yaml:"-"`

	// generated names the metadata fields this session's generation set.
	generated map[string]bool
	// appended counts, per metadata list the author wrote, the items a
	// refinement added after the author's: those are generation's, the
	// rest stay locked.
	appended  map[string]int
	bindCache *bindingCache
	byID      map[string]*Slide
	metaEpoch int
	// kinds are the child kinds a slide may place, in generation order,
	// and bindable the properties each lets props bind (from the registry).
	kinds    []string
	bindable map[string][]string
	// loader builds the session of a slide's child; the document sets it,
	// as only it knows the file system.
	loader Loader
}

// Loader returns how to create the session of the child ref placed on
// slide id; it runs at most once per child, when the child is first needed.
type Loader func(id string, ref ChildRef) func() (*session.Session, error)

// SetLoader says how the plan's children are loaded. Call it before the
// plan is handed to a session.
func (p *Plan) SetLoader(l Loader) { p.loader = l }

// NewPlan returns an empty plan whose slides may place children of kinds,
// binding the properties bindable lists by kind.
func NewPlan(kinds []string, bindable map[string][]string) *Plan {
	return &Plan{Protect: true, bindCache: newBindingCache(), kinds: kinds, bindable: bindable}
}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)

// slides returns the slide list (nil when the list is pending).
func (p *Plan) slides() []*Slide { return p.Slides.Value }

// Slide returns the slide with id, if any.
func (p *Plan) Slide(id string) (*Slide, bool) { return p.list().Get(id) }

// SlideIDs lists the real (non-placeholder) slides' ids in order.
func (p *Plan) SlideIDs() []string {
	var ids []string
	for _, s := range p.slides() {
		if !s.IsPlaceholder {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

// SlideName is how messages, plan and prompts name a slide: by its id and
// 1-based position among real slides, `slide "light" (3)`, or by position
// alone when it has no id, `slide 3`. fill --slide takes either.
func SlideName(id string, pos int) string { return session.ItemName("slide", id, pos) }

// Name is s's SlideName in p.
func (p *Plan) Name(s *Slide) string {
	return SlideName(s.ID, yamlsrc.Position(p.slides(), s))
}

// SlideIDs gives each item of a slides list the id it goes by (see
// yamlsrc.ItemIDs): the id written, else a slug of its title with whole
// words ("Light reactions" → light-reactions), else slide-N for the N-th
// slide written without an id; derived says which ids the file does not
// hold.
func SlideIDs(list *yaml.Node) (ids []string, derived []bool) {
	return yamlsrc.ItemIDs(list, func(item *yaml.Node, n int) string {
		if s := slug(yamlsrc.Scalar(item, "title")); s != "" {
			return s
		}
		return fmt.Sprintf("slide-%d", n)
	})
}

// ItemNames names the slides of a list while it is decoded; see
// yamlsrc.ItemNamer.
func (*Slide) ItemNames(_ string, list *yaml.Node) []string {
	ids, _ := SlideIDs(list)
	return yamlsrc.NameItems(list, ids, SlideName)
}

// Position returns a slide's 1-based position among real slides and their
// count.
func (p *Plan) Position(id string) (pos, count int) { return p.list().Position(id) }

// Lookup resolves a slide reference: an id, or a 1-based position.
func (p *Plan) Lookup(ref string) (*Slide, error) {
	if s, ok := p.byID[ref]; ok {
		return s, nil
	}
	var n int
	if _, err := fmt.Sscanf(ref, "%d", &n); err == nil && fmt.Sprint(n) == ref {
		ids := p.SlideIDs()
		if n >= 1 && n <= len(ids) {
			return p.byID[ids[n-1]], nil
		}
		return nil, fmt.Errorf("no slide at position %d; the lesson has %d slides", n, len(ids))
	}
	return nil, fmt.Errorf("no slide %q; slides are %s", ref, strings.Join(p.SlideIDs(), ", "))
}

// Placements lists every child of every slide, kind by kind in generation
// order; see session.Parent.
func (p *Plan) Placements() []session.Placement {
	var ps []session.Placement
	if p.loader == nil {
		return nil
	}
	for _, s := range p.slides() {
		if s.IsPlaceholder {
			continue
		}
		for _, kind := range p.kinds {
			if ref, ok := s.Children.Get(kind); ok {
				ps = append(ps, session.Placement{ID: s.ID, Kind: kind, Load: p.loader(s.ID, ref)})
			}
		}
	}
	return ps
}

// Pending lists what is still to be generated in the lesson itself (not its
// whiteboards), metadata first.
func (p *Plan) Pending() []session.Pending {
	var ps []session.Pending
	m := &p.Metadata
	for _, f := range []struct {
		name    string
		pending bool
		hint    string
	}{
		{"title", m.Title.Pending, m.Title.Hint},
		{"subject", m.Subject.Pending, m.Subject.Hint},
		{"grade", m.Grade.Pending, m.Grade.Hint},
		{"duration_minutes", m.DurationMinutes.Pending, m.DurationMinutes.Hint},
		{"language", m.Language.Pending, m.Language.Hint},
		{"objectives", m.Objectives.Pending, m.Objectives.Hint},
		{"vocabulary", m.Vocabulary.Pending, m.Vocabulary.Hint},
		{"prerequisites", m.Prerequisites.Pending, m.Prerequisites.Hint},
		{"standards", m.Standards.Pending, m.Standards.Hint},
		{"key_learning_points", m.KeyLearningPoints.Pending, m.KeyLearningPoints.Hint},
		{"misconceptions", m.Misconceptions.Pending, m.Misconceptions.Hint},
		{"materials", m.Materials.Pending, m.Materials.Hint},
		{"outcome", m.Outcome.Pending, m.Outcome.Hint},
		{"key_questions", m.KeyQuestions.Pending, m.KeyQuestions.Hint},
		{"sections", m.Sections.Pending, m.Sections.Hint},
		{"licence", m.Licence.Pending, m.Licence.Hint},
		{"attribution", m.Attribution.Pending, m.Attribution.Hint},
	} {
		if f.pending {
			ps = append(ps, session.Pending{Level: session.LevelMetadata, Path: "metadata." + f.name, Hint: f.hint})
		}
	}
	ps = append(ps, m.listPending()...)
	for i, c := range m.Misconceptions.Value {
		if c.responsePending {
			ps = append(ps, session.Pending{Level: session.LevelMetadata, Path: fmt.Sprintf("metadata.misconceptions[%d].response", i), Hint: c.responseHint})
		}
	}
	for _, t := range m.Vocabulary.Value {
		if t.definitionPending {
			ps = append(ps, session.Pending{Level: session.LevelMetadata, Path: fmt.Sprintf("metadata.vocabulary[%s].definition", t.Term), Hint: t.definitionHint})
		}
	}
	ps = append(ps, m.sectionsPending()...)
	ps = append(ps, p.list().Pending("slides", newSlidesLabel, slideFields)...)
	p.list().Each(func(s *Slide, pos int) { ps = append(ps, s.calloutsPending(pos)...) })
	return ps
}

// newSlidesLabel says where a slide placeholder sits: after prev, at
// position pos, or at the start.
func newSlidesLabel(prev *Slide, pos int) string {
	if prev == nil {
		return "new slides at the start"
	}
	return "new slides after " + SlideName(prev.ID, pos)
}

// slideFields are the fields of s that may be pending.
func slideFields(s *Slide) []itemlist.Field {
	return []itemlist.Field{
		{Name: "title", Pending: s.Title.Pending, Hint: s.Title.Hint},
		{Name: "section", Pending: s.Section.Pending, Hint: s.Section.Hint},
		{Name: "duration_minutes", Pending: s.DurationMinutes.Pending, Hint: s.DurationMinutes.Hint},
		{Name: "notes", Pending: s.Notes.Pending, Hint: s.Notes.Hint},
		{Name: "callouts", Pending: s.Callouts.Pending, Hint: s.Callouts.Hint},
	}
}

// IsBare reports whether the author listed the term without a definition.
func (t Term) IsBare() bool { return t.bare }

// PendingDefinition reports whether the definition is still to be written,
// and the author's hint for it.
func (t Term) PendingDefinition() (hint string, pending bool) {
	return t.definitionHint, t.definitionPending
}

// termShapes names the two ways to write a vocabulary item, for errors.
const termShapes = "a bare term (- chlorophyll) or a term with its definition ({term: stoma, definition: a tiny pore in a leaf}, definition may be !pending)"

// JSONSchema is what DecodeNode accepts: a bare term or {term,
// definition}; see yamlsrc.SchemaProvider.
func (Term) JSONSchema() map[string]any {
	return map[string]any{"anyOf": []any{
		map[string]any{"type": "string"},
		map[string]any{"type": "object", "additionalProperties": false,
			"required": []any{"term"},
			"properties": map[string]any{
				"term":       map[string]any{"type": "string"},
				"definition": yamlsrc.OrPending(map[string]any{"type": "string"}),
				"sources":    citationsSchema(),
			}},
	}}
}

func (t *Term) DecodeNode(n *yaml.Node, r *yamlsrc.Reporter, path string) {
	switch n.Kind {
	case yaml.ScalarNode:
		if strings.TrimSpace(n.Value) == "" {
			r.At(n, "%s is empty; write %s", path, termShapes)
			return
		}
		*t = Term{Term: n.Value, bare: true, src: n}
		return
	case yaml.MappingNode:
	default:
		r.At(n, "%s must be %s, not a list", path, termShapes)
		return
	}
	*t = Term{noDefinition: true, src: n}
	ok := true
	_, doubled := yamlsrc.Entries(n, r, path, func(k, v *yaml.Node) {
		switch k.Value {
		case "term":
			if v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) == "" || v.Tag == yamlsrc.PendingTag {
				r.At(v, "%s.term must be the word or phrase itself (only a definition may be pending)", path)
				ok = false
				return
			}
			t.Term = v.Value
		case "definition":
			t.noDefinition = false
			if hint, pending := yamlsrc.Pending(v); pending {
				t.definitionPending, t.definitionHint = true, hint
				return
			}
			if v.Kind != yaml.ScalarNode {
				r.At(v, "%s.definition must be text", path)
				ok = false
				return
			}
			t.Definition = v.Value
		case "sources":
			t.Sources = sources.DecodeList(v, r, path+".sources")
		default:
			r.At(k, "unknown key %q in %s; write %s", k.Value, path, termShapes)
			ok = false
		}
	})
	if t.Term == "" && ok && !doubled {
		r.At(n, "%s is missing the required key \"term\"; write %s", path, termShapes)
	}
}

func (t Term) EncodeNode() (*yaml.Node, bool) {
	if t.bare && len(t.Sources) == 0 {
		return yamlsrc.Encode(t.Term), true
	}
	n := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "term"}, yamlsrc.Encode(t.Term),
	}}
	var def *yaml.Node
	switch {
	case t.definitionPending:
		def = yamlsrc.PendingNode(t.definitionHint)
	case t.Definition != "" || !t.noDefinition:
		def = yamlsrc.Encode(t.Definition)
	}
	if def != nil {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "definition"}, def)
	}
	sources.AppendList(n, t.Sources)
	return n, true
}
