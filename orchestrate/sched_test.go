package orchestrate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

// writeBoards writes a lesson with a slide per letter of boards: 'w' a
// whole board pending (two levels: metadata, then node), 'e' only its
// elements (one level), 'd' a board with nothing pending.
func writeBoards(t *testing.T, boards string) *compose.Document {
	t.Helper()
	var b strings.Builder
	b.WriteString("version: 1\nmetadata:\n  title: Boards\nslides:\n")
	for i, kind := range boards {
		fmt.Fprintf(&b, "  - id: s%d\n    title: Slide %d\n", i, i)
		switch kind {
		case 'w':
			b.WriteString("    whiteboard: !pending \"a board\"\n")
		case 'e':
			b.WriteString("    whiteboard:\n      heading: H\n      layout: L\n      elements: !pending \"one label\"\n")
		case 'd':
			b.WriteString("    whiteboard:\n      heading: H\n      elements: []\n")
		}
	}
	return loadSrc(t, b.String())
}

// At concurrency 1 the order is the schedule itself: the longest chains
// first, ties in document order, each slide's levels back to back. The
// plan keeps document order.
func TestLongestChainsStartFirst(t *testing.T) {
	doc := writeBoards(t, "ewdewe")
	steps, err := Plan(doc, testRegistry(), Scope{})
	if err != nil {
		t.Fatal(err)
	}
	var planned []string
	for _, st := range steps {
		planned = append(planned, st.Node+" "+string(st.Level))
	}
	wantPlan := "[slides/s0/whiteboard node slides/s1/whiteboard metadata slides/s1/whiteboard node slides/s3/whiteboard node " +
		"slides/s4/whiteboard metadata slides/s4/whiteboard node slides/s5/whiteboard node]"
	if got := fmt.Sprint(planned); got != wantPlan {
		t.Errorf("plan %s\nwant %s", got, wantPlan)
	}

	model := newSolver()
	report, err := Run(context.Background(), doc, Scope{}, options(t, model, 1))
	if err != nil || len(report.Incomplete()) > 0 {
		t.Fatalf("run: %v %+v", err, report.Incomplete())
	}
	want := "[slides/s1/whiteboard whiteboard.metadata slides/s1/whiteboard whiteboard.node " +
		"slides/s4/whiteboard whiteboard.metadata slides/s4/whiteboard whiteboard.node " +
		"slides/s0/whiteboard whiteboard.node slides/s3/whiteboard whiteboard.node slides/s5/whiteboard whiteboard.node]"
	if got := fmt.Sprint(model.started); got != want {
		t.Errorf("started %s\nwant    %s", got, want)
	}
}

// A slide's next subagent does not queue behind other slides' first ones:
// however the requests interleave, no more chains are under way at once
// than there are slots.
func TestChainHoldsItsSlot(t *testing.T) {
	const slots = 2
	doc := writeBoards(t, "wwwwww")
	model := newSolver()
	// Both slots are busy before anything answers.
	model.hold = slots
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // deadlock guard
	defer cancel()
	stop := context.AfterFunc(ctx, func() {
		model.mu.Lock()
		model.cond.Broadcast()
		model.mu.Unlock()
	})
	defer stop()
	report, err := Run(ctx, doc, Scope{}, options(t, model, slots))
	if err != nil || len(report.Incomplete()) > 0 {
		t.Fatalf("run: %v %+v", err, report.Incomplete())
	}
	// A chain is under way from its metadata subagent's start to its node
	// subagent's start.
	open := map[string]bool{}
	for i, s := range model.started {
		node, level, _ := strings.Cut(s, " ")
		switch level {
		case "whiteboard.metadata":
			open[node] = true
		case "whiteboard.node":
			if !open[node] {
				t.Fatalf("%s: node subagent before its metadata: %v", node, model.started)
			}
			delete(open, node)
		}
		if len(open) > slots {
			t.Fatalf("after start %d, %d chains under way on %d slots: %v", i+1, len(open), slots, model.started)
		}
	}
	if len(model.started) != 12 {
		t.Errorf("started %v", model.started)
	}
}

// spender answers boards' node subagents. The first board's request waits
// until the second's is in flight too, then answers with more tokens than
// the run's budget; the second's waits until the first board's node has
// ended (so the budget has stopped the run), then answers normally.
type spender struct {
	*solver
	firstEnded chan struct{}
	arrived    chan struct{}
	cancelled  bool // the second request's context was cancelled
}

