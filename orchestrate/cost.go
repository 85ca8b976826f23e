package orchestrate

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/lessongen/lessongen/agent"
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
// are measured on the bundled example's recording; TestCostCalibration
// -update rewrites them.
type calibration struct {
	// Turns is the requests a subagent sends.
	Turns float64
	// Completion is the completion tokens of one request.
	Completion int64
	// FirstBytes is the body of a first request, for the slides a lesson
	// node subagent adds when the plan has no other subagent to size them by.
	FirstBytes int
}

// spend is what a subagent of class c whose first request is bytes long
// is expected to send. Each later turn's prompt is the first one plus,
// per earlier turn, its completion twice (the calls, and their results of
// about the same size).
func (c calibration) spend(bytes int, extraTurns float64) Spend {
	first := int64(math.Ceil(float64(bytes) / BytesPerToken))
	turns := c.Turns + extraTurns
	growth := turns * (turns - 1) / 2 * float64(2*c.Completion)
	return Spend{Requests: turns, Prompt: int64(turns*float64(first) + growth), Completion: int64(turns * float64(c.Completion))}
}

// Sizer is the size in bytes of the body a request would be sent as
// (llm.Client.RequestBytes).
type Sizer func(llm.Request) (int, error)

// EstimateCost estimates what generating scope would spend: each
// subagent's first request is built as the run would build it
// (templates, describe chain, tools) and sized by size; the turns and
// completion per subagent come from the calibration. Nothing is sent.
// Conversations saved by an earlier run, and sources a subagent reads,
// are not counted.
func EstimateCost(tree Tree, scope Scope, opts Options, size Sizer) (Estimate, error) {
	reg := opts.Bridge.Registry()
	e := &estimator{planner: &planner{root: reg.Root()}, opts: &opts, size: size, sized: map[levelClass][]int{}}
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
	sized map[levelClass][]int // first-request sizes seen, by class
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
	e.sized[class] = append(e.sized[class], bytes)
	e.add(bl.Name, class, bytes, e.reviews(d, st.Level), 0)
	return true
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
	prompt, nodePart, turn, err := taskPrompt(e.opts, st, bl, sess, focus, "", tools)
	if err != nil {
		return 0, err
	}
	task := agent.Task{Prompt: prompt, NodePart: nodePart}
	if len(tools.Pending()) == 0 {
		task.Continue = turn
	}
	return e.size(agent.FirstRequest(tools, task))
}

// reviews is the review turn a level's subagent gets (--review).
func (e *estimator) reviews(d *modality.Descriptor, part session.Level) float64 {
	if e.opts.Review && d.Review != nil && part == session.LevelNode {
		return 1
	}
	return 0
}

func (e *estimator) add(level string, class levelClass, bytes int, extraTurns float64, assumed int) {
	lc := LevelCost{Level: level, Subagents: 1, Spend: calibrated[class].spend(bytes, extraTurns)}
	if assumed > 0 {
		lc.Subagents, lc.Assumed = assumed, assumed
		lc.Spend = Spend{Requests: lc.Requests * float64(assumed), Prompt: lc.Prompt * int64(assumed), Completion: lc.Completion * int64(assumed)}
	}
	e.est.addLevel(lc)
	e.est.MaxRequests += lc.Subagents * (max(e.opts.MaxSteps, 1) + int(extraTurns))
}

// newSlides adds the subagents of the slides a lesson node subagent adds
// for one placeholder: as many slides as its hint says (1 when it names
// no number), each with its first child kind's metadata and node levels,
// sized as the plan's other subagents of those levels (or the
// calibration's, when it has none).
func (e *estimator) newSlides(reg *modality.Registry, hint string) {
	kids := reg.Children()
	if len(kids) == 0 {
		return
	}
	n, said := countInHint(hint)
	if !said {
		e.est.Notes = append(e.est.Notes, fmt.Sprintf("%q names no number of slides: 1 assumed", hint))
	}
	d := kids[0]
	for _, lv := range d.Levels() {
		class := levelClass{child: true, part: lv.Part}
		bytes := calibrated[class].FirstBytes
		if sizes := e.sized[class]; len(sizes) > 0 {
			bytes = mean(sizes)
		}
		e.add(lv.Name, class, bytes, e.reviews(d, lv.Part), n)
	}
}

func mean(xs []int) int {
	sum := 0
	for _, x := range xs {
		sum += x
	}
	return sum / len(xs)
}

var numberWords = strings.Fields("one two three four five six seven eight nine ten eleven twelve")

// countInHint reads how many items a hint asks for: its first numeral or
// English number word ("two practice slides"); 1, false when none.
func countInHint(hint string) (int, bool) {
	words := strings.FieldsFunc(strings.ToLower(hint), func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < '0' || r > '9')
	})
	for _, w := range words {
		if n, err := strconv.Atoi(w); err == nil && n > 0 && n < 1000 {
			return n, true
		}
		if i := slices.Index(numberWords, w); i >= 0 {
			return i + 1, true
		}
	}
	return 1, false
}
