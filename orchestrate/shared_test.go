package orchestrate

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lessongen/lessongen/llm"
)

// Two runs sharing one budget spend it together: the request that takes
// the last share stops both, and every request after it is refused in
// either.
func TestSharedBudgetStopsEveryRun(t *testing.T) {
	s := NewShared(Budget{MaxRequests: 3}, 4)
	var stopped [2]error
	a := s.wrap(usageModel{llm.Usage{}}, func(err error) { stopped[0] = err })
	b := s.wrap(usageModel{llm.Usage{}}, func(err error) { stopped[1] = err })
	for i, m := range []llm.Model{a, b, a} {
		if _, err := m.Complete(context.Background(), llm.Request{}); err != nil {
			t.Fatalf("request %d refused: %v", i+1, err)
		}
	}
	var spent *BudgetSpentError
	for i, err := range stopped {
		if !errors.As(err, &spent) || spent.Used != 3 {
			t.Errorf("run %d stopped with %v, want the spent budget (3 of 3)", i+1, err)
		}
	}
	if _, err := b.Complete(context.Background(), llm.Request{}); !errors.As(err, &spent) {
		t.Errorf("a request after the shared budget was spent: %v", err)
	}
	// A run that joins once the budget is spent is stopped at once.
	var late error
	s.wrap(usageModel{}, func(err error) { late = err })
	if !errors.As(late, &spent) {
		t.Errorf("a run joining a spent budget: %v", late)
	}
}

// However many runs share it, no more requests are in flight at once
// than the bound.
func TestSharedBoundsRequestsInFlight(t *testing.T) {
	s := NewShared(Budget{}, 2)
	var now, peak atomic.Int32
	gate := make(chan struct{})
	inner := funcModel(func() {
		n := now.Add(1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		<-gate
		now.Add(-1)
	})
	var wg sync.WaitGroup
	for range 3 { // three runs
		m := s.wrap(inner, func(error) {})
		for range 3 {
			wg.Go(func() { _, _ = m.Complete(context.Background(), llm.Request{}) })
		}
	}
	// Let the first two in, give the rest every chance to pass the
	// bound, then let all go.
	for now.Load() < 2 {
		runtime.Gosched()
	}
	for range 10000 {
		runtime.Gosched()
	}
	for range 9 {
		gate <- struct{}{}
	}
	wg.Wait()
	if p := peak.Load(); p != 2 {
		t.Errorf("%d requests in flight at once, want the bound 2", p)
	}
}

type funcModel func()

func (f funcModel) Complete(context.Context, llm.Request) (llm.Response, error) {
	f()
	return llm.Response{}, nil
}
