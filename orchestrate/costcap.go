package orchestrate

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/lessongen/lessongen/internal/price"
	"github.com/lessongen/lessongen/llm"
)

// CostCap caps a run's money (--max-cost). Before each request, the
// request's worst case (its prompt at BytesPerToken, all of it uncached,
// and the most its answer may hold) is added to what was spent and what
// the requests in flight may still spend; a request that could pass Max
// is not sent, and the run stops as when its Budget is spent.
type CostCap struct {
	Max   float64 // US dollars
	Price price.Price
	// Size is a request's body in bytes (llm.Client.RequestBytes); nil
	// counts its messages' text.
	Size Sizer
	// Completion is the most tokens one answer may hold: --max-tokens, or
	// a ceiling the caller documents.
	Completion int64
	// Image is the price of one picture (generate --images): each is
	// held against Max before it is asked for, and spent once the server
	// sends it. The caller refuses --images with a cap and no price.
	Image float64
}

// costModel holds a run to a CostCap, through its costMeter: a run's
// own, or the one a course's runs share (Shared), so its lessons spend
// one --max-cost between them.
type costModel struct {
	llm.Model
	*costMeter
}

// costMeter is one CostCap's tally, and the runs it stops once spent.
type costMeter struct {
	c     *CostCap
	stops []func(error)

	mu       sync.Mutex
	spent    float64 // by answers, at their reported usage
	reserved float64 // worst cases of the requests in flight
	spentErr error
}

func newCostMeter(c *CostCap, stop func(error)) *costMeter {
	return &costMeter{c: c, stops: []func(error){stop}}
}

// watch has the meter stop one more run once the cap is reached (at
// once, if it is already).
func (m *costMeter) watch(stop func(error)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.stops = append(m.stops, stop)
	if m.spentErr != nil {
		stop(m.spentErr)
	}
}

func (m *costModel) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	worst, err := m.worst(req)
	if err != nil {
		return llm.Response{}, err
	}
	if err := m.take(worst); err != nil {
		return llm.Response{}, err
	}
	resp, err := m.Model.Complete(ctx, req)
	u := resp.Usage
	m.mu.Lock()
	m.reserved -= worst
	m.spent += m.c.Price.Cost(price.Usage{Prompt: u.PromptTokens, Completion: u.CompletionTokens, Cached: u.CachedTokens})
	m.mu.Unlock()
	return resp, err
}

// worst is the most req may cost.
func (m *costMeter) worst(req llm.Request) (float64, error) {
	bytes := 0
	if m.c.Size != nil {
		n, err := m.c.Size(req)
		if err != nil {
			return 0, err
		}
		bytes = n
	} else {
		for _, msg := range req.Messages {
			bytes += len(msg.Content)
		}
	}
	prompt := int64(math.Ceil(float64(bytes) / BytesPerToken))
	return m.c.Price.Cost(price.Usage{Prompt: prompt, Completion: m.c.Completion}), nil
}

// take admits a request whose worst case is worst, or refuses it, and
// every request after it, once it could pass the cap.
func (m *costMeter) take(worst float64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.spentErr != nil {
		return m.spentErr
	}
	if m.spent+m.reserved+worst > m.c.Max {
		m.spentErr = &CostSpentError{Max: m.c.Max, Spent: m.spent + m.reserved, Next: worst}
		for _, stop := range m.stops {
			stop(m.spentErr)
		}
		return m.spentErr
	}
	m.reserved += worst
	return nil
}

// settle ends what take held for a request whose worst case was worst:
// spent, when the server answered, else released.
func (m *costMeter) settle(worst float64, answered bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reserved -= worst
	if answered {
		m.spent += worst
	}
}

// CostSpentError is the cause a run stops with before a request that
// could pass --max-cost. It is a BudgetSpentError (errors.As), so it
// stops and reports as one: exit 3, everything committed saved.
type CostSpentError struct {
	Max, Spent, Next float64
}

func (e *CostSpentError) Error() string {
	return fmt.Sprintf("the run budget is spent: %s spent (or held by requests in flight) and the next request could cost up to %s, which would pass --max-cost %s",
		price.Money(e.Spent), price.Money(e.Next), price.Money(e.Max))
}

// As lets errors.As find it as a *BudgetSpentError, its Limit and Used
// in millionths of a dollar.
func (e *CostSpentError) As(target any) bool {
	if t, ok := target.(**BudgetSpentError); ok {
		*t = &BudgetSpentError{What: "--max-cost", Limit: int64(math.Ceil(e.Max * 1e6)), Used: int64(math.Ceil((e.Spent + e.Next) * 1e6))}
		return true
	}
	return false
}
