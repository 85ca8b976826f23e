package orchestrate

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/picturetest"
	"github.com/lessongen/lessongen/internal/price"
	"github.com/lessongen/lessongen/llm"
)

// painter is the solver, but each board's drawing level describes two
// images for the image pass to draw.
type painter struct{ *solver }

func (p painter) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	resp, err := p.solver.Complete(ctx, req)
	if m := nodeRE.FindStringSubmatch(taskText(req)); err != nil || m[2] != "whiteboard.node" || len(resp.Message.ToolCalls) == 0 {
		return resp, err
	}
	for i, id := range []string{"a", "b"} {
		args, _ := json.Marshal(map[string]any{"id": id, "description": "a leaf " + id, "alt": id, "x": 10 + 300*i, "y": 200, "w": 200, "h": 100})
		resp.Message.ToolCalls = append(resp.Message.ToolCalls, llm.ToolCall{ID: "img-" + id, Name: "add_image", Arguments: string(args)})
	}
	return resp, nil
}

// easel draws every picture, once want of them are being drawn at once
// (or a wait has passed): it measures how many it was asked for side by
// side.
type easel struct {
	want int
	mu   sync.Mutex
	cond *sync.Cond
	in   int
	peak int
	all  int
}

func newEasel(want int) *easel {
	e := &easel{want: want}
	e.cond = sync.NewCond(&e.mu)
	return e
}

func (e *easel) GenerateImage(ctx context.Context, prompt string) ([]byte, int, error) {
	e.mu.Lock()
	e.in++
	e.all++
	e.peak = max(e.peak, e.in)
	e.cond.Broadcast()
	late := false
	deadline := time.AfterFunc(time.Second, func() { e.mu.Lock(); late = true; e.cond.Broadcast(); e.mu.Unlock() })
	for e.peak < e.want && !late {
		e.cond.Wait()
	}
	deadline.Stop()
	e.in--
	e.mu.Unlock()
	return picturetest.TwoColourPNG(40, 20), 1, nil
}

// drawWith generates a two-slide lesson whose boards each describe two
// images, then draws them through maker, conc at a time.
func drawWith(t *testing.T, conc int, maker ImageMaker, budget Budget) Result {
	t.Helper()
	doc, err := compose.Load(writeLesson(t, 2, ""), testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	opts := GenerateOptions{Options: options(t, painter{newSolver()}, conc), Images: &Images{Maker: maker, Credit: "test"}}
	opts.Budget = budget
	res, err := Generate(context.Background(), doc, Scope{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The image pass asks for its pictures side by side, at most --concurrency
// at once (issue #37.12): a slow image model costs the run one picture's
// wait per concurrency's worth of pictures, not one per picture.
func TestImagesDrawnSideBySide(t *testing.T) {
	for _, conc := range []int{2, 4} {
		e := newEasel(conc)
		res := drawWith(t, conc, e, Budget{})
		if res.Images.Made != e.all || e.all < 4 || e.peak != conc {
			t.Errorf("--concurrency %d: %d of %d pictures made, at most %d asked for at once; want all, %d at once",
				conc, res.Images.Made, e.all, e.peak, conc)
		}
	}
}

// Each picture is held against --max-cost at the image model's price
// before it is asked for (issue #37.4): one that could pass the cap is
// not asked for, and the run ends as a spent budget.
func TestImagesWithinMaxCost(t *testing.T) {
	e := newEasel(1)
	cap := &CostCap{Max: 0.25, Price: price.Price{Input: 0.01, Output: 0.01}, Completion: 100, Image: 0.1}
	res := drawWith(t, 4, e, Budget{Cost: cap})
	var spent *CostSpentError
	if e.all != 2 || res.Images.Made != 2 || res.Images.Answered != 2 || res.Images.Left < 2 || !errors.As(res.RunErr, &spent) || !errors.As(res.Images.CostSpent, &spent) || spent.Next != 0.1 {
		t.Errorf("%d pictures asked for, report %+v, run error %v; want 2 within $0.25 at $0.10 each, the rest left for the cap", e.all, res.Images, res.RunErr)
	}
	if res.Outcome != Partial {
		t.Errorf("outcome %v, want partial (exit 3)", res.Outcome)
	}
}
