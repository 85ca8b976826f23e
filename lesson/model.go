// Package lesson is the LessonPlan modality: lesson metadata and slides, each
// slide placing one whiteboard. It owns the lesson file: loading with every
// problem reported by position, and saving by splicing only what changed.
package lesson

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

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

// Term is one vocabulary entry.
type Term struct {
	Term       string `yaml:"term" json:"term" jsonschema:"the word or phrase"`
	Definition string `yaml:"definition" json:"definition" jsonschema:"a definition pitched at the lesson's grade"`
}

// Metadata describes the lesson as a whole.
type Metadata struct {
	Src *yaml.Node `yaml:"-"`

	Title           yamlsrc.Field[string]   `yaml:"title,required"`
	Subject         yamlsrc.Field[string]   `yaml:"subject"`
	Grade           yamlsrc.Field[string]   `yaml:"grade"`
	DurationMinutes yamlsrc.Field[int]      `yaml:"duration_minutes"`
	Language        yamlsrc.Field[string]   `yaml:"language"`
	Objectives      yamlsrc.Field[[]string] `yaml:"objectives"`
	Vocabulary      yamlsrc.Field[[]Term]   `yaml:"vocabulary"`
	Prerequisites   yamlsrc.Field[[]string] `yaml:"prerequisites"`
	Standards       yamlsrc.Field[[]string] `yaml:"standards"`
}

// Slide is one placement in the lesson: its own fields and its whiteboard.
type Slide struct {
	yamlsrc.Placeholder
	Src *yaml.Node `yaml:"-"`

	ID              string                `yaml:"id"`
	Title           yamlsrc.Field[string] `yaml:"title,required"`
	Section         yamlsrc.Field[string] `yaml:"section"`
	DurationMinutes yamlsrc.Field[int]    `yaml:"duration_minutes"`
	Notes           yamlsrc.Field[string] `yaml:"notes"`
	// Props binds whiteboard properties to templates over lesson and slide
	// values, e.g. heading: "{{ .lesson.title }}".
	Props      map[string]string `yaml:"props,omitempty"`
	Whiteboard WhiteboardRef     `yaml:"whiteboard"`

	authored  bool
	filled    int            // placeholders: slides generated for it
	filledFor *Slide         // generated slides: the placeholder they fill
	compiled  map[string]tpl // parsed props templates
}

// Plan is the lesson's whole state (minus whiteboards, which live in child
// sessions).
type Plan struct {
	Src *yaml.Node `yaml:"-"`

	Version  int                     `yaml:"version"`
	Metadata Metadata                `yaml:"metadata"`
	Slides   yamlsrc.Field[[]*Slide] `yaml:"slides,required"`

	// Protect keeps authored slides as written (on by default).
	Protect bool `yaml:"-"`

	// generated names the metadata fields this session's generation set.
	generated map[string]bool
	bindCache *bindingCache
	byID      map[string]*Slide
	nextPH    int
	metaEpoch int
	// boardLoader builds the child session for a slide's whiteboard; the
	// Document sets it, as only it knows the file system.
	boardLoader func(s *Slide) func() (*session.Session, error)
}

// WhiteboardRef is how a slide places its whiteboard: inline, in its own
// file, or pending with a hint. Absent means the slide has no whiteboard.
type WhiteboardRef struct {
	Inline  *yaml.Node
	File    string
	Pending bool
	Hint    string
	// fileNode is the {file: …} mapping's value node, for error positions.
	fileNode *yaml.Node
}

// Present reports whether the slide places a whiteboard at all.
func (w WhiteboardRef) Present() bool { return w.Inline != nil || w.File != "" || w.Pending }

