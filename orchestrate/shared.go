package orchestrate

import (
	"context"

	"github.com/lessongen/lessongen/llm"
)

// Shared is what the runs of a course share, so that running its lessons
// side by side spends no more than one run would: one Budget (its
// CostCap too: one --max-cost across the lessons), and one
// bound on the requests in flight across them all (each run's own
// Concurrency bounds only its subagents). Rate limit and retries are the
// model client's, shared by passing every run the same client.
type Shared struct {
	slots chan struct{}
	meter *meter
	cost  *costMeter // nil without a CostCap
}

// NewShared is a budget b and at most concurrency requests in flight
// (at least 1), for runs to share through Options.Shared.
func NewShared(b Budget, concurrency int) *Shared {
	s := &Shared{slots: make(chan struct{}, max(1, concurrency)), meter: &meter{b: b}}
	if b.Cost != nil {
		s.cost = &costMeter{c: b.Cost}
	}
	return s
}

// wrap is model counted against the shared budget, stopping this run
// (stop) too once it is spent, and held to the shared bound.
func (s *Shared) wrap(model llm.Model, stop func(error)) llm.Model {
	s.meter.watch(stop)
	if s.cost != nil {
		// Inside the slot: a request's worst case is held only once it
		// may be sent.
		s.cost.watch(stop)
		model = &costModel{Model: model, costMeter: s.cost}
	}
	return &slotModel{budgetModel: budgetModel{Model: model, meter: s.meter}, slots: s.slots}
}

// slotModel waits for a free slot before its request is counted or sent.
type slotModel struct {
	budgetModel
	slots chan struct{}
}

func (m *slotModel) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	select {
	case m.slots <- struct{}{}:
	case <-ctx.Done():
		return llm.Response{}, context.Cause(ctx)
	}
	defer func() { <-m.slots }()
	return m.budgetModel.Complete(ctx, req)
}
