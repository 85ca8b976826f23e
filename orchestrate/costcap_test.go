package orchestrate

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lessongen/lessongen/internal/price"
	"github.com/lessongen/lessongen/llm"
)

// countingModel answers every turn with the same usage and counts the
// requests it was sent.
type countingModel struct {
	usage llm.Usage
	sent  atomic.Int64
}

func (m *countingModel) Complete(context.Context, llm.Request) (llm.Response, error) {
	m.sent.Add(1)
	return llm.Response{Usage: m.usage, Requests: 1}, nil
}

// --max-cost refuses the request whose worst case could pass the cap,
// before it is sent, and every one after it: the money spent never
// passes the cap.
func TestCostCapStopsBeforeTheRequestThatCouldPassIt(t *testing.T) {
	// $1 per 1M tokens either way: a token costs a millionth.
	p := price.Price{Input: 1, Output: 1}
	prompt := strings.Repeat("x", 4000) // 1000 tokens at 4 bytes each
	// Each answer reports 1000 prompt and 500 completion tokens
	// ($0.0015); the worst case reserves 1000 + 2000 ($0.003).
	inner := &countingModel{usage: llm.Usage{PromptTokens: 1000, CompletionTokens: 500}}
	var stopped error
	m := &costModel{Model: inner, costMeter: newCostMeter(&CostCap{Max: 0.01, Price: p, Completion: 2000}, func(err error) { stopped = err })}
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleSystem, Content: prompt}}}
	var refused error
	for i := 0; i < 10 && refused == nil; i++ {
		_, refused = m.Complete(context.Background(), req)
	}
	// After 5 answers $0.0075 is spent; a 6th could reach $0.0105.
	if got := inner.sent.Load(); got != 5 {
		t.Errorf("%d requests sent under a $0.01 cap, want 5", got)
	}
	if spent := p.Cost(price.Usage{Prompt: 5000, Completion: 2500}); m.spent > 0.01 || math.Abs(m.spent-spent) > 1e-12 {
		t.Errorf("spent %v, want %v, under the cap", m.spent, spent)
	}
	var budget *BudgetSpentError
	if !errors.As(refused, &budget) || budget.What != "--max-cost" || stopped != refused {
		t.Fatalf("refused with %v (stopped with %v), want a spent budget naming --max-cost", refused, stopped)
	}
	if !strings.Contains(refused.Error(), "--max-cost $0.0100") {
		t.Errorf("message %q does not name the cap", refused)
	}
	if _, err := m.Complete(context.Background(), req); err != refused || inner.sent.Load() != 5 {
		t.Errorf("a request after the stop: %v, %d sent", err, inner.sent.Load())
	}
}

// A request in flight holds its worst case: two at once cannot both take
// the last share of the cap.
func TestCostCapHoldsTheWorstCaseOfRequestsInFlight(t *testing.T) {
	m := &costModel{costMeter: newCostMeter(&CostCap{Max: 0.005, Price: price.Price{Input: 1, Output: 1}, Completion: 3000}, func(error) {})}
	if err := m.take(0.003); err != nil {
		t.Fatal(err)
	}
	if err := m.take(0.003); err == nil {
		t.Error("a second request was admitted while the first held $0.003 of $0.005")
	}
}

// Cached prompt tokens are paid at the cached price.
func TestCostCapCountsCachedTokensAtTheirPrice(t *testing.T) {
	inner := &countingModel{usage: llm.Usage{PromptTokens: 1000, CachedTokens: 1000}}
	m := &costModel{Model: inner, costMeter: newCostMeter(&CostCap{Max: 1, Price: price.Price{Input: 1, CachedInput: 0.5, Output: 1}}, func(error) {})}
	if _, err := m.Complete(context.Background(), llm.Request{}); err != nil {
		t.Fatal(err)
	}
	if math.Abs(m.spent-0.0005) > 1e-12 {
		t.Errorf("spent %v, want $0.0005", m.spent)
	}
}
