package orchestrate

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lessongen/lessongen/agent"
	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/internal/history"
	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/templates"
	"github.com/lessongen/lessongen/tool"
)

// Options configure a run.
type Options struct {
	// Budget caps the whole run's requests and tokens; zero is no cap.
	Budget Budget
	// Shared, when set, is the budget and the bound on requests in
	// flight that this run shares with others (a course's lessons); it
	// replaces Budget.
	Shared *Shared
	// cost is the meter of Budget.Cost when the caller spends it after
	// Run too (Generate's pictures); nil: Run makes its own.
	cost *costMeter
	// Bridge holds the registered modalities' tools.
	Bridge *bridge.Bridge
	Model  llm.Model
	// RequestBytes, when set, is the size of a request's body as Model
	// sends it (llm.Client.RequestBytes), so the request cap
	// (agent.MaxRequestBytes) holds on the wire.
	RequestBytes func(llm.Request) (int, error)
	Templates    *templates.Set
	Form         bridge.Form
	Approval     bridge.Approval
	Asker        bridge.Asker
	MaxSteps     int
	// Concurrency is how many subagents may run at once. A slide's chain
	// of subagents (its children in registry order, each metadata then
	// node) holds one slot from its first to its last, and the longest
	// chains start first.
	Concurrency int
	Instruction string
	Events      event.Sink
	// Secrets, when set, makes every subagent refuse tool calls that would
	// write a secret (the API key, …) into the document.
	Secrets bridge.Secrets
	// Sources, when set, lets every subagent read the author's sources.
	Sources *sources.Sandbox
	// Author, when set, answers ask_author (an interactive run).
	Author tool.Author
	// Diff, when set, shows each change awaiting approval as a diff of
	// its file (bridge.FileDiff).
	Diff bridge.FileDiff
	// Checkpoint saves what is committed so far and returns the files it
	// wrote: everything, or with lesson false only the children kept in
	// their own files. It runs after each node finishes, coalesced: while
	// one save runs, further requests fold into one more save. Nil
	// disables it.
	Checkpoint func(lesson bool) ([]string, error)
	// CheckpointInterval bounds how often a checkpoint rewrites the lesson
	// file, which holds every slide: a node's children files are saved
	// when it finishes, the lesson at most once per interval after that,
	// and always before Run returns. 0 saves everything after every node.
	// With a Journal, the lesson file's share of a checkpoint is an
	// append to the journal instead, and the lesson file is rewritten
	// only when the lesson's own fields changed or someone edited it.
	CheckpointInterval time.Duration
	// Journal, when set, keeps the children finished since the lesson
	// file was last written (see JournalFile), so a checkpoint costs what
	// finished, not the whole lesson.
	Journal *Journal
	// StateDir, when set, is where each subagent's conversation is saved
	// (internal/history) and continued from by a later run.
	StateDir string
	// Redact, when set, is applied to everything saved in StateDir.
	Redact func(string) string
	// HistoryReadOnly continues saved conversations but saves nothing: a
	// replay, whose requests must not depend on what an earlier replay
	// left in StateDir. The same goes for the record of what runs
	// generated (ProvenanceFile).
	HistoryReadOnly bool
	// Review gives the node level of each kind that declares a review
	// (modality.Descriptor.Review: the whiteboard, the quiz, the
	// activity) a look at the node once its work is done, and again
	// after each change it makes then, up to agent.MaxLooks (--review).
	Review bool
	// Shoot, when set with Review, draws a node's rendered body (its
	// kind's modality.Descriptor.Render) as a PNG, drawn afresh for each
	// look (--review-images: render.Shooter.Shot).
	Shoot func(ctx context.Context, body string) ([]byte, error)
	// Rewrite lets a subagent given an Instruction change what the author
	// wrote, each change approved by Asker (fill --rewrite).
	Rewrite bool
}

