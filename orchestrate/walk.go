package orchestrate

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// Tree is the document the walk runs over: the root's session, its slides,
// and each slide's children by kind. compose.Document implements it.
type Tree interface {
	Session() *session.Session
	Slides() []string
	Lookup(ref string) (id string, err error)
	Outline() string
	DescribeSlide(id string) string
	Bindings(id string) (map[string]string, error)
	// Child returns the child of a kind placed on slide id, loading it if
	// needed; session.ErrUnknownChild when the slide places none.
	Child(id, kind string) (*session.Session, error)
	// NewFile returns the file slide id's child of kind will be created
	// in, as the lesson names it: "" unless it does not exist yet.
	NewFile(id, kind string) string
}

// Scope says where generation starts: the whole lesson, or one slide.
type Scope struct {
	// Slide, when set, limits the walk to that slide (an id or a 1-based
	// position) and its children.
	Slide string
	// Refine reopens the named node's level even when nothing is pending
	// there (fill --instruction): the slide's children's node levels, or
	// the lesson's metadata level with Metadata. Each subagent continues
	// its saved conversation with the instruction.
	Refine bool
	// Metadata limits the walk to the lesson's own metadata level (fill
	// --metadata); Slide is then empty.
	Metadata bool
	// Kinds, when set, limits a slide's children to these kinds (fill
	// --slide ID --whiteboard).
	Kinds []string
	// Above is the describe chain above the root (a course's, for one of
	// its lessons): every step's context starts with it.
	Above []string
}

// ChildNode names a child node: "slides/<id>/<kind>".
func ChildNode(slideID, kind string) string { return "slides/" + slideID + "/" + kind }

// visitor is what plan and run do differently at the spots the one walk
// reaches; everything else (order, pending gates, describe chains,
// bindings) is the walk's.
type visitor interface {
	// step handles one level of one node that has work pending; false
	// means the node failed or the run stopped, so its next level is not
	// tried.
	step(ctx context.Context, st Step, level modality.Level, d *modality.Descriptor, sess *session.Session, focus string) bool
	// skip records a level with work pending that is not started: the run
	// stopped first (why is the cause), or the node's level before it did
	// not finish.
	skip(st Step, level modality.Level, why string)
	// bind fills a child's bound properties before its steps (plan: only
	// notes them, as the walk already took them off the pending list).
	bind(ctx context.Context, node string, d *modality.Descriptor, sess *session.Session, values map[string]string, err error)
	// rootDone runs after the root's steps, before its slides are read
	// (run: reconcile the children the node subagent placed, and save).
	rootDone()
	// fail records a child that cannot be loaded.
	fail(node, level string, err error)
	// slideDone runs after a slide's children's steps (run: look across
	// them, e.g. for a quiz's answers on the board).
	slideDone(id string, kids []*session.Session)
	// chain takes one slide's chain of steps, length counting those
	// pending (plan: runs it at once, in document order, and needs no
	// count; run: queues it, longest first), and wait runs what is queued
	// and waits for it.
	chain(length func() int, fn func())
	wait()
}

// walker walks one tree for one visitor.
type walker struct {
	tree  Tree
	reg   *modality.Registry
	v     visitor
	scope Scope
	// pending, when set, keeps each session's pending items once read: a
	// plan changes nothing, and reads both levels of every node (a no-op
	// generate of a large lesson then plans at the cost of one read).
	pending map[*session.Session][]session.Pending
}

// walk visits, in order: the root's metadata and node levels (or, for one
// slide, the root's node level focused on it), then every slide's children
// by registered kind, each metadata before node. Once the run stops, the
// walk goes on to the end, handing each level with work pending to skip,
// so what was not started is counted too.
func (w *walker) walk(ctx context.Context, scope Scope) error {
	root := w.reg.Root()
	w.scope = scope
	var slides []string
	switch {
	case scope.Metadata:
		w.level(ctx, Step{Node: root.Name}, root, w.tree.Session(), session.LevelMetadata, "", nil,
			func() []string { return []string{w.describe(w.tree.Session())} }, "")
		w.v.rootDone()
	case scope.Slide != "":
		id, err := w.tree.Lookup(scope.Slide)
		if err != nil {
			return err
		}
		base := Step{Node: root.Name, Slide: id, Note: "focused on slide " + id + ": only its own fields change"}
		w.level(ctx, base, root, w.tree.Session(), session.LevelNode, id, nil,
			func() []string { return []string{w.describe(w.tree.Session()), w.tree.DescribeSlide(id)} }, "")
		w.v.rootDone()
		slides = []string{id}
	default:
		unfinished := ""
		for _, part := range modality.Parts() {
			ok := w.level(ctx, Step{Node: root.Name}, root, w.tree.Session(), part, "", nil, func() []string {
				chain := []string{w.describe(w.tree.Session())}
				if part == session.LevelNode {
					chain = append(chain, w.tree.Outline())
				}
				return chain
			}, unfinished)
			if !ok && unfinished == "" {
				unfinished = root.Level(part).Name
			}
		}
		w.v.rootDone()
		slides = w.tree.Slides()
	}
	for _, id := range slides {
		kids := w.kids(id)
		w.v.chain(func() int { return w.length(id, kids) }, func() { w.children(ctx, id, kids) })
	}
	w.v.wait()
	return nil
}

