package orchestrate

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/lessongen/lessongen/agent"
	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// BytesPerToken is the declared ratio a cost estimate counts tokens by:
// the bytes of a request's JSON body per prompt token. OpenAI's rule of
// thumb for English is about 4 characters a token; a request body adds
// JSON quoting and tool schemas, which tokenise no better. A real
// tokenizer would not be exact either: a server counts the prompt as it
// formats it (tools included), which no client sees.
const BytesPerToken = 4.0

// Spend is what requests cost in requests and tokens.
type Spend struct {
	Requests   float64 `json:"requests"`
	Prompt     int64   `json:"prompt_tokens"`
	Completion int64   `json:"completion_tokens"`
}

// Add is s and o together.
func (s Spend) Add(o Spend) Spend {
	return Spend{Requests: s.Requests + o.Requests, Prompt: s.Prompt + o.Prompt, Completion: s.Completion + o.Completion}
}

// LevelCost is the expected spend of one level's subagents.
type LevelCost struct {
	Level     string `json:"level"`
	Subagents int    `json:"subagents"`
	Spend
	// Assumed counts the subagents of slides a lesson node subagent will
	// add, estimated from the plan's other subagents at this level.
	Assumed int `json:"assumed,omitempty"`
}

// Estimate is what a run is expected to spend, per level and in total.
// Estimates add up (Add), so a course sums its lessons'.
type Estimate struct {
	Levels []LevelCost `json:"levels"`
	Total  Spend       `json:"total"`
	// MaxRequests is the most the run can send: every subagent using its
	// whole step budget (and its review turn), retries aside.
	MaxRequests int `json:"max_requests"`
	// Notes say what the estimate assumed.
	Notes []string `json:"notes,omitempty"`
}

// Add is e and o together, level by level.
func (e Estimate) Add(o Estimate) Estimate {
	out := Estimate{Total: e.Total, MaxRequests: e.MaxRequests + o.MaxRequests, Notes: slices.Concat(e.Notes, o.Notes)}
	out.Levels = slices.Clone(e.Levels)
	for _, l := range o.Levels {
		out.addLevel(l)
	}
	return out
}

func (e *Estimate) addLevel(l LevelCost) {
	e.Total = e.Total.Add(l.Spend)
	for i := range e.Levels {
		if e.Levels[i].Level == l.Level {
			e.Levels[i].Subagents += l.Subagents
			e.Levels[i].Assumed += l.Assumed
			e.Levels[i].Spend = e.Levels[i].Spend.Add(l.Spend)
			return
		}
	}
	e.Levels = append(e.Levels, l)
}

// levelClass is what the calibration tells subagents apart by: the
// lesson's levels or a slide child's, metadata or node.
type levelClass struct {
	child bool
	part  session.Level
}

// calibration is what one subagent of a class is expected to spend
// beyond its first request. The figures (calibrated, cost_calibrated.go)
// are measured on a capable model's run (testdata/recordings/fractions);
// TestCostCalibration -update rewrites them.
type calibration struct {
	// Turns is the requests a subagent sends, its review turn and the
	// turns it spends reading sources aside.
	Turns float64
	// Completion is the completion tokens of one request: its answer at
	// BytesPerToken.
	Completion int64
	// Growth is the bytes a later turn's prompt adds per earlier turn:
	// that turn's calls and their results.
	Growth int
	// FirstBytes is the body of a first request, for the slides a lesson
	// node subagent adds when the plan has no other subagent to size them by.
	FirstBytes int
}

// runCalibration is what a run spends beyond its subagents' turns.
type runCalibration struct {
	// SourceTurns is the turns the first subagent given sources spends
	// reading them (list and search, then read) before it writes; the
	// lines it read are carried to every subagent after it.
	SourceTurns float64
	// SourceGrowth is the bytes each of those turns adds to the prompt.
	SourceGrowth int
	// ReviewBytes is the review turn's message: the node as it stands
	// (describe_whiteboard) and what to do with it.
	ReviewBytes int
	// ImageBytes is the board as drawn, as a review turn sends it (a PNG
	// in a data URL, --review-images), counted at BytesPerToken as the
	// body is; a server that counts an image by its tiles counts fewer.
	ImageBytes int
}

