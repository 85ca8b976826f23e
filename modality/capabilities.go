package modality

import (
	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/session"
)

// The optional capabilities of a kind's state (and of its intents) that
// the program finds by type assertion. They are declared here, in one
// place, so a kind can assert at compile time the ones it implements
// (var _ modality.Citer = (*T)(nil)), and internal/conformance lists
// which kind has which (its capability matrix): a kind that lacks one is
// seen in review rather than silently skipped. Attacher, Pictured and
// Illustrated (attach.go), Briefed (modality.go) and session's Parent,
// Summarizer, Provenance, Guarded and Targeted are the others.

// Citer is a state whose items cite the author's sources: compose lists
// them in the notes and checks them against --sources.
type Citer interface {
	Citations() []sources.Ref
}

// Timed is a state that takes minutes of its slide's (an activity):
// compose warns when it takes more than the slide has.
type Timed interface {
	Minutes() (int, bool)
}

// Defective is a state that knows its layout defects (a whiteboard): the
// model sees them in its tool results, and a node left with defects it
// introduced is not done.
type Defective interface {
	Defects() []session.Warning
}

// Bounded is a state whose numeric arguments have narrower bounds than
// the ranges their intents declare, e.g. a whiteboard's coordinates by its
// canvas: property name to [min, max]. The tool schemas a model is shown
// state them (bridge); the state's own dispatch check enforces them.
type Bounded interface {
	Bounds() map[string][2]float64
}

// AnswerKeyed is a state with answers pupils must not see (a quiz): the
// orchestrator checks they are not shown on the same slide.
type AnswerKeyed interface {
	AnswerKey() []string
}

// TextShown is a state that shows text, by where (a whiteboard): what the
// answer check reads for a quiz's answers.
type TextShown interface {
	VisibleText() map[string]string
}

// Spatial is a state that states its geometry as numbers (a whiteboard):
// its canvas's rules and the space its content leaves free, given to the
// model in its task prompt.
type Spatial interface {
	CanvasRules() string
	FreeSpace() string
}

// PicturePlacer is an intent that shows a picture from the sources by its
// listed name (whiteboard.PlaceImage). The bridge reads the picture and
// hands its bytes to the intent, so no model ever names a path or supplies
// bytes, and the sandbox is the only way a picture gets in.
type PicturePlacer interface {
	session.Intent
	PictureName() string
	WithPicture(data []byte, description string) session.Intent
}