// NodeResult is how one subagent step ended.
type NodeResult struct {
	Node string `json:"node"`
	// Level is the subagent level, e.g. "whiteboard.node".
	Level   string            `json:"level"`
	Status  string            `json:"status"`
	Error   string            `json:"error,omitempty"`
	Pending []session.Pending `json:"pending,omitempty"`
	// Defects are those the subagent introduced and left (the first
	// session.MaxWarnings; DefectCount counts them all).
	Defects     []session.Warning `json:"defects,omitempty"`
	DefectCount int               `json:"defect_count,omitempty"`
	Steps       int               `json:"steps"`
	// PromptBytes is the message text sent over the step's turns.
	PromptBytes int `json:"prompt_bytes"`
	// NotStarted marks a step with work pending that never ran (the run
	// stopped first, or the node's level before it did not finish); its
	// Status is pending.
	NotStarted bool `json:"not_started,omitempty"`
	// Refusals are the step's refused calls (the first
	// agent.MaxRefusalsKept), kept for a refinement that changed nothing.
	Refusals []agent.Refusal `json:"refusals,omitempty"`
	// refined marks a refinement's step, changed one that changed its node.
	refined, changed bool
	notes            int
}

// Report sums up a run.
type Report struct {
	Nodes    []NodeResult
	Requests int
	Tokens   event.Tokens
	// Notes are what subagents told the author (note_for_author), in
	// the order left.
	Notes []tool.Note
	// Continued counts the subagents that continued a conversation saved
	// by an earlier run (the state dir) instead of starting afresh.
	Continued int
}

// Incomplete lists the steps that ended with work still pending.
func (r Report) Incomplete() []NodeResult {
	var out []NodeResult
	for _, n := range r.Nodes {
		if n.Status != event.StatusDone {
			out = append(out, n)
		}
	}
	return out
}

// runner holds one run's shared state; it is the walk's visitor that runs
// subagents.
type runner struct {
	tree Tree
	opts Options
	emit event.Sink
	// queue holds the slides' chains until wait runs them.
	queue []chain

	// requests is what subagents' requests run under: cancelled for what
	// stops the run at once (cancel). The walk runs under a context
	// derived from it that a spent budget also ends, so no step starts
	// while the requests in flight finish and their tool calls commit.
	requests context.Context
	cancel   context.CancelCauseFunc
	// noImages is set once the server refused a review image: later
	// reviews send text alone instead of failing the same way.
	noImages atomic.Bool
	ckpt     *checkpointer
	health   *health
	// reads are the source lines read so far, carried to later subagents.
	reads reads
	// prov is the record of what runs generated: adopted by each node
	// before its first step, updated after each.
	prov *provenance
	// hist holds the lesson's saved conversations (nil without a state
	// folder).
	hist *history.Log
	// lessonAt is the lesson session's version at the last rewrite of
	// the lesson file (or as loaded): a journal holds children only.
	lessonAt uint64

	mu     sync.Mutex
	report Report
}