// kid is one child a slide places, with the values its props bind.
type kid struct {
	d       *modality.Descriptor
	sess    *session.Session
	values  map[string]string
	bindErr error
}

// dropRepeatedBrief leaves out of a slide's line the brief of its child
// of a kind when the child's own line (later in the same chain) says the
// same brief: said once, every subagent of the slide reads the same words
// in fewer bytes.
func dropRepeatedBrief(slide, kind, child string) string {
	_, brief, ok := strings.Cut(child, "\nBrief for this "+kind+": ")
	if !ok {
		return slide
	}
	brief, _, _ = strings.Cut(brief, "\n")
	return strings.Replace(slide, " Brief for this slide's "+kind+": "+brief, "", 1)
}

// kids loads the children a slide places, kind by kind in registry order.
func (w *walker) kids(id string) []kid {
	var kids []kid
	values, bindErr := w.tree.Bindings(id)
	for _, d := range w.reg.Children() {
		if len(w.scope.Kinds) > 0 && !slices.Contains(w.scope.Kinds, d.Name) {
			continue
		}
		sess, err := w.tree.Child(id, d.Name)
		if errors.Is(err, session.ErrUnknownChild) {
			continue
		}
		if err != nil {
			w.v.fail(ChildNode(id, d.Name), d.Name, err)
			continue
		}
		kids = append(kids, kid{d: d, sess: sess, values: only(values, d.Bindable), bindErr: bindErr})
	}
	return kids
}

// length counts the levels of a slide's chain that have work pending now.
func (w *walker) length(id string, kids []kid) int {
	n := 0
	for _, k := range kids {
		for _, part := range modality.Parts() {
			if _, ok := w.todo(Step{Node: ChildNode(id, k.d.Name), Slide: id}, k.d, k.sess, part, "", k.bound(part)); ok {
				n++
			}
		}
	}
	return n
}

// bound is what the slide's props fill at a level: metadata only.
func (k kid) bound(part session.Level) map[string]string {
	if part == session.LevelMetadata {
		return k.values
	}
	return nil
}

// children visits a slide's children, one after the other. Each child's
// describe chain ends with its siblings' descriptions, then its own, so a
// quiz knows what its slide's whiteboard shows and the other way round.
// One after the other is what makes those descriptions fixed by the tree,
// not the clock: a child sees the kinds before it (registry order) as they
// finished and the kinds after it as they were when the chain started, at
// any concurrency (TestSameAnswersSameLesson).
func (w *walker) children(ctx context.Context, id string, kids []kid) {
	for _, k := range kids {
		d, sess := k.d, k.sess
		node := ChildNode(id, d.Name)
		if ctx.Err() == nil {
			w.v.bind(ctx, node, d, sess, k.values, k.bindErr)
		}
		var notes []string
		if f := w.tree.NewFile(id, d.Name); f != "" {
			notes = append(notes, "file "+f+" will be created")
		}
		if errors.Is(k.bindErr, modality.ErrBindingPending) {
			notes = append(notes, "props bindings resolve after the lesson's metadata is generated")
		}
		note := strings.Join(notes, "; ")
		unfinished := ""
		for _, part := range modality.Parts() {
			ok := w.level(ctx, Step{Node: node, Slide: id, Note: note}, d, sess, part, "", k.bound(part), func() []string {
				slide, own := w.tree.DescribeSlide(id), w.describe(sess)
				var chain []string
				for _, sib := range kids {
					if sib.sess == sess {
						slide = dropRepeatedBrief(slide, sib.d.Name, own)
						continue
					}
					line := w.summary(sib.sess)
					slide = dropRepeatedBrief(slide, sib.d.Name, line)
					if part == session.LevelMetadata {
						line = withoutItems(line)
					}
					chain = append(chain, "Beside it on this slide: "+line)
				}
				return append([]string{w.describe(w.tree.Session()), slide}, append(chain, own)...)
			}, unfinished)
			if !ok && unfinished == "" {
				unfinished = d.Level(part).Name
			}
		}
	}
	if ctx.Err() == nil && len(kids) > 1 {
		sessions := make([]*session.Session, len(kids))
		for i, k := range kids {
			sessions[i] = k.sess
		}
		w.v.slideDone(id, sessions)
	}
}

