// Package orchestrate walks a lesson's tree and runs a subagent for each
// pending level: deterministic code, not an agent. Plan and Run are the same
// walk (walk.go); Plan records the steps instead of running them.
package orchestrate

import (
	"context"
	"fmt"
	"strings"

	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// Step is one subagent the walk would run.
type Step struct {
	// Node names the node: "lesson" or "slides/<id>/<kind>".
	Node  string        `json:"node"`
	Level session.Level `json:"level"`
	// Slide is the slide id for child steps and focused steps.
	Slide   string            `json:"slide,omitempty"`
	Pending []session.Pending `json:"pending"`
	// Bindings that fill properties before the step runs.
	Bindings map[string]string `json:"bindings,omitempty"`
	// Context is the describe chain the subagent receives, root first.
	Context []string `json:"context"`
	// Note explains steps whose work is not known yet.
	Note string `json:"note,omitempty"`
}

// Plan lists the steps generation would take, in order, without running
// anything. Children in their own files are loaded to see what they need.
func Plan(tree Tree, reg *modality.Registry, scope Scope) ([]Step, error) {
	p := &planner{root: reg.Root()}
	w := &walker{tree: tree, reg: reg, v: p, pending: map[*session.Session][]session.Pending{}}
	if err := w.walk(context.Background(), scope); err != nil {
		return nil, err
	}
	if p.err != nil {
		return nil, p.err
	}
	for _, hint := range p.deferred {
		p.steps = append(p.steps, Step{Node: NewSlidesNode, Level: session.LevelNode,
			Note: fmt.Sprintf("the children of the slides the lesson's node subagent adds (%s) are generated after it", hint)})
	}
	return p.steps, nil
}

// NewSlidesNode names the plan step that stands for the children of slides
// a lesson node subagent will add: which they are is known only then.
const NewSlidesNode = "slides/(new)"

// planner records the walk's steps.
type planner struct {
	root     *modality.Descriptor
	steps    []Step
	deferred []string
	err      error
}

func (p *planner) step(_ context.Context, st Step, _ modality.Level, d *modality.Descriptor, _ *session.Session, focus string) bool {
	p.steps = append(p.steps, st)
	if d != p.root || st.Level != session.LevelNode || focus != "" {
		return true
	}
	// New placements are only known once the node subagent has run: those
	// of the placeholders of the root's new-items list (slides), not of a
	// list inside an item (a slide's callouts).
	for _, pe := range st.Pending {
		if pe.ID != "" && newItemsSpot(pe.Path, d.NewItems) {
			p.deferred = append(p.deferred, pe.Hint)
		}
	}
	return true
}

// newItemsSpot reports whether path is the new-items list (slides) or a
// placeholder in it (slides[2]), not a spot inside one of its items.
func newItemsSpot(path, list string) bool {
	rest, ok := strings.CutPrefix(path, list)
	return ok && (rest == "" || strings.HasPrefix(rest, "[") && strings.Count(rest, "[") == 1 && strings.HasSuffix(rest, "]"))
}

func (p *planner) bind(context.Context, string, *modality.Descriptor, *session.Session, map[string]string, error) {
}

func (p *planner) rootDone()                            {}
func (p *planner) slideDone(string, []*session.Session) {}

func (p *planner) fail(_, _ string, err error) {
	if p.err == nil {
		p.err = err
	}
}

// skip is never reached: a plan does not stop.
func (p *planner) skip(Step, modality.Level, string) {}

// chain lists a slide's steps at once: a plan is in document order.
func (p *planner) chain(_ func() int, fn func()) { fn() }
func (p *planner) wait()                         {}
