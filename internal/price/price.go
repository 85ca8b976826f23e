// Package price turns token counts into money: a table of prices per
// model, per 1M tokens, with a default for OpenAI's models that a config
// file's prices extend or override.
package price

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// Price is what one model costs, in US dollars per 1M tokens.
type Price struct {
	Input float64 `json:"input" yaml:"input"`
	// CachedInput is the price of prompt tokens the server reports as
	// cached; 0 means the same as Input.
	CachedInput float64 `json:"cached_input,omitempty" yaml:"cached_input,omitempty"`
	Output      float64 `json:"output" yaml:"output"`
}

// Usage is what a run or a request spends, as the server counts it.
type Usage struct {
	Prompt, Completion, Cached int64
}

// Cost is the money usage costs at p: cached prompt tokens at the cached
// price, the rest of the prompt at the input price.
func (p Price) Cost(u Usage) float64 {
	cached := min(max(u.Cached, 0), u.Prompt)
	cachedPrice := p.CachedInput
	if cachedPrice == 0 {
		cachedPrice = p.Input
	}
	return (float64(u.Prompt-cached)*p.Input + float64(cached)*cachedPrice + float64(u.Completion)*p.Output) / 1e6
}

// Checked is when Default was last compared with OpenAI's published
// prices (https://platform.openai.com/docs/pricing, standard tier). They
// change: a config file's prices win over these.
const Checked = "2026-11-26"

// Default is OpenAI's price list for its current chat models (standard
// tier, USD per 1M tokens), as of Checked. The one place these figures
// live.
var Default = Table{
	"gpt-5":        {Input: 1.25, CachedInput: 0.125, Output: 10},
	"gpt-5-mini":   {Input: 0.25, CachedInput: 0.025, Output: 2},
	"gpt-5-nano":   {Input: 0.05, CachedInput: 0.005, Output: 0.40},
	"gpt-4.1":      {Input: 2, CachedInput: 0.50, Output: 8},
	"gpt-4.1-mini": {Input: 0.40, CachedInput: 0.10, Output: 1.60},
	"gpt-4.1-nano": {Input: 0.10, CachedInput: 0.025, Output: 0.40},
	"gpt-4o":       {Input: 2.50, CachedInput: 1.25, Output: 10},
	"gpt-4o-mini":  {Input: 0.15, CachedInput: 0.075, Output: 0.60},
	"o3":           {Input: 2, CachedInput: 0.50, Output: 8},
	"o4-mini":      {Input: 1.10, CachedInput: 0.275, Output: 4.40},
}

// Table maps a model name to its price.
type Table map[string]Price

// With is t with over's entries added, over winning; t is not changed.
func (t Table) With(over Table) Table {
	out := maps.Clone(t)
	if out == nil {
		out = Table{}
	}
	maps.Copy(out, over)
	return out
}

// Lookup finds model's price: its own entry, else the longest entry it
// starts with followed by "-" (a dated snapshot, "gpt-4.1-mini-2025-04-14",
// costs what "gpt-4.1-mini" costs). It reports the entry it used.
func (t Table) Lookup(model string) (p Price, entry string, ok bool) {
	if p, ok := t[model]; ok {
		return p, model, true
	}
	keys := slices.Collect(maps.Keys(t))
	// Longest first, so gpt-4.1-mini wins over gpt-4.1.
	slices.SortFunc(keys, func(a, b string) int { return len(b) - len(a) })
	for _, k := range keys {
		if strings.HasPrefix(model, k+"-") {
			return t[k], k, true
		}
	}
	return Price{}, "", false
}

// Check refuses a negative price, or one that is not a finite number (a
// NaN cost passes every --max-cost), naming the model.
func (t Table) Check() error {
	for _, k := range slices.Sorted(maps.Keys(t)) {
		p := t[k]
		for _, v := range []float64{p.Input, p.CachedInput, p.Output} {
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				return fmt.Errorf("the price of %q is not a finite number", k)
			case v < 0:
				return fmt.Errorf("the price of %q is negative", k)
			}
		}
	}
	return nil
}

// HowToAdd says how to give a model without a price one, for messages.
func HowToAdd(model string) string {
	return fmt.Sprintf("add one under prices in the config file (USD per 1M tokens), e.g.\n  prices:\n    - {model: %s, input: 0.40, cached_input: 0.10, output: 1.60}", model)
}

// Money formats dollars for people: cents for sums of a dollar or more,
// four decimals below it, where a lesson's cost usually lies.
func Money(usd float64) string {
	if usd >= 1 {
		return fmt.Sprintf("$%.2f", usd)
	}
	return fmt.Sprintf("$%.4f", usd)
}