// turns is what one subagent sends: its own turns, the turns it spends
// reading sources first, and a review turn (with an image) at the end.
type turns struct {
	sources float64
	review  bool
	image   bool
}

// spend is what a subagent of class c whose first request is bytes long
// is expected to send. Each later turn's prompt is the first one plus
// what the earlier turns added (their calls and results); the review
// turn adds the node as it stands, and the board as drawn.
func (c calibration) spend(bytes int, t turns) Spend {
	first, s, n := float64(bytes), t.sources, c.Turns
	sg, g := float64(calibratedRun.SourceGrowth), float64(c.Growth)
	// Reading: s turns, each adding what it read; then n writing turns.
	prompt := s*first + sg*s*(s-1)/2 + n*(first+s*sg) + g*n*(n-1)/2
	requests := s + n
	if t.review {
		review := first + s*sg + n*g + float64(calibratedRun.ReviewBytes)
		if t.image {
			review += float64(calibratedRun.ImageBytes)
		}
		prompt += review
		requests++
	}
	return Spend{Requests: requests, Prompt: int64(math.Ceil(prompt / BytesPerToken)), Completion: int64(requests * float64(c.Completion))}
}

// Sizer is the size in bytes of the body a request would be sent as
// (llm.Client.RequestBytes).
type Sizer func(llm.Request) (int, error)

