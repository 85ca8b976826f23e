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
)

// Context is the one thing every tool call receives: the run's context
// (cancellation, deadline), the node it acts on, the capabilities granted
// to its level, the sandbox over the author's sources, and the way to ask
// the author. Nothing else is reached around it.
type Context struct {
	Ctx     context.Context
	Node    string
	Grant   []session.Capability
	Sources *sources.Sandbox // nil without --sources
	Author  Author           // nil in a batch run
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
