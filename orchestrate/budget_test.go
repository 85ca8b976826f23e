package orchestrate

import (
	"context"
	"errors"
	"testing"

	"github.com/lessongen/lessongen/llm"
)

// usageModel answers every turn with the same usage.
type usageModel struct{ usage llm.Usage }

func (m usageModel) Complete(context.Context, llm.Request) (llm.Response, error) {
	return llm.Response{Usage: m.usage, Requests: 1}, nil
}

// --max-tokens-total counts prompt and completion tokens alike: a run whose
// answers are all completion (or all prompt) stops at the cap, and what is
// left is the cap less both.
func TestTokenBudgetCountsPromptAndCompletion(t *testing.T) {
	for _, tc := range []struct {
		name  string
		usage llm.Usage
		turns int // the turn that spends the budget
	}{
		{"completion only", llm.Usage{CompletionTokens: 40}, 3},
		{"prompt only", llm.Usage{PromptTokens: 40}, 3},
		{"both", llm.Usage{PromptTokens: 30, CompletionTokens: 30}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stopped error
			m := &budgetModel{Model: usageModel{tc.usage}, meter: newMeter(Budget{MaxTokens: 100}, func(err error) { stopped = err })}
			per := tc.usage.PromptTokens + tc.usage.CompletionTokens
			for turn := 1; turn <= tc.turns; turn++ {
				if _, err := m.Complete(context.Background(), llm.Request{}); err != nil {
					t.Fatalf("turn %d refused: %v", turn, err)
				}
				if got, want := m.tokens, int64(turn)*per; got != want {
					t.Errorf("after turn %d: %d tokens counted, want %d", turn, got, want)
				}
				// What is left is shown once a quarter or less remains.
				want := max(100-int64(turn)*per, 0)
				if l := m.left(); lowBudget(want, 100) != (l != nil && l.Tokens != nil) {
					t.Errorf("after turn %d (%d left): budget_left shown = %v", turn, want, l != nil)
				} else if l != nil && l.Tokens != nil && *l.Tokens != want {
					t.Errorf("after turn %d: %d tokens left, want %d", turn, *l.Tokens, want)
				}
				if spent := stopped != nil; spent != (turn == tc.turns) {
					t.Fatalf("after turn %d (%d tokens each): stopped = %v", turn, per, stopped)
				}
			}
			var spent *BudgetSpentError
			if !errors.As(stopped, &spent) || spent.What != "--max-tokens-total" || spent.Used != int64(tc.turns)*per {
				t.Errorf("stopped with %v", stopped)
			}
			if _, err := m.Complete(context.Background(), llm.Request{}); !errors.As(err, &spent) {
				t.Errorf("a request after the budget was spent: %v", err)
			}
		})
	}
}