func (s *spender) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	node := nodeRE.FindStringSubmatch(taskText(req))[1]
	switch node {
	case "slides/s0/whiteboard":
		select {
		case <-s.arrived:
		case <-ctx.Done():
			return llm.Response{}, ctx.Err()
		}
		resp, err := s.solver.Complete(ctx, req)
		resp.Usage.PromptTokens = 1000
		return resp, err
	case "slides/s1/whiteboard":
		close(s.arrived)
		select {
		case <-s.firstEnded:
		case <-ctx.Done():
		}
		s.mu.Lock()
		s.cancelled = ctx.Err() != nil
		s.mu.Unlock()
	}
	return s.solver.Complete(ctx, req)
}

// A spent budget stops the run at its next safe point: a request already
// in flight in another node finishes and its tool calls commit, the node
// whose answer spent it commits too, and no step starts after it (it is
// reported not started, its work still pending).
func TestBudgetLetsRequestsInFlightCommit(t *testing.T) {
	doc := writeBoards(t, "eee")
	model := &spender{solver: newSolver(), firstEnded: make(chan struct{}), arrived: make(chan struct{})}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // deadlock guard
	defer cancel()
	opts := options(t, model, 2)
	opts.Budget = Budget{MaxTokens: 100}
	var once sync.Once
	opts.Events = func(e event.Event) {
		if e.Kind == event.NodeEnd && e.Node == "slides/s0/whiteboard" {
			once.Do(func() { close(model.firstEnded) })
		}
	}
	report, err := Run(ctx, doc, Scope{}, opts)
	var spent *BudgetSpentError
	if !errors.As(err, &spent) || spent.What != "--max-tokens-total" {
		t.Fatalf("err = %v, want the budget spent", err)
	}
	if model.cancelled {
		t.Error("the request in flight was cancelled")
	}
	got := map[string]NodeResult{}
	for _, nr := range report.Nodes {
		got[nr.Node] = nr
	}
	for _, node := range []string{"slides/s0/whiteboard", "slides/s1/whiteboard"} {
		if nr := got[node]; nr.Status != event.StatusDone {
			t.Errorf("%s: %+v, want done", node, nr)
		}
		if n := elements(t, doc, strings.Split(node, "/")[1]); n != 1 {
			t.Errorf("%s: %d elements committed, want 1", node, n)
		}
	}
	if nr := got["slides/s2/whiteboard"]; !nr.NotStarted || nr.Status != event.StatusPending || len(nr.Pending) == 0 ||
		!strings.HasPrefix(nr.Error, "not started: the run budget is spent") {
		t.Errorf("the third board: %+v, want not started", nr)
	}
	if len(report.Nodes) != 3 || slices.Contains(model.started, "slides/s2/whiteboard whiteboard.node") {
		t.Errorf("nodes %+v, started %v", report.Nodes, model.started)
	}
}

// A request in flight holds its share of --max-requests: with two slots
// and room for two requests, both are sent, both commit, and the third
// board is not started.
func TestRequestBudgetCountsRequestsInFlight(t *testing.T) {
	doc := writeBoards(t, "eee")
	model := newSolver()
	model.hold = 2
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // deadlock guard
	defer cancel()
	stop := context.AfterFunc(ctx, func() {
		model.mu.Lock()
		model.cond.Broadcast()
		model.mu.Unlock()
	})
	defer stop()
	opts := options(t, model, 2)
	opts.Budget = Budget{MaxRequests: 2}
	report, err := Run(ctx, doc, Scope{}, opts)
	if err == nil || err.Error() != "the run budget is spent: 2 of --max-requests 2 used" {
		t.Fatalf("err = %v", err)
	}
	if got := statuses(report); got[event.StatusDone] != 2 || got[event.StatusPending] != 1 || report.Requests != 2 || len(model.started) != 2 {
		t.Errorf("statuses %v, %d requests, started %v", got, report.Requests, model.started)
	}
}

// elements counts the elements on a slide's board.
func elements(t *testing.T, doc *compose.Document, slide string) (n int) {
	t.Helper()
	sess, err := doc.Child(slide, "whiteboard")
	if err != nil {
		t.Fatal(err)
	}
	sess.View(func(st session.State) { n = len(st.(*whiteboard.Board).Elements.Value) })
	return n
}
