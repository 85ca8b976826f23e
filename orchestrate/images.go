package orchestrate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// ImageMaker draws one picture from a prompt and says how many HTTP
// attempts that took: llm.Client.GenerateImage.
type ImageMaker interface {
	GenerateImage(ctx context.Context, prompt string) (data []byte, attempts int, err error)
}

// Images configures generate --images: once the subagents are done, each
// image a run described without a picture (modality.Illustrated) is drawn
// by the server's image endpoint and saved beside the lesson.
type Images struct {
	Maker ImageMaker
	// Credit is what each drawn picture is credited to.
	Credit string
}

// ImagesReport is what the image pass did.
type ImagesReport struct {
	// Made counts the pictures drawn and placed; Requests the HTTP
	// attempts spent on them (they count against --max-requests).
	Made, Requests int
	// Answered counts the pictures the server sent, placed or not (one
	// refused by the picture check was drawn, and is billed): what
	// the run's money counts (CostCap.Image each).
	Answered int
	// NoEndpoint is the first "no image endpoint" answer: after it no
	// more pictures are asked for, and it is reported once.
	NoEndpoint error
	// CostSpent, when set, is why pictures were not asked for: the next
	// one could pass --max-cost (a *CostSpentError).
	CostSpent error
	// Left counts the images not asked for: the endpoint is missing, or
	// the request budget or --max-cost is spent.
	Left int
	// Failed says, per image, why it got no picture.
	Failed []string
	// drawn lists the children given a picture.
	drawn []session.Key
}

// add adds o's counts and lists to r.
func (r *ImagesReport) add(o ImagesReport) {
	r.Made += o.Made
	r.Requests += o.Requests
	r.Answered += o.Answered
	r.Left += o.Left
	r.Failed = append(r.Failed, o.Failed...)
	r.drawn = append(r.drawn, o.drawn...)
}

// pictureGate is what every picture of a pass is asked for under: the
// request budget left, the endpoint still there, the money cap.
type pictureGate struct {
	mu         sync.Mutex
	budget     int // requests left; < 0: no cap
	noEndpoint error
	cost       *costMeter // nil without --max-cost
	costSpent  error
}

// admit reserves one request and one picture's money, or says why not.
func (g *pictureGate) admit() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.noEndpoint != nil || g.budget == 0 || g.costSpent != nil {
		return false
	}
	if g.cost != nil {
		if err := g.cost.take(g.cost.c.Image); err != nil {
			g.costSpent = err
			return false
		}
	}
	if g.budget > 0 {
		g.budget--
	}
	return true
}

// settle counts a picture's attempts against the budget (one was
// reserved) and its money: spent if the server sent it, else released.
func (g *pictureGate) settle(attempts int, answered bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.budget >= 0 {
		g.budget = max(g.budget+1-attempts, 0)
	}
	if g.cost != nil {
		g.cost.settle(g.cost.c.Image, answered)
	}
}

// illustrate runs the image pass over the hot children in scope, at most
// budget requests (< 0: no cap) and, with cost, within its cap. Pictures
// are asked for side by side, at most concurrency at once (an image
// model takes tens of seconds a picture), each given to its element as
// it comes; the report lists them in the boards' order. Each image keeps
// its placeholder unless its picture is drawn and committed.
func illustrate(ctx context.Context, tree Tree, scope Scope, im Images, budget, concurrency int, cost *costMeter) ImagesReport {
	only := ""
	if scope.Slide != "" {
		only, _ = tree.Lookup(scope.Slide)
	}
	type job struct {
		key   session.Key
		child *session.Session
		want  modality.Unpictured
	}
	var jobs []job
	for _, key := range tree.Session().Children() {
		child, hot := tree.Session().HotChild(key)
		if !hot || only != "" && key.Placement != only {
			continue
		}
		child.View(func(st session.State) {
			if il, ok := st.(modality.Illustrated); ok {
				for _, w := range il.Unpictured() {
					jobs = append(jobs, job{key, child, w})
				}
			}
		})
	}
	gate := &pictureGate{budget: budget, cost: cost}
	slots := make(chan struct{}, max(concurrency, 1))
	reps := make([]ImagesReport, len(jobs))
	var wg sync.WaitGroup
	// Taken in the boards' order, so a cap or budget leaves the last ones.
	for i, j := range jobs {
		held := false
		select {
		case slots <- struct{}{}:
			held = true
		case <-ctx.Done():
		}
		if !held || ctx.Err() != nil || !gate.admit() {
			reps[i].Left++
			if held {
				<-slots
			}
			continue
		}
		wg.Go(func() {
			defer func() { <-slots }()
			rep := &reps[i]
			attempts, answered, err := drawOne(ctx, j.child, j.want, im)
			gate.settle(attempts, answered)
			rep.Requests += attempts
			if answered {
				rep.Answered++
			}
			switch {
			case err != nil && ctx.Err() != nil:
				// Interrupted: not this picture's failure.
				rep.Left++
			case errors.Is(err, llm.ErrNoImageEndpoint):
				gate.mu.Lock()
				if gate.noEndpoint == nil {
					gate.noEndpoint = err
				}
				gate.mu.Unlock()
				rep.Left++
			case err != nil:
				rep.Failed = append(rep.Failed, fmt.Sprintf("slide %q %s, image %q: %v", j.key.Placement, j.key.Kind, j.want.ID, err))
			default:
				rep.Made++
				rep.drawn = append(rep.drawn, j.key)
			}
		})
	}
	wg.Wait()
	var rep ImagesReport
	for _, r := range reps {
		rep.add(r)
	}
	rep.drawn = slices.Compact(rep.drawn)
	rep.NoEndpoint, rep.CostSpent = gate.noEndpoint, gate.costSpent
	return rep
}

// drawOne asks for one picture and gives it to its element; answered
// says whether the server sent one.
func drawOne(ctx context.Context, child *session.Session, w modality.Unpictured, im Images) (attempts int, answered bool, err error) {
	data, n, err := im.Maker.GenerateImage(ctx, w.Prompt)
	if err != nil {
		return n, false, err
	}
	var in session.Intent
	child.View(func(st session.State) { in = st.(modality.Illustrated).Illustrate(w.ID, data, w.Prompt, im.Credit) })
	_, err = child.Dispatch(ctx, in)
	return n, true, err
}

// drawImages runs the image pass within what is left of the request
// budget and of --max-cost (cost: the run's meter, nil without a cap),
// counts its requests in report, and records what it drew before the
// save, as Run records before each checkpoint.
func drawImages(ctx context.Context, tree Tree, scope Scope, opts GenerateOptions, report *Report, cost *costMeter) (ImagesReport, error) {
	budget := -1
	if opts.Budget.MaxRequests > 0 {
		budget = max(opts.Budget.MaxRequests-report.Requests, 0)
	}
	images := illustrate(ctx, tree, scope, *opts.Images, budget, opts.Concurrency, cost)
	report.Requests += images.Requests
	return images, recordDrawn(opts.Options, tree, images.drawn)
}

// recordDrawn updates the record of what runs generated for the children
// given a picture after their steps ended (Run recorded them before), so
// a later run still knows those images as generated, not the author's.
func recordDrawn(opts Options, tree Tree, drawn []session.Key) error {
	if len(drawn) == 0 || opts.StateDir == "" || opts.HistoryReadOnly {
		return nil
	}
	p, err := loadProvenance(opts.StateDir, true)
	if err != nil {
		return err
	}
	for _, k := range drawn {
		if child, ok := tree.Session().HotChild(k); ok {
			p.record(ChildNode(k.Placement, k.Kind), child)
		}
	}
	return p.close()
}
