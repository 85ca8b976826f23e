// Package orchestrate walks a lesson's tree and runs a subagent for each
// pending level: deterministic code, not an agent. The same walk, without
// models, is what `lessongen plan` shows.
package orchestrate

import (
	"errors"
	"fmt"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

// Step is one subagent the walk would run.
type Step struct {
	// Node names the node: "lesson" or "slides/<id>/whiteboard".
	Node  string        `json:"node"`
	Level session.Level `json:"level"`
	// Slide is the slide id for whiteboard steps.
	Slide   string            `json:"slide,omitempty"`
	Pending []session.Pending `json:"pending"`
	// Bindings that fill properties before the step runs.
	Bindings map[string]string `json:"bindings,omitempty"`
	// Context is the describe chain the subagent receives, root first.
	Context []string `json:"context"`
	// Note explains steps whose work is not known yet.
	Note string `json:"note,omitempty"`
}

// Scope says where generation starts: the whole lesson, or one slide.
type Scope struct {
	// Slide, when set, limits the walk to that slide (an id or a 1-based
	// position) and its whiteboard.
	Slide string
}

// BoardNode names a slide's whiteboard node.
func BoardNode(slideID string) string { return "slides/" + slideID + "/whiteboard" }

// Plan lists the steps generation would take, in order, without running
// anything. Whiteboards in their own files are loaded to see what they need.
func Plan(doc *lesson.Document, scope Scope) ([]Step, error) {
	var steps []Step
	var slideIDs []string
	var lessonCtx, outline, focusCtx string
	var lookupErr error
	doc.View(func(p *lesson.Plan) {
		lessonCtx, outline = p.Describe(), p.Outline()
		if scope.Slide == "" {
			slideIDs = p.SlideIDs()
			return
		}
		s, err := p.Lookup(scope.Slide)
		if err != nil {
			lookupErr = err
			return
		}
		slideIDs, focusCtx = []string{s.ID}, p.DescribeSlide(s.ID)
	})
	if lookupErr != nil {
		return nil, lookupErr
	}

	var deferred []string
	if scope.Slide != "" {
		own := bridge.PendingAt(doc.Session(), bridge.LevelFor("lesson", session.LevelNode), slideIDs[0])
		if len(own) > 0 {
			steps = append(steps, Step{Node: "lesson", Level: session.LevelNode, Slide: slideIDs[0], Pending: own,
				Context: []string{lessonCtx, focusCtx}, Note: "focused on slide " + slideIDs[0] + ": only its own fields change"})
		}
	} else {
		for _, level := range []session.Level{session.LevelMetadata, session.LevelNode} {
			ps := bridge.PendingAt(doc.Session(), bridge.LevelFor("lesson", level), "")
			if len(ps) == 0 {
				continue
			}
			ctx := []string{lessonCtx}
			if level == session.LevelNode {
				ctx = append(ctx, outline)
				for _, pe := range ps {
					if pe.ID != "" {
						deferred = append(deferred, pe.Hint)
					}
				}
			}
			steps = append(steps, Step{Node: "lesson", Level: level, Pending: ps, Context: ctx})
		}
	}

	for _, id := range slideIDs {
		board, err := doc.Board(id)
		if errors.Is(err, session.ErrUnknownChild) {
			continue // the slide has no whiteboard
		}
		if err != nil {
			return nil, err
		}
		var slideCtx, boardCtx string
		var bindings map[string]string
		var bindErr error
		doc.View(func(p *lesson.Plan) {
			slideCtx = p.DescribeSlide(id)
			bindings, bindErr = p.Bindings(id)
		})
		board.View(func(st session.State) { boardCtx = st.(*whiteboard.Board).Describe() })
		note := ""
		if errors.Is(bindErr, lesson.ErrBindingPending) {
			note = "props bindings resolve after the lesson's metadata is generated"
		}
		for _, level := range []session.Level{session.LevelMetadata, session.LevelNode} {
			ps := bridge.PendingAt(board, bridge.LevelFor("whiteboard", level), "")
			applied := map[string]string{}
			if level == session.LevelMetadata {
				for name, v := range bindings {
					if removed, ok := without(ps, name); ok {
						ps, applied[name] = removed, v
					}
				}
			}
			if len(ps) == 0 {
				continue
			}
			st := Step{Node: BoardNode(id), Level: level, Slide: id, Pending: ps, Note: note,
				Context: []string{lessonCtx, slideCtx, boardCtx}}
			if len(applied) > 0 {
				st.Bindings = applied
			}
			steps = append(steps, st)
		}
	}
	for _, hint := range deferred {
		steps = append(steps, Step{Node: "slides/(new)/whiteboard", Level: session.LevelNode,
			Note: fmt.Sprintf("whiteboards for the slides the lesson's node subagent adds (%s) are generated after it", hint)})
	}
	return steps, nil
}

// without removes the metadata item for a bound property.
func without(ps []session.Pending, name string) ([]session.Pending, bool) {
	for i, p := range ps {
		if p.Path == name {
			return append(ps[:i:i], ps[i+1:]...), true
		}
	}
	return ps, false
}
