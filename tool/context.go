package tool

import (
	"context"
	"errors"
	"slices"

	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/session"
)

// Capabilities of the tools that act outside the document. Every level is
// granted them by code (bridge.Toolset), never by anything a model read.
const (
	CapSources session.Capability = "sources.read"
	CapAuthor  session.Capability = "author.ask"
	CapNote    session.Capability = "author.note"
	// CapSlides reads a slide whole, its children included: granted to
	// the levels that write slides (the lesson's), which otherwise see
	// only the outline.
	CapSlides session.Capability = "slides.read"
	// CapPictures lists the pictures in the sources: granted with
	// CapSources to the levels that can place one (bridge).
	CapPictures session.Capability = "sources.pictures"
)

// Context is the one thing every tool call receives: the run's context
// (cancellation, deadline), the node it acts on (its name, and its session,
// through which a document tool's intent is dispatched), the capabilities
// granted to its level, the sandbox over the author's sources, and the
// ways to reach the author (a question, a note). Nothing else is reached
// around it: a tool that needs something more gets a field here.
type Context struct {
	Ctx     context.Context
	Node    string
	Level   string // the subagent's level, e.g. "whiteboard.node"
	Session *session.Session
	Grant   []session.Capability
	Sources *sources.Sandbox // nil without --sources
	Author  Author           // nil in a batch run
	Notes   func(Note)       // nil when nobody collects notes
	// Slide describes a slide (an id or a 1-based position) with its
	// children; nil where the level is not granted CapSlides.
	Slide func(ref string) (string, error)
	// Read, when set, is told each source text read_source returned.
	Read func(path, text string)
}

// Allows reports whether the level holds a capability.
func (c Context) Allows(cap session.Capability) bool { return slices.Contains(c.Grant, cap) }

// Author is the person at the keyboard during an interactive run.
type Author interface {
	// AskAuthor shows a question from node and returns the answer.
	AskAuthor(ctx context.Context, node, question string) (string, error)
}

// ErrNoAuthor is returned by an Author with nobody to ask.
var ErrNoAuthor = errors.New("nobody is at the keyboard to answer")

// Note is one note a subagent left for the author (note_for_author): an
// inconsistency in what they wrote, a doubt, a choice made without asking.
type Note struct {
	Node  string `json:"node"`
	Level string `json:"level"`
	// About names what the note is about (a field, an element), if given.
	About string `json:"about,omitempty"`
	Text  string `json:"text"`
}
