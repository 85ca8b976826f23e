// Package modality makes a kind of document node a value: one Descriptor
// per modality (its name, intents, the capabilities of its levels, how its
// placeholders close, which properties a parent may bind into it, and for
// children how they are read and written; how it draws itself and what
// resume compares), gathered in a Registry that cmd builds once and hands
// down. Bridge, templates, the orchestrator (plan, generate, resume),
// validate, render, schema, tools and help text derive from the registry;
// nothing else names a modality. internal/conformance drives every
// registered kind through each of them.
package modality

import (
	"errors"
	"fmt"
	"html"
	"reflect"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// Descriptor is one modality as the rest of the program sees it.
type Descriptor struct {
	// Name is the modality's name: the prefix of its levels and templates
	// ("whiteboard.node") and, for a child, the slide field that places it.
	Name string
	// Doc says in a few words what the modality is: schema's and render's
	// help list each kind with it. Required.
	Doc string
	// Intents is the closed set of operations, one zero value each.
	Intents []session.Intent
	// Read is granted to both levels; Metadata and Node to their own.
	Read, Metadata, Node session.Capability
	// MaxNew bounds the items (named by NewItems, e.g. "elements") that
	// the node level's intents marked Adds may create in one subagent.
	MaxNew   int
	NewItems string
	// Close removes the placeholders a node subagent filled; the
	// orchestrator dispatches it when that subagent ends with nothing
	// pending.
	Close session.Intent
	// Bindable lists the properties a parent may bind into the modality
	// (a slide's props), and Bind the intent that fills one.
	Bindable []string
	Bind     func(property, value string) session.Intent
	// Prompts holds default task prompt templates by level, for a modality
	// whose templates are not embedded in the templates package.
	Prompts map[session.Level]string
	// Codec reads and writes a child modality; the root has none.
	Codec *Codec
	// Render draws the node for `lessongen render`: an HTML fragment for
	// the page and one for the speaker notes (e.g. a quiz's answer key),
	// with bound the values a slide's props bind into it. The Markdown
	// render is made of the same fragments. Required: a kind render
	// cannot draw would be left out of the lesson without a word.
	Render func(st session.State, bound map[string]string) Rendered
	// Review is a read-only intent whose outputs show a node as drawn
	// (describe_whiteboard): with --review, the node level's subagent
	// is shown them once its work is done, and again after each change
	// it makes then (agent.MaxLooks), with Render's output as a picture
	// under --review-images. Nil: the kind gets no review turn.
	Review session.Intent
	// PPTX draws the node as native PowerPoint shapes for `render --format
	// pptx` (see PPTXRendered). Required, as Render is.
	PPTX PPTXHook
	// PPTXBoard: the node is a slide's board which, when it has a heading
	// (PPTXRendered.Title), is drawn over the whole slide as the page
	// draws it (canvas pixels at their size: 48 px on a 1280 px canvas
	// is 36 pt), not in the frame under the title; the slide's title is
	// then that heading, or kept off the slide for the outline and screen
	// readers when the heading says something else.
	PPTXBoard bool
	// Content is the node's content as resume compares it: a saved
	// conversation is continued only while the node still reads so. It
	// must read the same before a save and after the saved file is loaded
	// again, so it leaves out what only memory keeps (a pending node's
	// brief, which the saved file drops once the node is filled).
	// Required; the orchestrator never reads Describe text for this.
	Content func(st session.State) string
	// MetadataContent, when set, is what the metadata level's saved
	// conversation is compared with instead of Content: the metadata
	// alone, where the node level changes what Content reads (the
	// lesson's slides). Optional.
	MetadataContent func(st session.State) string
	// Brief, for a child kind, describes the brief a parent's add tool
	// takes for a new node of this kind (add_slide's "whiteboard",
	// "quiz", "activity": what another assistant writes it from). A kind
	// without one is not offered there. BriefRequired makes it a brief
	// every new node must have.
	Brief         string
	BriefRequired bool
}

// Briefed is an intent that places new children pending, with one brief
// per registered child kind (add_slide): its tool takes one string
// property per kind with a Brief, named for the kind (the bridge adds
// them from the registry), and the parsed intent holds them in its own
// JSON, keyed by kind.
type Briefed interface {
	session.Intent
	ChildBriefs() map[string]string
}

// NewContent builds a Content hook from a modality's own typed function,
// so the one type assertion lives here.
func NewContent[T session.State](fn func(T) string) func(session.State) string {
	return func(st session.State) string { return fn(st.(T)) }
}

// Rendered is a child drawn as HTML fragments, already escaped.
type Rendered struct {
	// Body goes on the slide; Notes with the speaker notes.
	Body, Notes string
	// Credits name the pictures on the slide, for the lesson's credits
	// list: shown to pupils too, unlike Notes.
	Credits []Credit
	// Title is the title the node draws itself (a board's heading): when
	// it is the slide's title, the page shows that title once.
	Title string
}

// Credit is one picture's entry in the credits list: what it shows, its
// file, and who made it under what licence (either may be "").
type Credit struct {
	Picture, File, Credit, Licence string
}

// NewRender builds a Render hook from a modality's own typed function, so
// the one type assertion lives here.
func NewRender[T session.State](fn func(T, map[string]string) Rendered) func(session.State, map[string]string) Rendered {
	return func(st session.State, bound map[string]string) Rendered { return fn(st.(T), bound) }
}

// Codec is how a child modality is read from and written to its YAML node.
type Codec struct {
	// Decode reads a child, reporting every problem to r under path.
	Decode func(n *yaml.Node, r *yamlsrc.Reporter, path string) session.State
	// Todo is a child that is pending as a whole, with the author's hint.
	Todo func(hint string) session.State
	// Encode writes the child back as a node.
	Encode func(st session.State) *yaml.Node
	// Written reports whether property is already written in the child, so
	// a binding to it would be ignored.
	Written func(st session.State, property string) bool
	// Model is the document type Decode fills, from whose field table
	// `lessongen schema` derives the file's JSON Schema.
	Model reflect.Type
	// Report, when set, reports the state's layout defects as Decode does,
	// each at its position: for a decoded child whose defects change once
	// the slide's props are bound (a bound heading takes the heading band).
	Report func(st session.State, r *yamlsrc.Reporter, path string)
}

// NewCodec builds a Codec from a modality's own typed functions, so the one
// type assertion lives here and not in every caller.
func NewCodec[T session.State](
	decode func(n *yaml.Node, r *yamlsrc.Reporter, path string) T,
	todo func(hint string) T,
	encode func(T) *yaml.Node,
	written func(T, string) bool,
) *Codec {
	return &Codec{
		Decode:  func(n *yaml.Node, r *yamlsrc.Reporter, path string) session.State { return decode(n, r, path) },
		Todo:    func(hint string) session.State { return todo(hint) },
		Encode:  func(st session.State) *yaml.Node { return encode(st.(T)) },
		Written: func(st session.State, p string) bool { return written != nil && written(st.(T), p) },
		Model:   reflect.TypeFor[T](),
	}
}

// Parts are a node's levels in orchestration order: metadata, then node.
func Parts() []session.Level { return []session.Level{session.LevelMetadata, session.LevelNode} }

// Level is one kind of subagent: a modality's metadata or node, with the
// capabilities it is granted.
type Level struct {
	Name     string
	Modality string
	// Part is the part of the node the level fills.
	Part  session.Level
	Grant []session.Capability
	// MaxNew bounds the items (named by NewItems) that intents marked Adds
	// may create in one subagent; 0 means the level creates none.
	MaxNew   int
	NewItems string
}

// Allows reports whether the level holds capability c.
func (l Level) Allows(c session.Capability) bool { return slices.Contains(l.Grant, c) }

// Levels returns the descriptor's two levels, metadata first.
func (d *Descriptor) Levels() []Level {
	return []Level{
		{Name: d.Name + "." + string(session.LevelMetadata), Modality: d.Name, Part: session.LevelMetadata, Grant: []session.Capability{d.Read, d.Metadata}},
		{Name: d.Name + "." + string(session.LevelNode), Modality: d.Name, Part: session.LevelNode, Grant: []session.Capability{d.Read, d.Node}, MaxNew: d.MaxNew, NewItems: d.NewItems},
	}
}

// Level returns the descriptor's level for part.
func (d *Descriptor) Level(part session.Level) Level {
	for _, l := range d.Levels() {
		if l.Part == part {
			return l
		}
	}
	panic("modality: no part " + string(part))
}

// Registry is every modality of a run: one root (the lesson) and the child
// kinds a slide may place, in the order they are generated. It does not
// change after New.
type Registry struct {
	root     *Descriptor
	children []*Descriptor
}

// New checks the descriptors and builds a registry.
func New(root Descriptor, children ...Descriptor) (*Registry, error) {
	r := &Registry{root: &root}
	seen := map[string]bool{}
	for i, d := range append([]Descriptor{root}, children...) {
		if err := d.check(i > 0); err != nil {
			return nil, err
		}
		if seen[d.Name] {
			return nil, fmt.Errorf("modality %q is registered twice", d.Name)
		}
		seen[d.Name] = true
		if i > 0 {
			r.children = append(r.children, &d)
		}
	}
	return r, nil
}

func (d *Descriptor) check(child bool) error {
	switch {
	case d.Name == "":
		return fmt.Errorf("a modality has no name")
	case d.Doc == "":
		return fmt.Errorf("modality %s: no Doc: help could not say what it is", d.Name)
	case len(d.Intents) == 0:
		return fmt.Errorf("modality %s: no intents", d.Name)
	case d.Read == "" || d.Metadata == "" || d.Node == "":
		return fmt.Errorf("modality %s: capabilities for read, metadata and node are required", d.Name)
	case d.Close == nil:
		return fmt.Errorf("modality %s: no intent closes its placeholders", d.Name)
	case child && d.Codec == nil:
		return fmt.Errorf("modality %s: a child needs a codec", d.Name)
	case len(d.Bindable) > 0 && d.Bind == nil:
		return fmt.Errorf("modality %s: bindable properties but no Bind", d.Name)
	case d.Render == nil || d.PPTX == nil:
		return fmt.Errorf("modality %s: Render and PPTX are required: render would leave it out", d.Name)
	case d.Content == nil:
		return fmt.Errorf("modality %s: no Content: resume could not tell whether it changed", d.Name)
	}
	return nil
}

// With is the registry with more child kinds after the registered ones:
// a kind defined elsewhere (a test's) registers in one line.
func (r *Registry) With(children ...Descriptor) (*Registry, error) {
	var all []Descriptor
	for _, d := range r.children {
		all = append(all, *d)
	}
	return New(*r.root, append(all, children...)...)
}

// Root is the parent modality, the lesson.
func (r *Registry) Root() *Descriptor { return r.root }

// Children are the child kinds a slide may place, in generation order.
func (r *Registry) Children() []*Descriptor { return slices.Clone(r.children) }

// All is the root, then the children.
func (r *Registry) All() []*Descriptor { return append([]*Descriptor{r.root}, r.children...) }

// Lookup returns the modality named name.
func (r *Registry) Lookup(name string) (*Descriptor, bool) {
	for _, d := range r.All() {
		if d.Name == name {
			return d, true
		}
	}
	return nil, false
}

// Child returns the child kind named name.
func (r *Registry) Child(name string) (*Descriptor, bool) {
	for _, d := range r.children {
		if d.Name == name {
			return d, true
		}
	}
	return nil, false
}

// Levels lists every subagent level, in orchestration order.
func (r *Registry) Levels() []Level {
	var out []Level
	for _, d := range r.All() {
		out = append(out, d.Levels()...)
	}
	return out
}

// LevelNames lists the level names, for help text and templates.
func (r *Registry) LevelNames() []string {
	var out []string
	for _, l := range r.Levels() {
		out = append(out, l.Name)
	}
	return out
}

// Level returns the level named name ("whiteboard.node").
func (r *Registry) Level(name string) (Level, bool) {
	for _, l := range r.Levels() {
		if l.Name == name {
			return l, true
		}
	}
	return Level{}, false
}

// ErrBindingPending means a binding reads a value that is still pending; it
// resolves once that value has been generated.
var ErrBindingPending = errors.New("binding reads a value that is still pending")

// Cited is one item's citations of the author's sources, as a render lists
// them in the notes: Item names it for the teacher ("text t1").
type Cited struct {
	Item    string
	Sources []string
}

// CitationNotes is the notes fragment listing items' citations under
// title ("Whiteboard sources"), "" when no item cites anything. Every
// modality lists its items' sources this way.
func CitationNotes(title string, items []Cited) string {
	var b strings.Builder
	for _, c := range items {
		if len(c.Sources) == 0 {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("<p class=\"sources\">" + html.EscapeString(title) + ":</p>\n<ul class=\"sources\">")
		}
		b.WriteString("<li>" + html.EscapeString(c.Item) + ": " + html.EscapeString(strings.Join(c.Sources, ", ")) + "</li>")
	}
	if b.Len() == 0 {
		return ""
	}
	return b.String() + "</ul>\n"
}