// Run fills everything pending in scope: lesson metadata, then the lesson's
// slides, then every slide's children concurrently (at most
// opts.Concurrency subagents in flight across the run; see wait). A step
// that ends with work still pending is reported and its siblings carry
// on, and so does a step the model provider failed (a timeout, retries
// used up), unless the failure is one every node would meet or several
// nodes failed in a row (see ProviderDownError). Run returns an error for what stops the
// whole run: cancellation, a spent budget, a provider that is down for
// all, an internal fault, or a checkpoint that cannot be written. Whatever
// was committed stays in tree for the caller to save, and the report
// holds every step with work pending, the ones not started included.
func Run(ctx context.Context, tree Tree, scope Scope, opts Options) (Report, error) {
	if opts.Bridge == nil {
		return Report{}, errors.New("orchestrate: no bridge")
	}
	if opts.Concurrency < 1 {
		opts.Concurrency = 1
	}
	if opts.MaxSteps < 1 {
		opts.MaxSteps = 1
	}
	if opts.Events == nil {
		opts.Events = event.Discard
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	starting, stopStarting := context.WithCancelCause(ctx)
	defer stopStarting(nil)
	h := &health{}
	opts.Model = watchedModel{Model: opts.Model, h: h}
	if opts.Budget.Cost != nil && opts.Shared == nil {
		// A course's runs spend the one cap in Shared instead.
		m := opts.cost
		if m == nil {
			m = &costMeter{c: opts.Budget.Cost}
		}
		m.watch(stopStarting)
		opts.Model = &costModel{Model: opts.Model, costMeter: m}
	}
	switch {
	case opts.Shared != nil:
		opts.Model = opts.Shared.wrap(opts.Model, stopStarting)
	case opts.Budget != (Budget{}):
		opts.Model = &budgetModel{Model: opts.Model, meter: newMeter(opts.Budget, stopStarting)}
	}
	prov, err := loadProvenance(opts.StateDir, !opts.HistoryReadOnly)
	if err != nil {
		return Report{}, err
	}
	defer prov.close() // a run that stops early included
	hist, err := openLog(opts)
	if err != nil {
		return Report{}, err
	}
	if hist != nil {
		defer hist.Close()
	}
	r := &runner{tree: tree, opts: opts, emit: opts.Events, requests: ctx, cancel: cancel, health: h, prov: prov, hist: hist}
	if opts.Checkpoint != nil {
		// The conversations and the record of what was generated go
		// first: a saved file never holds generated content its record
		// does not name, nor a node whose conversation a crash lost.
		// Both are written before every save, and made durable with the
		// lesson (once per interval): a kill loses none of what a saved
		// file holds, and a machine crash loses at most what the lesson
		// loses, with one fsync per file per interval.
		save := func(lesson bool) ([]string, error) {
			if hist != nil && lesson {
				if err := hist.Sync(); err != nil {
					return nil, err
				}
			}
			if err := prov.flush(lesson); err != nil {
				return nil, err
			}
			if lesson {
				return r.saveLesson()
			}
			return opts.Checkpoint(false)
		}
		r.lessonAt = tree.Session().Version()
		r.ckpt = newCheckpointer(save, opts.CheckpointInterval, opts.Events, func(err error) { cancel(err) })
		defer r.ckpt.close()
	}
	w := &walker{tree: tree, reg: opts.Bridge.Registry(), v: r}
	if err := w.walk(starting, scope); err != nil {
		return Report{}, err
	}
	if r.ckpt != nil {
		r.ckpt.close()
	}
	// What the last nodes said and generated, for the caller's final save.
	if hist != nil {
		if err := hist.Close(); err != nil {
			return r.report, err
		}
	}
	if err := prov.close(); err != nil {
		return r.report, err
	}
	if cause := context.Cause(starting); cause != nil {
		return r.report, cause
	}
	r.report.unfinishedInstruction(opts.Instruction)
	return r.report, nil
}

// unfinishedInstruction holds a refinement to its instruction: when no
// step of it changed anything (every write refused, or only notes and
// reads), its steps did not do what was asked, and are unfinished with
// the reasons, not done. One step that changed something carries it out:
// the others had nothing to do.
func (r *Report) unfinishedInstruction(instruction string) {
	if instruction == "" {
		return
	}
	var steps []int
	for i, n := range r.Nodes {
		switch {
		case !n.refined:
		case n.changed || n.Status != event.StatusDone:
			return
		default:
			steps = append(steps, i)
		}
	}
	for _, i := range steps {
		n := &r.Nodes[i]
		n.Status = event.StatusUnfinished
		n.Error = unchangedReason(*n)
	}
}

// unchangedReason says, in the person's words, why a refinement step
// changed nothing: the refusals it met, else what the model did instead.
func unchangedReason(n NodeResult) string {
	var why string
	switch {
	case len(n.Refusals) > 0:
		parts := make([]string, len(n.Refusals))
		for i, f := range n.Refusals {
			parts[i] = f.Tool + ": " + f.Message
		}
		why = "every change was refused (" + strings.Join(parts, "; ") + ")"
	case n.notes > 0:
		why = "the model only left notes for you (below)"
	default:
		why = "the model made no change"
	}
	return "the instruction changed nothing: " + why
}

// saveLesson is a checkpoint's save of the lesson file: an append of the
// children finished since to the journal when there is one, else a
// rewrite; a rewrite too when the lesson's own fields
// changed (the lesson's levels, before any slide's) or the author edited
// the file, so the edit is merged as the run goes on.
func (r *runner) saveLesson() ([]string, error) {
	j := r.opts.Journal
	version := r.tree.Session().Version()
	if j != nil && version == r.lessonAt && j.on() && !j.lesson.Edited() {
		return nil, j.flush()
	}
	if j != nil {
		// Taken first: what finishes during the rewrite is appended after.
		j.drain()
	}
	files, err := r.opts.Checkpoint(true)
	if err != nil || j == nil {
		return files, err
	}
	r.lessonAt = version
	return files, j.restart()
}

// journaled notes a finished child that lives in the lesson file itself
// for the journal, and asks for a checkpoint.
func (r *runner) journaled(st Step, d *modality.Descriptor, sess *session.Session) {
	in, ok := r.tree.(interface{ Inline(id, kind string) bool })
	if r.opts.Journal == nil || st.Slide == "" || d == r.opts.Bridge.Registry().Root() || !ok || !in.Inline(st.Slide, d.Name) {
		return
	}
	r.opts.Journal.add(st.Slide, d, sess)
	r.checkpoint()
}

func (r *runner) checkpoint() {
	if r.ckpt != nil {
		r.ckpt.request()
	}
}

// rootDone gives the slides the lesson's node subagent added their slots,
// and saves.
func (r *runner) rootDone() {
	r.tree.Session().ReconcileChildren()
	r.checkpoint()
}

// slideDone tells the author when a quiz's answers are on its slide's
// board: the task would be given away.
func (r *runner) slideDone(id string, kids []*session.Session) {
	for _, n := range answersShown(kids) {
		r.note(n)
	}
}

// chain is one slide's children's steps, run one after the other.
type chain struct {
	length int // levels with work pending when queued
	run    func()
}

func (r *runner) chain(length func() int, fn func()) {
	r.queue = append(r.queue, chain{length(), fn})
}

// wait runs the queued chains on opts.Concurrency slots, longest first
// (ties in document order, so a run is repeatable). A chain keeps its slot
// from its first step to its last: a slide's next subagent starts as soon
// as the one before it ends, never queued behind other slides' first
// ones, and the longest chains, which bound the run, are not left to the
// end. Each finished chain is saved.
func (r *runner) wait() {
	queue := r.queue
	r.queue = nil
	slices.SortStableFunc(queue, func(a, b chain) int { return cmp.Compare(b.length, a.length) })
	next := make(chan chain, len(queue))
	for _, c := range queue {
		next <- c
	}
	close(next)
	var wg sync.WaitGroup
	for range min(r.opts.Concurrency, len(queue)) {
		wg.Go(func() {
			for c := range next {
				c.run()
				// A chain with nothing pending ran no step (a slide's
				// bindings are never saved): nothing to save, and on a
				// large lesson most chains are such.
				if c.length > 0 {
					r.checkpoint()
				}
			}
		})
	}
	wg.Wait()
}

// skip reports a step that was not started as still pending. It sends no
// event: nothing ran.
func (r *runner) skip(st Step, lv modality.Level, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.report.Nodes = append(r.report.Nodes, NodeResult{Node: st.Node, Level: lv.Name, Status: event.StatusPending,
		Error: "not started: " + why, Pending: st.Pending, NotStarted: true})
}

// bind fills the child's properties bound by the slide's props before any
// subagent runs: the child sees plain values.
func (r *runner) bind(ctx context.Context, node string, d *modality.Descriptor, sess *session.Session, values map[string]string, err error) {
	if r.opts.Approval == bridge.ApproveDeny {
		return // a dry run changes nothing, bindings included
	}
	if err != nil {
		// Only a binding to a value that is still pending can fail here
		// (the rest is checked at load): the model fills the property.
		r.emit(event.Event{Kind: event.ModelText, Node: node, Text: "binding not applied: " + err.Error()})
	}
	for _, name := range slices.Sorted(maps.Keys(values)) {
		_, _ = sess.Dispatch(ctx, d.Bind(name, values[name]))
	}
}

// step runs one subagent. A node step that ends with nothing pending
// closes the placeholders it filled (a focused step fills none). It reports
// false when the node failed or the run stopped, so the node's next level
// is not tried.
func (r *runner) step(ctx context.Context, st Step, bl modality.Level, d *modality.Descriptor, sess *session.Session, focus string) bool {
	node, level := st.Node, st.Level
	// What an earlier run generated, and nobody changed since, is this
	// run's to change; the rest stays the author's.
	r.prov.adopt(node, sess)
	tools, err := toolsFor(&r.opts, bl, node, sess, focus)
	if err != nil {
		r.fail(node, bl.Name, err)
		return false
	}
	var notes atomic.Int32 // notes run in parallel, as reads do
	tools.Notes = func(n tool.Note) {
		notes.Add(1)
		r.note(n)
	}
	// What was read before this step in the tree (the lesson's levels;
	// for a slide's child, the children before it on the slide) is
	// carried; what this step reads joins its scope's log.
	var carry string
	if d == r.opts.Bridge.Registry().Root() {
		tools.Slide = r.describeSlide
		carry = carried(&r.reads.root)
		tools.Read = r.reads.root.add
	} else {
		slide := r.reads.slide(st.Slide)
		carry = carried(&r.reads.root, slide)
		tools.Read = slide.add
	}
	tools.Author = askedAuthor{author: r.opts.Author, emit: r.emit, node: node, level: bl.Name}
	pending := tools.Pending()
	if len(pending) == 0 && (r.opts.Instruction == "" || len(st.Pending) > 0) {
		return true
	}
	prompt, nodePart, turn, err := taskPrompt(&r.opts, st, bl, sess, focus, carry, tools)
	if err != nil {
		r.fail(node, bl.Name, err)
		return false
	}

	r.emit(event.Event{Kind: event.NodeStart, Node: node, Level: bl.Name})
	task := agent.Task{Node: node, Level: bl.Name, Prompt: prompt, NodePart: nodePart, MaxSteps: r.opts.MaxSteps, Refinement: tools.Refine, RequestBytes: r.opts.RequestBytes}
	var before string
	if tools.Refine {
		before = contentHash(d, sess, level)
	}
	if r.opts.Review && d.Review != nil && level == session.LevelNode {
		task.Review = func(ctx context.Context) string { return reviewText(ctx, sess, d.Review) }
		if r.opts.Shoot != nil && d.Render != nil {
			task.ReviewImage = func(ctx context.Context) []byte { return r.reviewImage(ctx, node, bl.Name, sess, d) }
			task.ImagesRefused = func() { r.noImages.Store(true) }
		}
	}
	if len(pending) == 0 {
		// A refinement with nothing pending: the instruction, not "fill
		// every pending item", starts it (and continues a saved one).
		task.Continue = turn
	}
	if b, ok := r.opts.Model.(interface{ left() *tool.BudgetLeft }); ok {
		task.BudgetLeft = b.left
	}
	var hist *history.Writer
	if r.hist != nil && r.opts.HistoryReadOnly {
		if err := r.continueHistory(&task, d, sess, level, turn); err != nil {
			r.fail(node, bl.Name, err)
			r.cancel(err)
			return false
		}
	} else if r.hist != nil {
		hist, err = r.openHistory(&task, d, sess, level, turn)
		if err != nil {
			r.fail(node, bl.Name, err)
			r.cancel(err)
			return false
		}
		task.Append = hist.Append
	}
	// Under the requests' context: a spent budget lets this subagent's
	// request in flight finish and its tool calls commit; the budget
	// refuses its next request.
	res, err := agent.Run(r.requests, r.opts.Model, tools, task, r.emit)

	nr := NodeResult{Node: node, Level: bl.Name, Steps: res.Steps, Pending: res.Pending, Defects: res.Defects[:min(len(res.Defects), session.MaxWarnings)], DefectCount: len(res.Defects), PromptBytes: res.PromptBytes}
	var tooLarge *agent.RequestTooLargeError
	var spent *BudgetSpentError
	switch {
	case err != nil && r.requests.Err() != nil:
		nr.Status, nr.Error = event.StatusInterrupted, context.Cause(r.requests).Error()
	case errors.As(err, &spent):
		// Stopped at a safe point: everything before it is committed.
		nr.Status, nr.Error = event.StatusInterrupted, err.Error()
	case errors.As(err, &tooLarge):
		// This node's conversation ran away; its siblings carry on.
		nr.Status, nr.Error = event.StatusFailed, err.Error()
	case err != nil && res.Stop == agent.StopFailed:
		// The model provider failed this node. Its siblings carry on
		// unless the provider is down for all.
		nr.Status, nr.Error = event.StatusFailed, err.Error()
		if stop := r.health.failed(err); stop != nil {
			r.cancel(stop)
		} else {
			nr.Error += "; the other nodes carry on"
		}
	case err != nil:
		// An internal fault: nothing says the next node would fare better.
		nr.Status, nr.Error = event.StatusFailed, err.Error()
		r.cancel(err)
	case len(res.Pending) == 0:
		nr.Status = event.StatusDone
		if len(res.Defects) > 0 {
			// Filled, but not clean: not "done".
			nr.Status = event.StatusDefects
			nr.Error = defectsError(res.Defects, res.Repaired)
		}
		if level == session.LevelNode && focus == "" {
			_, _ = sess.Dispatch(context.WithoutCancel(ctx), d.Close)
		}
	default:
		nr.Status = event.StatusPending
		// What is left and why, as the summary names it: "2 spots
		// pending: the model stopped after 6 steps, …".
		left := fmt.Sprintf("%d spots pending: ", len(res.Pending))
		if len(res.Pending) == 1 {
			left = "1 spot pending: "
		}
		switch {
		case res.Stop == agent.StopBudget:
			nr.Error = left + fmt.Sprintf("the step budget (%d) ran out", r.opts.MaxSteps)
		case res.Unparsed:
			nr.Error = left + "the model stopped: " + llm.ErrUnparsedToolCalls.Error()
		case res.Repaired:
			nr.Error = left + fmt.Sprintf("the model stopped after %d steps, also after a repair turn", res.Steps)
		default:
			nr.Error = left + fmt.Sprintf("the model stopped after %d steps and the step budget (%d) left no repair turn", res.Steps, r.opts.MaxSteps)
		}
	}
	if tools.Refine {
		nr.refined, nr.changed = true, contentHash(d, sess, level) != before
		nr.Refusals, nr.notes = res.Refusals, int(notes.Load())
	}
	r.prov.record(node, sess)
	r.journaled(st, d, sess)
	if hist != nil {
		// The node's content as this conversation left it (closed
		// placeholders included): a later run continues the conversation
		// only while the node still reads so.
		if herr := hist.SetContentHash(contentHash(d, sess, level)); herr != nil {
			nr.Status, nr.Error = event.StatusFailed, herr.Error()
			r.cancel(herr)
		}
	}
	r.mu.Lock()
	r.report.Requests += res.Requests
	r.report.Tokens = r.report.Tokens.Add(res.Tokens)
	r.mu.Unlock()
	r.record(nr)
	return err == nil
}

// toolsFor is the toolset of a step's subagent as the run's options
// make it; the runner adds its hooks (notes, reads, slides, the author).
func toolsFor(opts *Options, bl modality.Level, node string, sess *session.Session, focus string) (*bridge.Toolset, error) {
	tools, err := opts.Bridge.NewToolset(bl, node, sess, opts.Form, opts.Approval, opts.Asker)
	if err != nil {
		return nil, err
	}
	tools.Focus = focus
	tools.Secrets = opts.Secrets
	tools.Sources, tools.Diff = opts.Sources, opts.Diff
	tools.Refine = opts.Instruction != "" && focus == ""
	tools.Rewrite = opts.Rewrite && tools.Refine
	return tools, nil
}

// taskPrompt renders a step's task prompt (template, describe chain,
// what is pending) and, for a refinement, its turn: what a run sends
// first, and what a cost estimate sizes.
func taskPrompt(opts *Options, st Step, bl modality.Level, sess *session.Session, focus, carry string, tools *bridge.Toolset) (prompt, nodePart, turn string, err error) {
	pending := tools.Pending()
	items := make([]templates.Item, len(pending))
	for i, p := range pending {
		items[i] = templates.Item{Path: p.Name(), Hint: p.Hint, ID: p.ID, Generated: p.Generated}
	}
	maxNew := bl.MaxNew
	if focus != "" {
		maxNew = 0 // a focused subagent changes its item and adds nothing
	}
	canvas, free := brief(sess)
	data := templates.Data{
		Node: st.Node, Level: bl.Name, Context: st.Context, Pending: items, MaxSteps: opts.MaxSteps, Instruction: opts.Instruction,
		MaxCalls: agent.MaxCallsPerTurn, MaxNew: maxNew, NewItems: bl.NewItems, Canvas: canvas, Geometry: free, Sources: opts.Sources != nil, Carried: carry,
		Rewrite: tools.Rewrite,
	}
	if opts.Instruction != "" && focus == "" {
		locked, editable := ownership(sess, st.Level)
		data.Locked, data.Editable = capNames(locked), capNames(editable)
	}
	prompt, nodePart, err = opts.Templates.Render(bl.Name, data)
	if err == nil && opts.Instruction != "" {
		turn, err = opts.Templates.RenderTurn(bl.Name, data)
	}
	return prompt, nodePart, turn, err
}

// describeSlide is a slide whole, for describe_slide: where it sits and
// its fields, then each child it places as that child describes itself.
// The lesson's levels run before any slide's children, so what they see
// is fixed by the tree.
func (r *runner) describeSlide(ref string) (string, error) {
	id, err := r.tree.Lookup(ref)
	if err != nil {
		return "", err
	}
	parts := []string{r.tree.DescribeSlide(id)}
	for _, d := range r.opts.Bridge.Registry().Children() {
		sess, err := r.tree.Child(id, d.Name)
		if errors.Is(err, session.ErrUnknownChild) {
			continue
		}
		if err != nil {
			return "", err
		}
		var s string
		sess.View(func(st session.State) { s = st.Describe() })
		parts = append(parts, "Its "+d.Name+": "+s)
	}
	return strings.Join(parts, "\n"), nil
}

// reviewImage is the node as render draws it, as a PNG; nil, with a
// warning when drawing failed, sends the review without it.
func (r *runner) reviewImage(ctx context.Context, node, level string, sess *session.Session, d *modality.Descriptor) []byte {
	if r.noImages.Load() {
		return nil
	}
	var body string
	sess.View(func(st session.State) { body = d.Render(st, nil).Body })
	img, err := r.opts.Shoot(ctx, body)
	if err != nil {
		if ctx.Err() == nil {
			// The first line: a browser that fails to start adds its log.
			msg, _, _ := strings.Cut(err.Error(), "\n")
			r.emit(event.Event{Kind: event.Warning, Node: node, Level: level, Text: "the " + d.Name + " could not be drawn for review (" + msg + "): reviewing from the text alone"})
		}
		return nil
	}
	return img
}

// reviewText is what the review intent shows of the node: its outputs as
// text, each on its own.
func reviewText(ctx context.Context, sess *session.Session, in session.Intent) string {
	res, err := sess.Dispatch(ctx, in)
	if err != nil {
		return "(the node could not be described: " + err.Error() + ")"
	}
	var parts []string
	for _, o := range res.Outputs {
		if s, ok := o.(string); ok {
			parts = append(parts, s)
			continue
		}
		data, _ := json.Marshal(o)
		parts = append(parts, string(data))
	}
	for _, w := range res.Warnings {
		parts = append(parts, "Warning at "+w.Path+": "+w.Message)
	}
	return strings.Join(parts, "\n")
}

// maxNamesShown bounds the locked and editable values a prompt names: a
// lesson of hundreds of slides would otherwise list every one.
const maxNamesShown = 40

func capNames(names []string) []string {
	if len(names) <= maxNamesShown {
		return names
	}
	return append(names[:maxNamesShown:maxNamesShown], fmt.Sprintf("and %d more", len(names)-maxNamesShown))
}

func brief(sess *session.Session) (canvas, free string) {
	sess.View(func(st session.State) {
		if b, ok := st.(modality.Spatial); ok {
			canvas, free = b.CanvasRules(), b.FreeSpace()
		}
	})
	return canvas, free
}

// defectsError names how many defects a node was left with; the summary
// lists each.
func defectsError(ds []session.Warning, repaired bool) string {
	msg := fmt.Sprintf("the model left %d defect(s) it introduced", len(ds))
	if repaired {
		msg += ", also after a repair turn"
	}
	return msg
}

// note keeps a note for the author and logs it.
func (r *runner) note(n tool.Note) {
	r.mu.Lock()
	r.report.Notes = append(r.report.Notes, n)
	r.mu.Unlock()
	r.emit(event.Event{Kind: event.Note, Node: n.Node, Level: n.Level, Text: n.Text, About: n.About})
}

func (r *runner) fail(node, level string, err error) {
	r.record(NodeResult{Node: node, Level: level, Status: event.StatusFailed, Error: err.Error()})
}

func (r *runner) record(nr NodeResult) {
	r.mu.Lock()
	r.report.Nodes = append(r.report.Nodes, nr)
	r.mu.Unlock()
	r.emit(event.Event{Kind: event.NodeEnd, Node: nr.Node, Level: nr.Level, Status: nr.Status, Error: nr.Error, Step: nr.Steps})
}

// checkpointer saves in the background, folding requests that arrive while
// a save runs into one more save. With an interval, a request saves the
// children's own files at once and the lesson file when the interval has
// passed since the first request it has not saved; close saves what is
// still owed.
type checkpointer struct {
	reqs   chan struct{}
	done   chan struct{}
	once   sync.Once
	save   func(lesson bool) ([]string, error)
	every  time.Duration
	emit   event.Sink
	onFail func(error)
}

func newCheckpointer(save func(bool) ([]string, error), every time.Duration, emit event.Sink, onFail func(error)) *checkpointer {
	c := &checkpointer{reqs: make(chan struct{}, 1), done: make(chan struct{}), save: save, every: every, emit: emit, onFail: onFail}
	go c.loop()
	return c
}

func (c *checkpointer) loop() {
	defer close(c.done)
	var timer *time.Timer
	var due <-chan time.Time // set while the lesson file owes a save
	for {
		select {
		case _, ok := <-c.reqs:
			switch {
			case !ok:
				if due != nil {
					timer.Stop()
					c.run(true)
				}
				return
			case c.every <= 0:
				c.run(true)
			default:
				c.run(false)
				if due == nil {
					timer = time.NewTimer(c.every)
					due = timer.C
				}
			}
		case <-due:
			due = nil
			c.run(true)
		}
	}
}

func (c *checkpointer) run(lesson bool) {
	files, err := c.save(lesson)
	if err != nil {
		c.onFail(fmt.Errorf("checkpoint: %w", err))
		return
	}
	if len(files) > 0 {
		c.emit(event.Event{Kind: event.Checkpoint, Files: files})
	}
}

func (c *checkpointer) request() {
	select {
	case c.reqs <- struct{}{}:
	default: // a save is already queued; it will include this node
	}
}

// close waits for the last queued save and saves what is still owed.
func (c *checkpointer) close() {
	c.once.Do(func() { close(c.reqs) })
	<-c.done
}
