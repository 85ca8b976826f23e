package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/lessongen/lessongen/internal/clip"
	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/tool"
)

// Approval is how mutations are approved.
type Approval string

const (
	ApproveAuto Approval = "auto" // commit every valid change
	ApproveDeny Approval = "deny" // dry run: check every change, commit none
	ApproveAsk  Approval = "ask"  // preview each change and ask on the terminal
)

// ParseApproval reads an --approve value.
func ParseApproval(s string) (Approval, error) {
	switch a := Approval(s); a {
	case ApproveAuto, ApproveDeny, ApproveAsk:
		return a, nil
	case "":
		return ApproveAuto, nil
	}
	return "", fmt.Errorf("--approve %q: use auto, deny or ask", s)
}

// Proposal is a change awaiting approval, with its preview: what reduce
// reported when run and reversed on the live state.
type Proposal struct {
	Node string
	Tool string
	// Args is the call's arguments as the model sent them, to show; the
	// checks and the preview worked on their one decoding (see callArgs).
	Args    string
	Preview session.Result
	// Diff is the change as a unified diff of the file that holds the
	// node (see FileDiff); empty when the run shows none or DiffErr says
	// why it could not.
	Diff    string
	DiffErr error
	// Authored is set when the change is to what the author wrote, asked
	// only because the run may rewrite it (Toolset.Rewrite).
	Authored bool
}

// FileDiff renders, for the approval prompt, the change a proposal would
// make to the file that holds its node. It is called with the node's
// session and the state as the change leaves it, under that session's lock
// (session.Preview), so it may only read st; the function it returns runs
// once the change is reversed and the lock released, and renders the text.
// The run passes it down: the bridge knows no file and no encoding.
type FileDiff func(sess *session.Session, st session.State) func() (string, error)

// Asker decides on proposals, e.g. by asking a person.
type Asker interface {
	Ask(ctx context.Context, p Proposal) (bool, error)
}

// ErrNoTerminal is returned by an ask gate that has nobody to ask.
var ErrNoTerminal = errors.New("--approve ask needs a terminal on stdin")

// Toolset is what one subagent may call: the tools of its level, bound to
// the session of its node.
type Toolset struct {
	Level    modality.Level
	Node     string
	Form     Form
	Approval Approval
	Asker    Asker
	// Focus, when set, limits the subagent to one item (a slide id): it is
	// offered read-only tools and those that change one item, may change
	// only that item, and sees only that item's pending spots.
	Focus string
	// Secrets, when set, refuses calls whose arguments hold a secret.
	Secrets Secrets
	// Notes, when set, receives each note_for_author call. It may be
	// called from several goroutines at once (the tool is read-only).
	Notes func(tool.Note)
	// Slide, when set, describes a slide whole (describe_slide): the
	// run hands it to the levels that write slides.
	Slide func(ref string) (string, error)
	// Read, when set, is told each source text read_source returns (the
	// run carries it to later subagents).
	Read func(path, text string)
	// Sources, when set, is the sandbox over the author's --sources; the
	// source tools are offered only then.
	Sources *sources.Sandbox
	// Author, when set, answers ask_author (an interactive run).
	Author tool.Author
	// Diff, when set, adds the file's diff to each proposal.
	Diff FileDiff
	// Refine offers every setter of the level, not only those of what is
	// pending: a run given an instruction may set again what an earlier
	// run generated (the author's values stay protected at dispatch).
	Refine bool
	// Rewrite lets a change to the author's content through when Asker
	// approves it (fill --rewrite): a call the node's protection refuses
	// is previewed unprotected and asked about; other calls go as
	// Approval says.
	Rewrite bool

	catalog *Catalog
	local   *Catalog
	sess    *session.Session
	// added counts the items this subagent created (see Level.MaxNew).
	// Mutations run one at a time, so a plain counter does.
	added int
	// before holds the defects the node had when the subagent started:
	// only those it introduces are its to fix.
	before map[session.Warning]bool
	// offered is the tools offered (see Tools); setters names those of
	// them this subagent may call, fixed with it when first asked for
	// (what was pending then decides).
	offered []tool.Def
	setters []string
	// shared offers every setter of the level, whatever is pending: set
	// for the levels of a modality with a node per slide, whose many
	// subagents share one prompt prefix.
	shared      bool
	offeredOnce sync.Once
}