func (w *WhiteboardRef) DecodeNode(n *yaml.Node, r *yamlsrc.Reporter, path string) {
	if hint, ok := yamlsrc.Pending(n); ok {
		*w = WhiteboardRef{Pending: true, Hint: hint}
		return
	}
	if n.Kind != yaml.MappingNode {
		r.At(n, "%s must be a whiteboard mapping, {file: path}, or !pending \"hint\"", path)
		return
	}
	if len(n.Content) == 2 && n.Content[0].Value == "file" {
		v := n.Content[1]
		if v.Kind != yaml.ScalarNode || v.Value == "" {
			r.At(v, "%s.file must be a path relative to the lesson file", path)
			return
		}
		if !filepath.IsLocal(v.Value) { // not absolute, not escaping with ..
			r.At(v, "%s.file %q must stay inside the lesson's folder (a relative path without ..)", path, v.Value)
			return
		}
		*w = WhiteboardRef{File: v.Value, fileNode: v}
		return
	}
	*w = WhiteboardRef{Inline: n}
}

func (w WhiteboardRef) EncodeNode() (*yaml.Node, bool) {
	switch {
	case w.Pending:
		return yamlsrc.PendingNode(w.Hint), true
	case w.File != "":
		return &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
			{Kind: yaml.ScalarNode, Tag: "!!str", Value: "file"},
			{Kind: yaml.ScalarNode, Tag: "!!str", Value: w.File},
		}}, true
	case w.Inline != nil:
		return w.Inline, true
	}
	return nil, false
}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)

// slides returns the slide list (nil when the list is pending).
func (p *Plan) slides() []*Slide { return p.Slides.Value }

// Slide returns the slide with id, if any.
func (p *Plan) Slide(id string) (*Slide, bool) {
	s, ok := p.byID[id]
	return s, ok
}

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

// Position returns a slide's 1-based position among real slides and their
// count.
func (p *Plan) Position(id string) (pos, count int) {
	for _, s := range p.slides() {
		if s.IsPlaceholder {
			continue
		}
		count++
		if s.ID == id {
			pos = count
		}
	}
	return pos, count
}

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

func (p *Plan) index() {
	p.byID = make(map[string]*Slide, len(p.slides()))
	p.nextPH = 0
	for _, s := range p.slides() {
		if s.IsPlaceholder {
			p.nextPH++
			if s.PlaceholderID == "" {
				s.PlaceholderID = fmt.Sprintf("p%d", p.nextPH)
			}
			continue
		}
		p.byID[s.ID] = s
	}
}

// Placements lists every slide with a whiteboard; see session.Parent.
func (p *Plan) Placements() []session.Placement {
	var ps []session.Placement
	for _, s := range p.slides() {
		if s.IsPlaceholder || !s.Whiteboard.Present() || p.boardLoader == nil {
			continue
		}
		ps = append(ps, session.Placement{ID: s.ID, Load: p.boardLoader(s)})
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
	} {
		if f.pending {
			ps = append(ps, session.Pending{Level: session.LevelMetadata, Path: "metadata." + f.name, Hint: f.hint})
		}
	}
	if p.Slides.Pending {
		ps = append(ps, session.Pending{Level: session.LevelNode, Path: "slides", Hint: p.Slides.Hint, ID: "p1"})
	}
	for i, s := range p.slides() {
		if s.IsPlaceholder {
			if s.filled == 0 {
				ps = append(ps, session.Pending{Level: session.LevelNode, Path: fmt.Sprintf("slides[%d]", i), Hint: s.Hint, ID: s.PlaceholderID})
			}
			continue
		}
		for _, f := range []struct {
			name    string
			pending bool
			hint    string
		}{
			{"title", s.Title.Pending, s.Title.Hint},
			{"section", s.Section.Pending, s.Section.Hint},
			{"duration_minutes", s.DurationMinutes.Pending, s.DurationMinutes.Hint},
			{"notes", s.Notes.Pending, s.Notes.Hint},
		} {
			if f.pending {
				ps = append(ps, session.Pending{Level: session.LevelNode, Path: fmt.Sprintf("slides[%s].%s", s.ID, f.name), Hint: f.hint})
			}
		}
	}
	return ps
}
