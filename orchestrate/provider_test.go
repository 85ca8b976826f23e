package orchestrate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/llm"
)

// flaky fails every turn of some nodes and solves the others. Nodes are
// numbered in the order of their first request; pattern[i] is 'f' for the
// i-th node to fail, anything else to be solved.
type flaky struct {
	*solver
	pattern string
	err     error

	mu    sync.Mutex
	order map[string]int
}

func newFlaky(pattern string, err error) *flaky {
	return &flaky{solver: newSolver(), pattern: pattern, err: err, order: map[string]int{}}
}

func (f *flaky) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	node := nodeRE.FindStringSubmatch(taskText(req))[1]
	f.mu.Lock()
	i, ok := f.order[node]
	if !ok {
		i = len(f.order)
		f.order[node] = i
	}
	f.mu.Unlock()
	if i < len(f.pattern) && f.pattern[i] == 'f' {
		return llm.Response{Requests: 1}, f.err
	}
	return f.solver.Complete(ctx, req)
}

// writeHeadings writes a lesson of n slides whose whiteboards lack only a
// heading: one subagent, one conversation per node.
func writeHeadings(t *testing.T, n int) *compose.Document {
	t.Helper()
	var b strings.Builder
	b.WriteString("version: 1\nmetadata:\n  title: Test\nslides:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - id: s%d\n    title: Slide %d\n    whiteboard:\n      heading: !pending\n      elements: []\n", i, i)
	}
	return loadSrc(t, b.String())
}

var errTimeout = fmt.Errorf("llm: server did not answer within the turn timeout of 2m0s: %w", context.DeadlineExceeded)

func statuses(r Report) map[string]int {
	n := map[string]int{}
	for _, nr := range r.Nodes {
		n[nr.Status]++
	}
	return n
}

func TestProviderTimeoutFailsOnlyItsNode(t *testing.T) {
	doc := writeHeadings(t, 3)
	report, err := Run(context.Background(), doc, Scope{}, options(t, newFlaky("sfs", errTimeout), 2))
	if err != nil {
		t.Fatalf("err = %v; one node's timeout must not stop the run", err)
	}
	if got := statuses(report); got[event.StatusDone] != 2 || got[event.StatusFailed] != 1 || len(report.Nodes) != 3 {
		t.Fatalf("statuses %v, nodes %+v", got, report.Nodes)
	}
	bad := report.Incomplete()[0]
	if !strings.Contains(bad.Error, "turn timeout") || !strings.Contains(bad.Error, "the other nodes carry on") {
		t.Errorf("failed node's error = %q; want the cause, and that the others carried on", bad.Error)
	}
}

func TestSystemicFailureStopsRun(t *testing.T) {
	for _, kind := range []error{llm.ErrAuth, llm.ErrNotFound, llm.ErrUnreachable, llm.ErrBadResponse} {
		doc := writeHeadings(t, 5)
		model := newFlaky("sfsss", fmt.Errorf("llm: model server answered: %w", kind))
		report, err := Run(context.Background(), doc, Scope{}, options(t, model, 1))
		var down *ProviderDownError
		if !errors.As(err, &down) || !errors.Is(err, kind) || down.Nodes != 1 {
			t.Fatalf("%v: err = %v, want a ProviderDownError wrapping it", kind, err)
		}
		if !strings.Contains(err.Error(), "every node would fail the same way") {
			t.Errorf("err = %q does not say why the run stopped", err)
		}
		// Nothing after the failure starts: concurrency 1 runs one at a time.
		if got := statuses(report); got[event.StatusDone] != 1 || got[event.StatusFailed] != 1 || len(model.order) != 2 {
			t.Errorf("%v: statuses %v, %d nodes asked; want the run to stop at the failure", kind, got, len(model.order))
		}
	}
}

func TestProviderFailuresInARowStopRun(t *testing.T) {
	// Two failures, a success, three failures: the third in a row stops it.
	doc := writeHeadings(t, 8)
	model := newFlaky("ffsfffss", errTimeout)
	report, err := Run(context.Background(), doc, Scope{}, options(t, model, 1))
	var down *ProviderDownError
	if !errors.As(err, &down) || down.Nodes != maxProviderFailures || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a ProviderDownError after %d nodes", err, maxProviderFailures)
	}
	if !strings.Contains(err.Error(), "3 nodes in a row failed") {
		t.Errorf("err = %q does not say why the run stopped", err)
	}
	if got := statuses(report); got[event.StatusFailed] != 5 || got[event.StatusDone] != 1 || len(model.order) != 6 {
		t.Errorf("statuses %v, %d nodes asked; want 5 failed, 1 done, then a stop", got, len(model.order))
	}
}

func TestSuccessBetweenFailuresKeepsRunGoing(t *testing.T) {
	doc := writeHeadings(t, 8)
	report, err := Run(context.Background(), doc, Scope{}, options(t, newFlaky("ffsffsff", errTimeout), 1))
	if err != nil {
		t.Fatalf("err = %v; never %d failures in a row", err, maxProviderFailures)
	}
	if got := statuses(report); got[event.StatusFailed] != 6 || got[event.StatusDone] != 2 {
		t.Errorf("statuses %v, want 6 failed and 2 done", got)
	}
}

func TestFailedLevelSkipsTheNodesNextLevel(t *testing.T) {
	// A whiteboard whose metadata subagent failed on the provider does not
	// go on to its node subagent.
	doc, err := compose.Load(writeLesson(t, 2, ""), testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	model := newFlaky("fs", errTimeout)
	report, err := Run(context.Background(), doc, Scope{}, options(t, model, 1))
	if err != nil {
		t.Fatal(err)
	}
	if len(report.Nodes) != 4 || len(model.started) != 2 {
		t.Fatalf("nodes %+v, solved %v; want the failed board's node level skipped", report.Nodes, model.started)
	}
	// It is reported as not started, its work still pending.
	if nr := report.Nodes[1]; nr.Node != "slides/s0/whiteboard" || nr.Level != "whiteboard.node" || !nr.NotStarted ||
		nr.Status != event.StatusPending || nr.Error != "not started: whiteboard.metadata did not finish" || len(nr.Pending) == 0 {
		t.Errorf("the skipped level: %+v", nr)
	}
}