// defectsOf lists sess's current defects, none for a state without them.
func defectsOf(sess *session.Session) []session.Warning {
	var ds []session.Warning
	sess.View(func(st session.State) {
		if d, ok := st.(modality.Defective); ok {
			ds = d.Defects()
		}
	})
	return ds
}

// Defects lists the defects this subagent introduced that remain: those
// not there when it started.
func (t *Toolset) Defects() []session.Warning {
	var out []session.Warning
	for _, d := range defectsOf(t.sess) {
		if !t.before[d] {
			out = append(out, d)
		}
	}
	return out
}

// NewToolset binds the level's tools to a session.
func (b *Bridge) NewToolset(level modality.Level, node string, sess *session.Session, form Form, approval Approval, asker Asker) (*Toolset, error) {
	c, err := b.Catalog(level.Modality)
	if err != nil {
		return nil, err
	}
	if approval == ApproveAsk && asker == nil {
		return nil, ErrNoTerminal
	}
	before := map[session.Warning]bool{}
	for _, d := range defectsOf(sess) {
		before[d] = true
	}
	// The root's levels run once per lesson: nothing shares their prefix.
	shared := level.Modality != b.reg.Root().Name
	return &Toolset{Level: level, Node: node, Form: form, Approval: approval, Asker: asker, catalog: c, local: b.local, sess: sess, before: before, shared: shared}, nil
}

// Tools returns the tool definitions offered to the model, with the
// node's own bounds (see modality.Bounded) in their schemas: the tools every such
// subagent gets first, then the local tools its grant holds (all
// read-only, so offered to a focused subagent too), then the setters. At
// a level with a node per slide (shared) every setter is offered, so every
// subagent of the level sends the same tools in the same order and a
// server's prompt cache serves them all with one prefix (tools come first
// in a prompt); a setter for nothing pending is offered but refused when
// called (see mayFill). The root's levels, which run once, are offered
// only the setters of what is pending (a lesson with only objectives
// pending gets no set_title): a shorter prompt, and no prefix to share.
func (t *Toolset) Tools() []tool.Def {
	// Read-only calls run concurrently and may be the first to ask.
	t.offeredOnce.Do(func() {
		pending := t.Pending()
		// Without --sources a citation can only be refused: no tool offers
		// its "sources" parameter (a model that sends one is told why).
		uncited := t.Sources == nil
		o := t.catalog.offered(WithPictures(t.Level, !uncited), t.Form, t.Focus != "", t.shared || t.Refine, uncited, pending)
		var bounds map[string][2]float64
		t.sess.View(func(st session.State) {
			if b, ok := st.(modality.Bounded); ok {
				bounds = b.Bounds()
			}
		})
		// A new slice: the parts are shared by every subagent.
		local := t.local.tools(t.localLevel(), t.Form, false)
		defs := slices.Concat(o.fixed, local, o.setters)
		for i, d := range defs {
			if len(bounds) > 0 {
				defs[i] = t.catalog.bounded(d, bounds, t.Form, uncited)
			}
		}
		t.offered = defs
		// What the subagent may set is decided once too, by what was
		// pending when it started: a setter stays usable after it filled
		// its item (to correct it), and never fills an item that was not
		// pending, unless Refine lets it set everything again.
		for _, d := range o.setters {
			if e := t.catalog.byName[d.Name]; e != nil && (t.Refine || e.fillsAny(pending)) {
				t.setters = append(t.setters, d.Name)
			}
		}
	})
	return t.offered
}

