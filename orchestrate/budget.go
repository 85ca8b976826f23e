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
}

// BudgetSpentError is the cause a run stops with once its Budget is spent:
// running nodes end at their next safe point, as on Ctrl-C, and what they
// committed is saved.
type BudgetSpentError struct {
	What  string // "--max-requests" or "--max-tokens-total"
	Limit int64
	Used  int64
}

func (e *BudgetSpentError) Error() string {
	return fmt.Sprintf("the run budget is spent: %d of %s %d used", e.Used, e.What, e.Limit)
}

// budgetModel counts what every subagent spends against one Budget. A
// turn is not sent once the budget is spent; the turn that spends it ends
// normally, so its tool calls still run, and the run is stopped.
type budgetModel struct {
	llm.Model
	b    Budget
	stop func(error)

	mu       sync.Mutex
	requests int
	tokens   int64
}

func (m *budgetModel) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	if err := m.spent(); err != nil {
		m.stop(err)
		return llm.Response{}, err
	}
	resp, err := m.Model.Complete(ctx, req)
	m.mu.Lock()
	m.requests += max(resp.Requests, 1)
	m.tokens += resp.Usage.PromptTokens + resp.Usage.CompletionTokens
	m.mu.Unlock()
	if serr := m.spent(); serr != nil {
		m.stop(serr)
	}
	return resp, err
}

func (m *budgetModel) spent() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case m.b.MaxRequests > 0 && m.requests >= m.b.MaxRequests:
		return &BudgetSpentError{What: "--max-requests", Limit: int64(m.b.MaxRequests), Used: int64(m.requests)}
	case m.b.MaxTokens > 0 && m.tokens >= m.b.MaxTokens:
		return &BudgetSpentError{What: "--max-tokens-total", Limit: m.b.MaxTokens, Used: m.tokens}
	}
	return nil
}

// left is what remains, for tool results; nil without a budget.
func (m *budgetModel) left() *tool.BudgetLeft {
	m.mu.Lock()
	defer m.mu.Unlock()
	var l tool.BudgetLeft
	if m.b.MaxRequests > 0 {
		n := int64(max(m.b.MaxRequests-m.requests, 0))
		l.Requests = &n
	}
	if m.b.MaxTokens > 0 {
		n := max(m.b.MaxTokens-m.tokens, 0)
		l.Tokens = &n
	}
	return &l
}