// level hands one level of one node to the visitor if anything is pending
// there, and reports whether the node may go on to its next level: to
// step, or to skip once the run has stopped or when unfinished names the
// node's level before it that did not finish. base names the node (and
// its slide, and a note); chain builds the describe chain when the step
// is taken.
func (w *walker) level(ctx context.Context, base Step, d *modality.Descriptor, sess *session.Session, part session.Level, focus string, bound map[string]string, chain func() []string, unfinished string) bool {
	st, ok := w.todo(base, d, sess, part, focus, bound)
	if !ok {
		return true
	}
	lv := d.Level(part)
	switch {
	case ctx.Err() != nil:
		w.v.skip(st, lv, context.Cause(ctx).Error())
		return false
	case unfinished != "":
		w.v.skip(st, lv, unfinished+" did not finish")
		return false
	}
	st.Context = append(slices.Clip(w.scope.Above), chain()...)
	return w.v.step(ctx, st, lv, d, sess, focus)
}

// todo is the step for one level of one node, and whether it has work:
// something pending (properties bound by the parent are not the
// subagent's to fill), or a node level reopened for refinement.
func (w *walker) todo(base Step, d *modality.Descriptor, sess *session.Session, part session.Level, focus string, bound map[string]string) (Step, bool) {
	var ps []session.Pending
	if w.pending != nil {
		all, ok := w.pending[sess]
		if !ok {
			sess.View(func(st session.State) { all = st.Pending() })
			w.pending[sess] = all
		}
		ps = bridge.PendingIn(all, d.Level(part), focus)
	} else {
		ps = bridge.PendingAt(sess, d.Level(part), focus)
	}
	var applied map[string]string
	for name, v := range bound {
		if rest, ok := without(ps, name); ok {
			ps = rest
			if applied == nil {
				applied = map[string]string{}
			}
			applied[name] = v
		}
	}
	reopened := w.scope.Refine && focus == "" && (w.scope.Metadata && part == session.LevelMetadata && base.Slide == "" ||
		w.scope.Slide != "" && part == session.LevelNode && base.Slide != "")
	if len(ps) == 0 && !reopened {
		return Step{}, false
	}
	st := base
	st.Level, st.Pending, st.Bindings = part, ps, applied
	return st, true
}

func (w *walker) describe(sess *session.Session) (s string) {
	sess.View(func(st session.State) { s = st.Describe() })
	return s
}

// withoutItems is a sibling's summary as a metadata subagent sees it:
// what the sibling is and how many items it holds, without the list of
// them ("- …" lines), which a heading, a kind or instructions need not
// agree with. The list is the longest part of the chain and differs on
// every slide: without it the level's subagents share ≥ 90% of their
// requests once the slide's other children are filled
// (BenchmarkPrefixAllKinds).
func withoutItems(summary string) string {
	var kept []string
	for line := range strings.SplitSeq(summary, "\n") {
		if strings.HasPrefix(line, "- ") || strings.HasPrefix(line, "  ") {
			continue
		}
		if strings.HasSuffix(line, ":") {
			line = strings.TrimSuffix(line, ":") + "."
		}
		kept = append(kept, line)
	}
	return strings.Join(kept, "\n")
}

// summary is what a sibling's describe chain says of sess: its Summary
// when it has one (session.Summarizer), else its Describe.
func (w *walker) summary(sess *session.Session) (s string) {
	sess.View(func(st session.State) {
		if sm, ok := st.(session.Summarizer); ok {
			s = sm.Summary()
		} else {
			s = st.Describe()
		}
	})
	return s
}

// only keeps the values of the named properties.
func only(values map[string]string, names []string) map[string]string {
	out := map[string]string{}
	for _, name := range slices.Sorted(maps.Keys(values)) {
		if slices.Contains(names, name) {
			out[name] = values[name]
		}
	}
	return out
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
