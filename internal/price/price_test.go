package price

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestCostPricesCachedTokensApart(t *testing.T) {
	p := Price{Input: 2, CachedInput: 0.5, Output: 8}
	got := p.Cost(Usage{Prompt: 1_000_000, Cached: 400_000, Completion: 500_000})
	// 600k at $2, 400k at $0.50, 500k at $8.
	if want := 1.2 + 0.2 + 4.0; math.Abs(got-want) > 1e-9 {
		t.Errorf("cost = %v, want %v", got, want)
	}
	// No cached price: cached tokens cost the input price.
	if got := (Price{Input: 1, Output: 1}).Cost(Usage{Prompt: 1e6, Cached: 1e6}); got != 1 {
		t.Errorf("cost without a cached price = %v, want 1", got)
	}
}

// A price is found by the model's exact name or a listed alias, never by
// a prefix: o3-pro costs ten times o3, gpt-5-pro twelve times gpt-5, and
// o3-mini was priced 1.8 times over as o3 (issue #36).
func TestLookupIsExact(t *testing.T) {
	for model, want := range map[string]string{
		"gpt-4.1-mini":            "gpt-4.1-mini",
		"gpt-4.1-mini-2025-04-14": "gpt-4.1-mini-2025-04-14",
		"gpt-6-luna":              "gpt-6-luna",
	} {
		_, entry, ok := Default.Lookup(model)
		if !ok || entry != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", model, entry, ok, want)
		}
	}
	if a, b := Default["gpt-4.1-mini-2025-04-14"], Default["gpt-4.1-mini"]; a != b {
		t.Errorf("the dated snapshot costs %v, its model %v", a, b)
	}
	for _, model := range []string{"o3-pro", "gpt-5-pro", "o3-mini", "gpt-4.1-mini-2099-01-01", "llama3.1:8b", "gpt-4.10", "my-gpt-4.1"} {
		if _, entry, ok := Default.Lookup(model); ok {
			t.Errorf("Lookup(%q) found %q; want no price", model, entry)
		}
	}
}

func TestWithOverridesAndKeepsTheDefault(t *testing.T) {
	over := Table{"gpt-4.1-mini": {Input: 9, Output: 9}, "llama3.1:8b": {}}
	got := Default.With(over)
	if got["gpt-4.1-mini"].Input != 9 || got["gpt-4.1"].Input != Default["gpt-4.1"].Input {
		t.Errorf("With = %v", got)
	}
	if _, ok := got["llama3.1:8b"]; !ok {
		t.Error("With lost an added model")
	}
	if Default["gpt-4.1-mini"].Input == 9 {
		t.Error("With changed Default")
	}
}

func TestCheckRefusesNegativePrices(t *testing.T) {
	err := Table{"m": {Input: -1}}.Check()
	if err == nil || !strings.Contains(err.Error(), `"m"`) {
		t.Errorf("Check = %v, want an error naming the model", err)
	}
	if err := Default.Check(); err != nil {
		t.Errorf("Default: %v", err)
	}
}

func TestMoney(t *testing.T) {
	for usd, want := range map[float64]string{0.01234: "$0.0123", 2.5: "$2.50", 0: "$0.0000"} {
		if got := Money(usd); got != want {
			t.Errorf("Money(%v) = %q, want %q", usd, got, want)
		}
	}
}

// NaN makes every cost NaN, which no cap is ever below or above; an
// infinite price makes every run cost the same. Neither is a price.
func TestCheckRefusesPricesThatAreNotFinite(t *testing.T) {
	for _, p := range []Price{{Input: math.NaN()}, {Output: math.Inf(1)}, {CachedInput: math.NaN()}} {
		if err := (Table{"m": p}).Check(); err == nil || !strings.Contains(err.Error(), `"m"`) {
			t.Errorf("Check(%+v) = %v, want an error naming the model", p, err)
		}
	}
}

