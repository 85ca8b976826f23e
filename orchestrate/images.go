package orchestrate

import (
	"context"
	"errors"
	"fmt"
	"slices"

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
	// NoEndpoint is the first "no image endpoint" answer: after it no
	// more pictures are asked for, and it is reported once.
	NoEndpoint error
	// Left counts the images not asked for: the endpoint is missing or
	// the request budget is spent.
	Left int
	// Failed says, per image, why it got no picture.
	Failed []string
	// drawn lists the children given a picture.
	drawn []session.Key
}

// illustrate runs the image pass over the hot children in scope, at most
// budget requests (< 0: no cap). Each image keeps its placeholder unless
// its picture is drawn and committed.
func illustrate(ctx context.Context, tree Tree, scope Scope, im Images, budget int) ImagesReport {
	var rep ImagesReport
	only := ""
	if scope.Slide != "" {
		only, _ = tree.Lookup(scope.Slide)
	}
	for _, key := range tree.Session().Children() {
		child, hot := tree.Session().HotChild(key)
		if !hot || only != "" && key.Placement != only {
			continue
		}
		var wants []modality.Unpictured
		child.View(func(st session.State) {
			if il, ok := st.(modality.Illustrated); ok {
				wants = il.Unpictured()
			}
		})
		for _, w := range wants {
			if rep.NoEndpoint != nil || budget == 0 || ctx.Err() != nil {
				rep.Left++
				continue
			}
			n, err := drawOne(ctx, child, w, im)
			rep.Requests += n
			if budget > 0 {
				budget = max(budget-n, 0)
			}
			switch {
			case errors.Is(err, llm.ErrNoImageEndpoint):
				rep.NoEndpoint = err
				rep.Left++
			case err != nil:
				rep.Failed = append(rep.Failed, fmt.Sprintf("slide %q %s, image %q: %v", key.Placement, key.Kind, w.ID, err))
			default:
				rep.Made++
				if !slices.Contains(rep.drawn, key) {
					rep.drawn = append(rep.drawn, key)
				}
			}
		}
	}
	return rep
}

// drawOne asks for one picture and gives it to its element.
func drawOne(ctx context.Context, child *session.Session, w modality.Unpictured, im Images) (int, error) {
	data, n, err := im.Maker.GenerateImage(ctx, w.Prompt)
	if err != nil {
		return n, err
	}
	var in session.Intent
	child.View(func(st session.State) { in = st.(modality.Illustrated).Illustrate(w.ID, data, w.Prompt, im.Credit) })
	_, err = child.Dispatch(ctx, in)
	return n, err
}

// drawImages runs the image pass within what is left of the request
// budget, counts its requests in report, and records what it drew before
// the save, as Run records before each checkpoint.
func drawImages(ctx context.Context, tree Tree, scope Scope, opts GenerateOptions, report *Report) (ImagesReport, error) {
	budget := -1
	if opts.Budget.MaxRequests > 0 {
		budget = max(opts.Budget.MaxRequests-report.Requests, 0)
	}
	images := illustrate(ctx, tree, scope, *opts.Images, budget)
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
