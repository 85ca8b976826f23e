// Package session is the one mutation path for every document in lessongen.
//
// A Session owns one modality instance (a State). Every change is an Intent
// passed to Dispatch, which runs reduce → recompile → commit → emit. The
// package knows no modality: lessons and whiteboards plug in through State.
package session

// Capability names what an intent is allowed to touch. A subagent is granted a
// set of capabilities for its level; intents outside it are refused.
type Capability string

// Spec is what an intent declares about itself. It is the single source of
// truth for tools offered to models, so every intent type has exactly one.
type Spec struct {
	// Capability the caller must hold to dispatch the intent.
	Capability Capability
	// ReadOnly intents report but never change state: they skip commit and
	// emit, and may run concurrently with each other.
	ReadOnly bool
	// Hidden intents (selection, undo, redo) are never offered to a model but
	// stay dispatchable by code and tests.
	Hidden bool
	// Doc describes the intent for a model, in a sentence or two.
	Doc string
	// Adds marks intents that create one new item (a slide, an element);
	// a subagent may create only so many (see bridge.Level.MaxNew).
	Adds bool
	// Fills, when set, lists the pending paths the intent can fill ("*"
	// stands for one index or key: "metadata.vocabulary[*].definition"). A
	// subagent with none of them pending is not offered it, so a model is
	// not tempted to set what the author wrote. Empty: offered whenever
	// the level holds the capability.
	Fills []string
}

// Intent is one typed operation on one modality.
type Intent interface {
	Spec() Spec
}

// Targeted is implemented by intents that change one existing item, named
// by Target (a slide id, an element id). A subagent focused on one item may
// use only these, and only on that item.
type Targeted interface {
	Intent
	Target() string
}

// Undo and Redo are handled by every session itself; they are hidden.
type (
	Undo struct{}
	Redo struct{}
)

// CapHistory guards undo and redo, which no model is ever granted.
const CapHistory Capability = "history"

func (Undo) Spec() Spec {
	return Spec{Capability: CapHistory, Hidden: true, Doc: "Undo the last committed change."}
}

func (Redo) Spec() Spec {
	return Spec{Capability: CapHistory, Hidden: true, Doc: "Redo the last undone change."}
}

// Level is the part of a node one subagent fills: its metadata or its body.
type Level string

const (
	LevelMetadata Level = "metadata"
	LevelNode     Level = "node"
)

// Pending is one spot still to be generated, as a modality lists it.
type Pending struct {
	Level Level  `json:"level"`
	Path  string `json:"path"`
	Hint  string `json:"hint,omitempty"`
	// ID names a placeholder that new content can be attached to.
	ID string `json:"id,omitempty"`
	// Generated lists what an earlier, stopped run already added for the
	// placeholder: the next run adds only what the hint still lacks.
	Generated []string `json:"generated,omitempty"`
	// Tools names the tools offered that fill it, where they declare so
	// (Spec.Fills): a tool result tells the model what to call for what is
	// left. Set by the bridge.
	Tools []string `json:"tools,omitempty"`
	// Label is how a person or a prompt reads Path, where it differs
	// (`slide "light" (3).notes` for slides[light].notes); Path stays
	// the key tools and merges match on.
	Label string `json:"-"`
}

// Name is what a person or a prompt reads for p: its Label, else its Path.
func (p Pending) Name() string {
	if p.Label != "" {
		return p.Label
	}
	return p.Path
}

// Owed is what a subagent must still fill before it may stop: a placeholder
// an earlier run began (Generated) is shown to the model, which judges
// whether its hint still lacks anything, so stopping there is not a failure.
func Owed(ps []Pending) []Pending {
	var owed []Pending
	for _, p := range ps {
		if len(p.Generated) == 0 {
			owed = append(owed, p)
		}
	}
	return owed
}