// A server that reports more cached tokens than prompt tokens (or a
// negative count) is not paid back: cached tokens count at most the prompt.
func TestCostClampsCachedTokensToThePrompt(t *testing.T) {
	p := Price{Input: 2, CachedInput: 1, Output: 0}
	if got := p.Cost(Usage{Prompt: 1e6, Cached: 3e6}); got != 1 {
		t.Errorf("cost with cached > prompt = %v, want 1", got)
	}
	if got := p.Cost(Usage{Prompt: 1e6, Cached: -5e6}); got != 2 {
		t.Errorf("cost with negative cached = %v, want 2", got)
	}
}

// The table is current as of the day it was checked: no model it prices
// is shut down by then, the default model is in it, priced, and not
// going away within the warning window, and every image model it names
// as the default is one it knows.
func TestModelsAreCurrent(t *testing.T) {
	checked, err := time.Parse(time.DateOnly, Checked)
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range Models {
		if m.Shutdown == "" {
			continue
		}
		day, err := time.Parse(time.DateOnly, m.Shutdown)
		if err != nil {
			t.Errorf("%s: shutdown %q is not YYYY-MM-DD", name, m.Shutdown)
			continue
		}
		if !day.After(checked) && m.Price != nil {
			t.Errorf("%s was shut down on %s but still has a price", name, m.Shutdown)
		}
	}
	def, ok := Models[DefaultModel]
	switch {
	case !ok || def.Price == nil:
		t.Errorf("default model %q has no entry with a price", DefaultModel)
	case def.Shutdown != "" && ShutdownNote(DefaultModel, def.Shutdown, checked, ShutdownWarnDays) != "":
		t.Errorf("default model %q: %s", DefaultModel, ShutdownNote(DefaultModel, def.Shutdown, checked, ShutdownWarnDays))
	case !def.Caps.Tools:
		t.Errorf("default model %q cannot call tools through Chat Completions", DefaultModel)
	}
	if img, ok := Models[DefaultImageModel]; !ok || !img.Caps.Images || img.Shutdown != "" {
		t.Errorf("default image model %q: %+v", DefaultImageModel, img)
	}
	// Every alias names one model only.
	seen := map[string]string{}
	for name, m := range Models {
		for _, a := range append([]string{name}, m.Aliases...) {
			if other, dup := seen[a]; dup {
				t.Errorf("%q is both %s and %s", a, other, name)
			}
			seen[a] = name
		}
	}
}

func TestShutdownNote(t *testing.T) {
	now := time.Date(2026, 11, 28, 15, 0, 0, 0, time.UTC)
	for shutdown, want := range map[string]string{
		"2026-10-23": "was shut down on 2026-10-23",
		"2026-12-11": "shuts down on 2026-12-11, in 13 days",
		"2027-06-01": "",
		"":           "",
	} {
		got := ShutdownNote("m", shutdown, now, ShutdownWarnDays)
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("ShutdownNote(%q) = %q, want %q", shutdown, got, want)
		}
	}
}

// An image model's entry prices pictures: its name is no chat model with
// a price of nothing, and a chat model's entry prices no picture.
func TestImagePrices(t *testing.T) {
	tab := Default.With(Table{"drawer": {Image: 0.02}, "both": {Input: 1, Output: 2, Image: 0.05}})
	if _, _, ok := tab.Lookup("drawer"); ok {
		t.Error("an image model's entry priced chat tokens")
	}
	if usd, ok := tab.LookupImage("drawer"); !ok || usd != 0.02 {
		t.Errorf("drawer: %v %v", usd, ok)
	}
	if _, _, ok := tab.Lookup("both"); !ok {
		t.Error("an entry with both lost its token price")
	}
	if _, ok := tab.LookupImage(DefaultModel); ok {
		t.Errorf("chat model %s priced pictures", DefaultModel)
	}
	if usd, ok := tab.LookupImage("gpt-image-1.5-2025-12-16"); !ok || usd != 0.133 {
		t.Errorf("the alias of gpt-image-1.5: %v %v", usd, ok)
	}
}