// EstimateCost estimates what generating scope would spend: each
// subagent's first request is built as the run would build it
// (templates, describe chain, tools, source lines carried) and sized by
// size; its turns, what each turn adds and its completion come from the
// calibration, with the turns spent reading sources (opts.Sources), the
// review turn (opts.Review) and the board as drawn (opts.Shoot, never
// called here). Nothing is sent. Conversations saved by an earlier run
// are not counted.
func EstimateCost(tree Tree, scope Scope, opts Options, size Sizer) (Estimate, error) {
	reg := opts.Bridge.Registry()
	e := &estimator{planner: &planner{root: reg.Root()}, opts: &opts, size: size, sized: map[string][]int{}}
	w := &walker{tree: tree, reg: reg, v: e}
	if err := w.walk(context.Background(), scope); err != nil {
		return Estimate{}, err
	}
	if err := firstErr(e.planner.err, e.err); err != nil {
		return Estimate{}, err
	}
	for _, hint := range e.deferred {
		e.newSlides(reg, hint)
	}
	return e.est, nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// estimator is the walk's visitor for EstimateCost: a planner that sizes
// each step's first request.
type estimator struct {
	*planner
	opts  *Options
	size  Sizer
	est   Estimate
	sized map[string][]int // first-request sizes seen, by level and by class
	// read is set once a subagent has read the sources; carry is what
	// the ones after it are shown of them.
	read  bool
	carry string
	err   error
}

func (e *estimator) step(ctx context.Context, st Step, bl modality.Level, d *modality.Descriptor, sess *session.Session, focus string) bool {
	e.planner.step(ctx, st, bl, d, sess, focus)
	if e.err != nil {
		return true
	}
	bytes, err := e.firstRequest(st, bl, d, sess, focus)
	if err != nil {
		e.err = fmt.Errorf("%s: %w", st.Node, err)
		return true
	}
	class := levelClass{child: d != e.root, part: st.Level}
	e.sized[bl.Name] = append(e.sized[bl.Name], bytes)
	e.sized[classKey(class)] = append(e.sized[classKey(class)], bytes)
	t := e.turns(d, st.Level)
	if e.opts.Sources != nil && !e.read {
		// The first subagent reads the sources (list and search, then
		// read); what it read is carried to every subagent after it.
		t.sources, e.read, e.carry = calibratedRun.SourceTurns, true, carriedSources(e.opts.Sources)
	}
	e.add(bl.Name, class, bytes, t, 0)
	return true
}

func classKey(c levelClass) string { return fmt.Sprintf("%v %s", c.child, c.part) }

// carriedSources is what a subagent is shown of the sources once an
// earlier one has read them: the listed files read from their start, in
// the order carried keeps them, until it has all a prompt carries.
func carriedSources(sb *sources.Sandbox) string {
	var log readLog
	files := sb.List().Files
	slices.SortFunc(files, func(a, b sources.File) int { return strings.Compare(a.Path, b.Path) })
	lines := 0
	for _, f := range files {
		if lines >= maxCarriedLines {
			break
		}
		if text, e := sb.Read(f.Path, 0, 0); e == nil {
			log.add(f.Path, text)
			lines += strings.Count(text, "\n")
		}
	}
	return carried(&log)
}

// firstRequest is the size of the request the step's subagent would
// start with.
func (e *estimator) firstRequest(st Step, bl modality.Level, d *modality.Descriptor, sess *session.Session, focus string) (int, error) {
	tools, err := toolsFor(e.opts, bl, st.Node, sess, focus)
	if err != nil {
		return 0, err
	}
	if d == e.root {
		// A run offers describe_slide here; its text is not needed.
		tools.Slide = func(string) (string, error) { return "", nil }
	}
	prompt, nodePart, turn, err := taskPrompt(e.opts, st, bl, sess, focus, e.carry, tools)
	if err != nil {
		return 0, err
	}
	task := agent.Task{Prompt: prompt, NodePart: nodePart}
	if len(tools.Pending()) == 0 {
		task.Continue = turn
	}
	return e.size(agent.FirstRequest(tools, task))
}

// turns is the review turn a level's subagent gets (--review), with the
// board as drawn (--review-images).
func (e *estimator) turns(d *modality.Descriptor, part session.Level) turns {
	if e.opts.Review && d.Review != nil && part == session.LevelNode {
		return turns{review: true, image: e.opts.Shoot != nil && d.Render != nil}
	}
	return turns{}
}

func (e *estimator) add(level string, class levelClass, bytes int, t turns, assumed int) {
	lc := LevelCost{Level: level, Subagents: 1, Spend: calibrated[class].spend(bytes, t)}
	if assumed > 0 {
		lc.Subagents, lc.Assumed = assumed, assumed
		lc.Spend = Spend{Requests: lc.Requests * float64(assumed), Prompt: lc.Prompt * int64(assumed), Completion: lc.Completion * int64(assumed)}
	}
	e.est.addLevel(lc)
	review := 0
	if t.review {
		review = 1
	}
	e.est.MaxRequests += lc.Subagents * (max(e.opts.MaxSteps, 1) + review)
}

// newSlides adds the subagents of the slides a lesson node subagent adds
// for one placeholder: as many slides as its hint counts
// (session.HintCount, as generation reads it), each with the child kinds
// add_slide is told to give it (slideKinds), their metadata and node
// levels sized as the plan's other subagents of those levels (or of
// their class, or the calibration's).
func (e *estimator) newSlides(reg *modality.Registry, hint string) {
	kinds := slideKinds(hint, reg.Children())
	if len(kinds) == 0 {
		return
	}
	n := session.HintCount(hint)
	names := make([]string, len(kinds))
	for i, d := range kinds {
		names[i] = d.Name
	}
	e.est.Notes = append(e.est.Notes, fmt.Sprintf("%q: %s, each with a %s (a quiz or an activity when the hint names one)", hint, plural(n, "slide"), strings.Join(names, " and ")))
	for _, d := range kinds {
		for _, lv := range d.Levels() {
			class := levelClass{child: true, part: lv.Part}
			bytes := calibrated[class].FirstBytes
			if sizes := e.sized[lv.Name]; len(sizes) > 0 {
				bytes = mean(sizes)
			} else if sizes := e.sized[classKey(class)]; len(sizes) > 0 {
				bytes = mean(sizes)
			}
			e.add(lv.Name, class, bytes, e.turns(d, lv.Part), n)
		}
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// slideKinds is the child kinds a new slide for hint is counted with:
// every kind add_slide must give a brief for (the whiteboard), and an
// optional one (quiz, activity) only when the hint names it
// (session.HintNames), as the lesson node's prompt and add_slide's
// description tell the model.
func slideKinds(hint string, kids []*modality.Descriptor) []*modality.Descriptor {
	var out []*modality.Descriptor
	for _, d := range kids {
		if d.Brief != "" && (d.BriefRequired || session.HintNames(hint, d.Name)) {
			out = append(out, d)
		}
	}
	return out
}

func mean(xs []int) int {
	sum := 0
	for _, x := range xs {
		sum += x
	}
	return sum / len(xs)
}
