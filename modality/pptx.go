package modality

import (
	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/session"
)

// PPTXRendered is a node drawn as native PowerPoint content for `render
// --format pptx`.
type PPTXRendered struct {
	// Shapes go on a slide, inside the frame the hook was given.
	Shapes []pptx.Shape
	// Notes are paragraphs for the slide's notes page.
	Notes []pptx.Para
	// Key is the answer key: in the notes and on the answers slide of the
	// teacher's copy, left out of a handout.
	Key []pptx.Para
	// Title is the shape among Shapes that shows a title (a board's
	// heading): when its text is the slide's title, the deck writes it as
	// the slide's title placeholder, so the title is shown once.
	Title *pptx.Sp
}

// PPTXHook draws a node into frame (the part of a slide below its title,
// in EMU), with bound the values a slide's props bind into it.
type PPTXHook func(st session.State, bound map[string]string, frame pptx.Box) PPTXRendered

// NewPPTX builds a PPTX hook from a modality's own typed function, so the
// one type assertion lives here.
func NewPPTX[T session.State](fn func(T, map[string]string, pptx.Box) PPTXRendered) PPTXHook {
	return func(st session.State, bound map[string]string, f pptx.Box) PPTXRendered { return fn(st.(T), bound, f) }
}