// mayFill reports whether the subagent may call the setter: it fills
// something that was pending when the subagent started (or Refine).
func (t *Toolset) mayFill(name string) bool {
	t.Tools()
	return slices.Contains(t.setters, name)
}

// toolsForLeft names the offered tools that can change what is pending
// now, for a model that called one that cannot.
func (t *Toolset) toolsForLeft() string {
	var names []string
	for _, p := range t.Pending() {
		for _, name := range t.fillers(p.Path) {
			if !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
	}
	if len(names) == 0 {
		return "nothing of that kind is pending"
	}
	return "tools for what is left: " + strings.Join(names, ", ")
}

func (t *Toolset) localLevel() modality.Level {
	lv := t.Level
	lv.Grant = t.grant()
	return lv
}

// grant is what the level may do: its modality's capabilities, asking the
// author, reading sources when there are any, and reading slides whole
// when the run hands it them (Slide). Decided here, by code.
func (t *Toolset) grant() []session.Capability {
	g := localGrant(t.Level, t.Sources != nil, t.catalog.placesPictures(t.Level))
	if t.Slide != nil {
		g = append(g, tool.CapSlides)
	}
	return g
}

func localGrant(l modality.Level, sources, pictures bool) []session.Capability {
	g := append(slices.Clip(l.Grant), tool.CapNote, tool.CapAuthor)
	if sources {
		g = append(g, tool.CapSources)
	}
	if sources && pictures {
		g = append(g, tool.CapPictures)
	}
	return g
}

// LocalTools lists the local tools a level is offered beside its own, in
// a run with or without --sources (for lessongen tools).
func (b *Bridge) LocalTools(l modality.Level, form Form, sources bool) []tool.Def {
	c, _ := b.Catalog(l.Modality)
	l.Grant = localGrant(l, sources, c != nil && c.placesPictures(l))
	if l.Modality == b.reg.Root().Name {
		l.Grant = append(l.Grant, tool.CapSlides) // a run hands the root's levels describe_slide
	}
	return b.local.tools(l, form, false)
}

// LocalSignature is Catalog.Signature for a local tool.
func (b *Bridge) LocalSignature(name string) string { return b.local.Signature(name) }

// ReadOnly reports whether a tool only reads (unknown tools do not).
func (t *Toolset) ReadOnly(name string) bool {
	spec, ok := t.spec(name)
	return ok && spec.ReadOnly
}

// Capability is what a tool needs granted; "" for an unknown tool.
func (t *Toolset) Capability(name string) session.Capability {
	spec, _ := t.spec(name)
	return spec.Capability
}

func (t *Toolset) spec(name string) (session.Spec, bool) {
	if spec, ok := t.catalog.Spec(name); ok {
		return spec, true
	}
	return t.local.Spec(name)
}

// context is the one tool context every call of this subagent receives.
func (t *Toolset) context(ctx context.Context) tool.Context {
	return tool.Context{Ctx: ctx, Node: t.Node, Level: t.Level.Name, Session: t.sess, Grant: t.grant(),
		Sources: t.Sources, Author: t.Author, Notes: t.Notes, Slide: t.Slide, Read: t.Read}
}

// notGranted refuses a tool the level's grant does not hold.
func (t *Toolset) notGranted(name string) tool.Envelope {
	return t.fail(callErr(session.KindPermission, "", "tools you can call: "+t.toolNames(),
		"%s is not available to the %s subagent", name, t.Level.Name))
}

// callLocal runs a local tool.
func (t *Toolset) callLocal(tc tool.Context, name string, a callArgs) (tool.Envelope, error) {
	in, ce := t.local.parse(name, a)
	if ce != nil {
		return t.fail(ce), nil
	}
	if !tc.Allows(in.Spec().Capability) {
		return t.notGranted(name), nil
	}
	out, te := in.(localTool).Run(tc)
	if err := tc.Ctx.Err(); err != nil {
		return tool.Envelope{}, context.Cause(tc.Ctx)
	}
	if te != nil {
		return t.fail(te), nil
	}
	env := tool.Envelope{OK: true, Result: out}
	t.setPending(&env)
	return env, nil
}

// Pending lists what is still pending at this node and level.
func (t *Toolset) Pending() []session.Pending { return PendingAt(t.sess, t.Level, t.Focus) }

// PendingAt lists what a subagent of the given level would have to fill in
// sess: the items of the level's part, and with a focus (a slide id) only
// that slide's. Both the run and `lessongen plan` ask this one place. Hints
// are clipped: they go into every prompt and tool result.
func PendingAt(sess *session.Session, level modality.Level, focus string) []session.Pending {
	var all []session.Pending
	sess.View(func(st session.State) { all = st.Pending() })
	return PendingIn(all, level, focus)
}

// PendingIn is PendingAt of all, a session's pending items as read.
func PendingIn(all []session.Pending, level modality.Level, focus string) []session.Pending {
	out := []session.Pending{}
	for _, p := range all {
		if p.Level == level.Part && (focus == "" || strings.HasPrefix(p.Path, "slides["+focus+"].")) {
			p.Hint = clip.Text(p.Hint)
			out = append(out, p)
		}
	}
	return out
}

// Call carries out one tool call and returns its envelope. Every call, of
// a local tool or a document tool, runs with the one tool.Context: a local
// tool receives it whole; a document tool is an intent, dispatched on the
// context's node session under its grant. Everything the model can fix
// comes back in the envelope; only cancellation and internal faults are
// returned as errors, and they end the subagent.
func (t *Toolset) Call(ctx context.Context, name, args string) (tool.Envelope, error) {
	a := decodeArgs(args) // the one decode: every step below works on a
	if secretIn(t.Secrets, name) || a.holdSecret(t.Secrets) {
		return t.fail(secretRefused()), nil
	}
	tc := t.context(ctx)
	if _, ok := t.local.Spec(name); ok {
		return t.callLocal(tc, name, a)
	}
	return t.callIntent(tc, name, a)
}

// callIntent parses a document tool's call into its intent and dispatches
// it, after the checks a mutation passes: grant, what was offered, focus,
// the cap on new items, approval.
func (t *Toolset) callIntent(tc tool.Context, name string, a callArgs) (tool.Envelope, error) {
	in, ce := t.catalog.parse(name, a)
	if ce != nil {
		return t.fail(ce), nil
	}
	spec := in.Spec()
	if spec.Hidden || !tc.Allows(spec.Capability) {
		return t.notGranted(name), nil
	}
	if len(spec.Fills) > 0 && !t.mayFill(name) {
		// Moot: what it sets stays as it was, and the model has nothing
		// to redo, so the refusal costs no turn.
		ce := callErr(session.KindPermission, "", t.toolsForLeft(),
			"%s is not for this subagent: nothing it fills was pending", name)
		ce.Moot = true
		return t.fail(ce), nil
	}
	if spec.ReadOnly {
		res, err := tc.Session.Dispatch(tc.Ctx, in)
		return t.result(res, err, false)
	}
	if t.Focus != "" {
		if tg, ok := in.(session.Targeted); !ok || tg.Target() != t.Focus {
			return t.fail(callErr(session.KindPermission, "id", "this subagent works on "+t.Focus+" only",
				"%s may change only %s here", name, t.Focus)), nil
		}
	}
	if spec.Adds && t.added >= t.Level.MaxNew {
		return t.fail(callErr(session.KindLimit, "", "finish with what is there: fill, change or delete what exists, or stop",
			"not run: this subagent has added %d %s, the most one may add", t.added, t.Level.NewItems)), nil
	}
	if tc.Sources == nil && a.citesSomething() {
		// The real reason first: a change the node refuses anyway (the
		// author's value, locked) says so, not that nothing can be cited,
		// or the model spends a turn dropping citations to learn it.
		if _, err := tc.Session.Preview(in, nil); err != nil {
			if e, ok := session.AsError(err); ok && e.Kind == session.KindPrecondition {
				return t.result(session.Result{}, err, false)
			}
		}
		// Nothing was read, so nothing can be cited: a citation here would
		// be invented, and no --sources folder could check it.
		return t.fail(callErr(session.KindInvalidArgs, "sources", "leave sources out (null or []): cite only lines read with read_source in a run given --sources",
			"this run has no sources, so there is nothing to cite")), nil
	}
	in, ce = withPicture(tc, in)
	if ce != nil {
		return t.fail(ce), nil
	}
	env, err := t.mutate(tc, in, name, a.sent)
	if err == nil && env.OK && spec.Adds {
		t.added++
	}
	return env, err
}

// mutate passes a change through the approval gate and dispatches it.
func (t *Toolset) mutate(tc tool.Context, in session.Intent, name, sent string) (tool.Envelope, error) {
	if t.Rewrite && t.Asker != nil && t.Approval != ApproveDeny {
		if env, asked, err := t.rewrite(tc, in, name, sent); asked {
			return env, err
		}
	}
	switch t.Approval {
	case ApproveDeny:
		res, err := tc.Session.Preview(in, nil)
		return t.result(res, err, true)
	case ApproveAsk:
		var look func(session.State)
		var render func() (string, error)
		if t.Diff != nil {
			look = func(st session.State) { render = t.Diff(tc.Session, st) }
		}
		preview, err := tc.Session.Preview(in, look)
		if err != nil {
			return t.result(preview, err, false)
		}
		p := Proposal{Node: tc.Node, Tool: name, Args: sent, Preview: preview}
		if render != nil {
			p.Diff, p.DiffErr = render()
		}
		ok, err := t.Asker.Ask(tc.Ctx, p)
		if errors.Is(err, ErrNoTerminal) {
			return t.fail(callErr(session.KindPermission, "", "no change can be made in this run", "%v", err)), nil
		}
		if err != nil {
			return tool.Envelope{}, err
		}
		if !ok {
			return t.fail(callErr(session.KindPermission, "", "try a different change, or stop if the node is done", "the user declined this change")), nil
		}
	}
	res, err := tc.Session.Dispatch(tc.Ctx, in)
	return t.result(res, err, false)
}

// rewrite handles a change that only the protection of the author's
// content refuses: it is shown as a diff and asked about, and applied
// unprotected if approved. asked is false for any other change, which
// then goes through the approval gate as usual.
func (t *Toolset) rewrite(tc tool.Context, in session.Intent, name, sent string) (env tool.Envelope, asked bool, err error) {
	if _, err := tc.Session.Preview(in, nil); err == nil {
		return env, false, nil // allowed as it stands
	} else if _, ok := session.AsError(err); !ok {
		return env, false, nil
	}
	guard(tc.Session, false)
	defer guard(tc.Session, true)
	var look func(session.State)
	var render func() (string, error)
	if t.Diff != nil {
		look = func(st session.State) { render = t.Diff(tc.Session, st) }
	}
	preview, err := tc.Session.Preview(in, look)
	if err != nil {
		return env, false, nil // refused for another reason too: say why as usual
	}
	p := Proposal{Node: tc.Node, Tool: name, Args: sent, Preview: preview, Authored: true}
	if render != nil {
		p.Diff, p.DiffErr = render()
	}
	ok, err := t.Asker.Ask(tc.Ctx, p)
	switch {
	case errors.Is(err, ErrNoTerminal):
		return t.fail(callErr(session.KindPermission, "", "leave the author's content as written", "%v", err)), true, nil
	case err != nil:
		return tool.Envelope{}, true, err
	case !ok:
		return t.fail(callErr(session.KindPermission, "", "leave it as the author wrote it; change only what an earlier run generated, or stop", "the user declined this change to the author's content")), true, nil
	}
	res, err := tc.Session.Dispatch(tc.Ctx, in)
	env, err = t.result(res, err, false)
	return env, true, err
}

// guard turns the protection of the author's content on or off, on a
// state that has one (session.Guarded).
func guard(sess *session.Session, on bool) {
	sess.Adjust(func(st session.State) {
		if g, ok := st.(session.Guarded); ok {
			g.SetProtect(on)
		}
	})
}

func (t *Toolset) toolNames() string {
	var names []string
	for _, tool := range t.Tools() {
		names = append(names, tool.Name)
	}
	return strings.Join(names, ", ")
}

// MaxPendingShown is the most pending items a tool result lists. Every
// result carries the list, so on a lesson with hundreds of pending spots a
// whole list in each would make a turn's results grow with their product.
const MaxPendingShown = 20

func (t *Toolset) fail(ce *tool.Error) tool.Envelope {
	env := tool.Envelope{Error: ce}
	t.setPending(&env)
	return env
}

func (t *Toolset) setPending(env *tool.Envelope) {
	env.Pending = t.Pending()
	if n := len(env.Pending); n > MaxPendingShown {
		env.Pending, env.PendingMore = env.Pending[:MaxPendingShown], n-MaxPendingShown
	}
	for i := range env.Pending {
		env.Pending[i].Tools = t.fillers(env.Pending[i].Path)
		// Named as the prompt names it (`slide "light" (3).notes`,
		// positions from 1), not by the 0-based key tools match on.
		env.Pending[i].Path = env.Pending[i].Name()
	}
}

// fillers names the setters this subagent may call that declare they
// fill path, in the order offered.
func (t *Toolset) fillers(path string) []string {
	t.Tools()
	var names []string
	for _, name := range t.setters {
		e := t.catalog.byName[name]
		if e == nil || e.spec.ReadOnly {
			continue
		}
		if slices.ContainsFunc(e.spec.Fills, func(pattern string) bool { return matchPath(pattern, path) }) {
			names = append(names, name)
		}
	}
	return names
}

func (t *Toolset) result(res session.Result, err error, dryRun bool) (tool.Envelope, error) {
	if err != nil {
		if e, ok := session.AsError(err); ok {
			return t.fail(&tool.Error{Kind: e.Kind, Path: e.Path, Message: e.Message, Hint: e.Hint}), nil
		}
		return tool.Envelope{}, err
	}
	env := tool.Envelope{OK: true, DryRun: dryRun, Result: clipOutputs(res.Outputs), Warnings: res.Warnings, WarningsElsewhere: res.WarningsElsewhere}
	if env.Warnings == nil {
		env.Warnings = []session.Warning{} // "warnings": [] says checked and clean
	}
	t.setPending(&env)
	if dryRun {
		env.Result = append(env.Result, "not committed: this run is a dry run (--approve deny)")
	}
	return env, nil
}

// clipOutputs clips long strings inside reports, such as a value echoed
// back after it was set. Plain text outputs (descriptions) are built from
// clipped values already and stay whole.
func clipOutputs(outputs []any) []any {
	for i, o := range outputs {
		if _, isText := o.(string); isText {
			continue
		}
		data, err := json.Marshal(o)
		if err != nil || len(data) <= clip.MaxValue {
			continue
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if dec.Decode(&v) == nil {
			outputs[i] = clipStrings(v)
		}
	}
	return outputs
}

func clipStrings(v any) any {
	switch x := v.(type) {
	case string:
		return clip.Text(x)
	case map[string]any:
		for k, it := range x {
			x[k] = clipStrings(it)
		}
	case []any:
		for i, it := range x {
			x[i] = clipStrings(it)
		}
	}
	return v
}
