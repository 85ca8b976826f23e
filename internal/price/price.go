// Package price holds the one table of models (Models: prices per 1M
// tokens, context window, capabilities, shutdown date) and turns token
// counts into money. A config file's prices extend or override it.
package price

import (
	"fmt"
	"maps"
	"math"
	"slices"
)

// Price is what one model costs, in US dollars per 1M tokens, or for an
// image model per picture.
type Price struct {
	Input float64 `json:"input" yaml:"input"`
	// CachedInput is the price of prompt tokens the server reports as
	// cached; 0 means the same as Input.
	CachedInput float64 `json:"cached_input,omitempty" yaml:"cached_input,omitempty"`
	Output      float64 `json:"output" yaml:"output"`
	// Image is an image model's price of one picture as --images asks
	// for it (ImageAsked); 0 means none known.
	Image float64 `json:"image,omitempty" yaml:"image,omitempty"`
}

// ImageAsked is the picture --images asks for, which Price.Image is
// the price of: one 1024x1024 picture, sent without a quality, so the
// server's "auto" picks it; the price is that of the highest quality
// auto may pick, the most one picture can cost.
const ImageAsked = "one 1024x1024 picture at the highest quality (quality auto)"

// imageOnly is an image model's entry: it prices pictures, not tokens.
func (p Price) imageOnly() bool {
	return p.Image > 0 && p.Input == 0 && p.CachedInput == 0 && p.Output == 0
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

// Default is the price of every model in Models that has one, by its
// name and by each alias: the one place these figures live is Models.
var Default = defaultTable()

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

// Lookup finds model's price by its exact name (a dated snapshot is an
// alias listed in Models, or an entry of the config file's prices). A
// name is never priced as a prefix of another: o3-pro is not o3. It
// reports the entry it used.
func (t Table) Lookup(model string) (p Price, entry string, ok bool) {
	p, ok = t[model]
	if !ok || p.imageOnly() {
		return Price{}, "", false
	}
	return p, model, true
}

// LookupImage finds an image model's price of one picture (Price.Image)
// by its exact name.
func (t Table) LookupImage(model string) (usd float64, ok bool) {
	p, ok := t[model]
	return p.Image, ok && p.Image > 0
}

// Check refuses a negative price, or one that is not a finite number (a
// NaN cost passes every --max-cost), naming the model.
func (t Table) Check() error {
	for _, k := range slices.Sorted(maps.Keys(t)) {
		p := t[k]
		for _, v := range []float64{p.Input, p.CachedInput, p.Output, p.Image} {
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

// HowToAddImage says how to give an image model without a price one.
func HowToAddImage(model string) string {
	return fmt.Sprintf("add one under prices in the config file (USD per picture: %s), e.g.\n  prices:\n    - {model: %s, image: 0.20}", ImageAsked, model)
}

// Money formats dollars for people: cents for sums of a dollar or more,
// four decimals below it, where a lesson's cost usually lies.
func Money(usd float64) string {
	if usd >= 1 {
		return fmt.Sprintf("$%.2f", usd)
	}
	return fmt.Sprintf("$%.4f", usd)
}
