package orchestrate

import (
	"context"
	"fmt"
	"sync"

	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/tool"
)

// Budget caps a whole run; a zero field is no cap.
type Budget struct {
	// MaxRequests counts HTTP attempts to the model server, retries included.
	MaxRequests int
	// MaxTokens counts prompt and completion tokens as the server reports
	// them (a server that reports none spends none).
	MaxTokens int64
	// Cost, when set, caps the run's money (--max-cost; costcap.go).
	Cost *CostCap
}

// BudgetSpentError is the cause a run stops with once its Budget is spent:
// no step starts after it, running nodes end at their next request (the
// requests in flight finish and their tool calls commit), and what they
// committed is saved.
type BudgetSpentError struct {
	What  string // "--max-requests" or "--max-tokens-total"
	Limit int64
	Used  int64
}

func (e *BudgetSpentError) Error() string {
	return fmt.Sprintf("the run budget is spent: %d of %s %d used", e.Used, e.What, e.Limit)
}

// budgetModel counts what every subagent spends against one Budget (its
// meter, which the runs of a course share: Shared). A request in flight
// holds its share of MaxRequests, so no more are sent than the cap allows
// (retries aside). The request that takes the last share, or whose answer
// spends the tokens, stops every run the meter watches (stop: no step
// starts after it) but ends normally, so its tool calls still run; every
// request after that is refused with the BudgetSpentError.
type budgetModel struct {
	llm.Model
	*meter
}

// meter is one Budget's count, and the runs it stops once spent.
type meter struct {
	b     Budget
	stops []func(error)

	mu       sync.Mutex
	requests int
	inFlight int
	tokens   int64
	spentErr error
}

func newMeter(b Budget, stop func(error)) *meter {
	return &meter{b: b, stops: []func(error){stop}}
}

// watch has the meter stop one more run once the budget is spent (at
// once, if it is already).
func (m *meter) watch(stop func(error)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.stops = append(m.stops, stop)
	if m.spentErr != nil {
		stop(m.spentErr)
	}
}

func (m *budgetModel) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	if err := m.take(); err != nil {
		return llm.Response{}, err
	}
	resp, err := m.Model.Complete(ctx, req)
	m.mu.Lock()
	m.inFlight--
	m.requests += resp.Sent(err)
	m.tokens += resp.Usage.PromptTokens + resp.Usage.CompletionTokens
	m.check()
	m.mu.Unlock()
	return resp, err
}

// take admits one request, or refuses it once the budget is spent.
func (m *meter) take() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.check()
	if m.spentErr != nil {
		return m.spentErr
	}
	m.inFlight++
	m.check() // this request may take the last share
	return nil
}

// check stops the runs, once, when the budget is spent, counting the
// requests in flight as spent. It runs under mu.
func (m *meter) check() {
	if m.spentErr != nil {
		return
	}
	switch used := m.requests + m.inFlight; {
	case m.b.MaxRequests > 0 && used >= m.b.MaxRequests:
		m.spentErr = &BudgetSpentError{What: "--max-requests", Limit: int64(m.b.MaxRequests), Used: int64(used)}
	case m.b.MaxTokens > 0 && m.tokens >= m.b.MaxTokens:
		m.spentErr = &BudgetSpentError{What: "--max-tokens-total", Limit: m.b.MaxTokens, Used: m.tokens}
	default:
		return
	}
	for _, stop := range m.stops {
		stop(m.spentErr)
	}
}

// left is what remains, for tool results: each cap once no more than a
// quarter of it is left (lowBudget), nil before. What remains moves with
// every other subagent's requests, so a figure shown all along would
// make the same answers give another lesson at another concurrency; a
// model has nothing to act on while most of the budget is left, and a
// run near its cap is cut where the clock says anyway.
func (m *meter) left() *tool.BudgetLeft {
	m.mu.Lock()
	defer m.mu.Unlock()
	var l tool.BudgetLeft
	if n := int64(max(m.b.MaxRequests-m.requests-m.inFlight, 0)); m.b.MaxRequests > 0 && lowBudget(n, int64(m.b.MaxRequests)) {
		l.Requests = &n
	}
	if n := max(m.b.MaxTokens-m.tokens, 0); m.b.MaxTokens > 0 && lowBudget(n, m.b.MaxTokens) {
		l.Tokens = &n
	}
	if l.Requests == nil && l.Tokens == nil {
		return nil
	}
	return &l
}

// lowBudget: left of limit is a quarter or less (rounded up).
func lowBudget(left, limit int64) bool { return left <= (limit+3)/4 }
