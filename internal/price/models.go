package price

import (
	"fmt"
	"maps"
	"slices"
	"time"
)

// Checked is when Models was last compared with OpenAI's own pages. Its
// figures change: a config file's prices win over these.
const Checked = "2026-11-28"

// Sources are the pages Models was checked against on Checked: each
// model's page on developers.openai.com (docs/models/NAME) for its
// context window, prices (standard tier, USD per 1M tokens) and the
// endpoints and parameters it takes, and the deprecations page for
// shutdown dates (the same dates GET /v1/models gives as shutdown_date).
var Sources = []string{
	"https://developers.openai.com/api/docs/models",
	"https://developers.openai.com/api/docs/deprecations",
	"https://developers.openai.com/api/docs/pricing",
}

// DefaultModel is the model a run asks for when none is set: OpenAI's
// replacement for gpt-4.1-mini (shut down 2027-01-14), priced lowest of
// its current models and able to call tools through Chat Completions
// (with reasoning_effort none, which Caps.ToolsNeedNoReasoning sends).
const DefaultModel = "gpt-6-luna"

// DefaultImageModel is the image model asked for on OpenAI when none is
// set: without one the API falls back to the removed dall-e-2.
const DefaultImageModel = "gpt-image-2.6-sunburst"

// Caps are what a model takes on OpenAI's Chat Completions and Images
// APIs. A model not in the table has none known: the client sends what
// the settings say.
type Caps struct {
	// Tools: the model calls function tools through Chat Completions.
	Tools bool
	// NoParallelToolCalls: the model refuses the parallel_tool_calls
	// field (400 "Unsupported parameter"), as o-series reasoning models do.
	NoParallelToolCalls bool
	// ToolsNeedNoReasoning: Chat Completions takes tools only with
	// reasoning_effort "none" (GPT-6 Luna and Sol, GPT-5.6: "Chat
	// Completions supports function calling only with reasoning_effort
	// set to none").
	ToolsNeedNoReasoning bool
	// CompletionTokens: the answer cap must go in max_completion_tokens;
	// reasoning models refuse max_tokens.
	CompletionTokens bool
	// Vision: takes image input.
	Vision bool
	// Batch: served by the Batch API.
	Batch bool
	// Images: draws on POST /images/generations.
	Images bool
	// ResponseFormat: an image model that takes response_format (DALL·E);
	// GPT image models always answer b64_json and refuse the field.
	ResponseFormat bool
}

// Model is one model's entry: what it costs, how much it reads, what it
// takes, and when it goes away.
type Model struct {
	// Price is nil when no price was found: a run then counts tokens
	// only, and --max-cost refuses to start.
	Price *Price
	// Context is the context window in tokens; 0 when not known.
	Context int
	Caps    Caps
	// Shutdown is the day (YYYY-MM-DD) OpenAI stops serving the model,
	// "" when none is announced.
	Shutdown string
	// Aliases are other names of the same model (dated snapshots),
	// listed one by one: a name is never guessed from a prefix, since
	// o3-pro costs ten times o3 and gpt-5-pro twelve times gpt-5.
	Aliases []string
}

func p(in, cached, out float64) *Price { return &Price{Input: in, CachedInput: cached, Output: out} }

// image is an image model's price of one picture (Price.Image).
func image(usd float64) *Price { return &Price{Image: usd} }

// gpt6 are the capabilities the GPT-6 and GPT-5.6 model pages list for
// Chat Completions: text and image input, tools with reasoning off,
// max_completion_tokens, the Batch API.
var gpt6 = Caps{Tools: true, ToolsNeedNoReasoning: true, CompletionTokens: true, Vision: true, Batch: true}

// chat41 are GPT-4.1's and GPT-4o's: tools, parallel calls, vision, batch.
var chat41 = Caps{Tools: true, Vision: true, Batch: true}

// reasoning5 are GPT-5's: tools, max_completion_tokens only.
var reasoning5 = Caps{Tools: true, CompletionTokens: true, Vision: true, Batch: true}

// Models is the one table of OpenAI models, checked on Checked against
// Sources. Figures that were not found are left out rather than guessed
// (GPT-6 Astra, GPT-6.1 Sol, o3-pro and gpt-5-pro have no entry; a
// model shut down has no price; the context of models going away was not
// re-read). The prices of models going away are the previous table's
// (checked 2026-11-26), their shutdown dates today's. The config file's
// prices and models add to it or override it.
var Models = map[string]Model{
	// Current models (no shutdown announced).
	"gpt-6-luna":   {Price: p(0.10, 0.01, 0.50), Context: 1_050_000, Caps: gpt6},
	"gpt-6-sol":    {Price: p(2, 0.20, 10), Context: 1_050_000, Caps: gpt6},
	"gpt-5.6-luna": {Price: p(0.20, 0.02, 1.20), Context: 1_050_000, Caps: gpt6},
	// GPT-6.1 Terra's and GPT-6.2 Sol's pages send tool calling to the
	// Responses API (6.2 Sol refuses reasoning_effort none): no tools here.
	"gpt-6.1-terra": {Price: p(1, 0.05, 5), Context: 1_050_000, Caps: Caps{CompletionTokens: true, Vision: true, Batch: true}},
	"gpt-6.2-sol":   {Price: p(2, 0.10, 10), Context: 1_050_000, Caps: Caps{CompletionTokens: true, Vision: true, Batch: true}},

	// Shut down on 2027-01-14 (replacement: gpt-6-luna).
	"gpt-4.1":      {Price: p(2, 0.50, 8), Caps: chat41, Shutdown: "2027-01-14", Aliases: []string{"gpt-4.1-2025-04-14"}},
	"gpt-4.1-mini": {Price: p(0.40, 0.10, 1.60), Caps: chat41, Shutdown: "2027-01-14", Aliases: []string{"gpt-4.1-mini-2025-04-14"}},
	"gpt-4o":       {Price: p(2.50, 1.25, 10), Caps: chat41, Shutdown: "2027-01-14", Aliases: []string{"gpt-4o-2024-08-06", "gpt-4o-2024-11-20"}},
	"gpt-4o-mini":  {Price: p(0.15, 0.075, 0.60), Caps: chat41, Shutdown: "2027-01-14", Aliases: []string{"gpt-4o-mini-2024-07-18"}},

	// Shut down on 2026-12-11.
	"gpt-5":      {Price: p(1.25, 0.125, 10), Caps: reasoning5, Shutdown: "2026-12-11", Aliases: []string{"gpt-5-2025-08-07"}},
	"gpt-5-mini": {Price: p(0.25, 0.025, 2), Caps: reasoning5, Shutdown: "2026-12-11", Aliases: []string{"gpt-5-mini-2025-08-07"}},
	"gpt-5-nano": {Price: p(0.05, 0.005, 0.40), Caps: reasoning5, Shutdown: "2026-12-11", Aliases: []string{"gpt-5-nano-2025-08-07"}},
	"o3": {Price: p(2, 0.50, 8), Shutdown: "2026-12-11", Aliases: []string{"o3-2025-04-16"},
		Caps: Caps{Tools: true, NoParallelToolCalls: true, CompletionTokens: true, Vision: true, Batch: true}},

	// Shut down on 2026-10-23: kept, without a price, so a run names
	// the shutdown instead of failing on a 404.
	"o4-mini":      {Shutdown: "2026-10-23", Aliases: []string{"o4-mini-2025-04-16"}, Caps: Caps{Tools: true, NoParallelToolCalls: true, CompletionTokens: true}},
	"o3-mini":      {Shutdown: "2026-10-23", Aliases: []string{"o3-mini-2025-01-31"}, Caps: Caps{Tools: true, NoParallelToolCalls: true, CompletionTokens: true}},
	"gpt-4.1-nano": {Shutdown: "2026-10-23", Aliases: []string{"gpt-4.1-nano-2025-04-14"}, Caps: chat41},

	// Image models (POST /images/generations), priced per picture
	// (Price.Image: price.ImageAsked, the "high" column of the per-image
	// table for 1024x1024). GPT Image 2.6 is priced per image token on
	// its pages ($30 per 1M output tokens for Sunburst) with no
	// per-picture figure found: no price, so --max-cost --images asks
	// for one (HowToAddImage). The gpt-image-1.5 and gpt-image-1-mini
	// figures are from third-party copies of OpenAI's per-image table
	// (checked 2026-11-28; llmreference.com for 1-mini: $0.005 / $0.011 /
	// $0.036), not OpenAI's own page: a config file's prices override them.
	"gpt-image-2.6-sunburst": {Caps: Caps{Images: true}},
	"gpt-image-2.6-flare":    {Caps: Caps{Images: true}},
	"chatgpt-image-latest":   {Caps: Caps{Images: true}, Shutdown: "2026-12-01"},
	"gpt-image-1.5":          {Price: image(0.133), Caps: Caps{Images: true}, Shutdown: "2026-12-01", Aliases: []string{"gpt-image-1.5-2025-12-16"}},
	"gpt-image-1-mini":       {Price: image(0.036), Caps: Caps{Images: true}, Shutdown: "2026-12-01"},
	"gpt-image-1":            {Caps: Caps{Images: true}, Shutdown: "2026-10-23"},
	// DALL·E: removed (the pages give no date still listed); kept for
	// response_format, which they alone take, for servers that imitate them.
	"dall-e-3": {Caps: Caps{Images: true, ResponseFormat: true}},
	"dall-e-2": {Caps: Caps{Images: true, ResponseFormat: true}},
}

// Info finds model's entry by its name or one of its aliases, exactly.
func Info(model string) (Model, bool) {
	if m, ok := Models[model]; ok {
		return m, true
	}
	for _, name := range slices.Sorted(maps.Keys(Models)) {
		if slices.Contains(Models[name].Aliases, model) {
			return Models[name], true
		}
	}
	return Model{}, false
}

// ShutdownNote says, for messages, that model is shut down or will be
// within warnDays of now, naming the day; "" otherwise or when unknown.
func ShutdownNote(model, shutdown string, now time.Time, warnDays int) string {
	day, err := time.Parse(time.DateOnly, shutdown)
	if err != nil {
		return ""
	}
	days := int(day.Sub(now.Truncate(24*time.Hour)).Hours() / 24)
	switch {
	case days <= 0:
		return fmt.Sprintf("model %q was shut down on %s", model, shutdown)
	case days <= warnDays:
		return fmt.Sprintf("model %q shuts down on %s, in %d days", model, shutdown, days)
	}
	return ""
}

// ShutdownWarnDays is how long before a model's shutdown a run and
// doctor warn.
const ShutdownWarnDays = 90

// Replacement is the fix line for a model being shut down.
func Replacement() string {
	return fmt.Sprintf("choose a current model with --model (model in the config file), e.g. %s", DefaultModel)
}

// defaultTable is Models' prices by name and alias.
func defaultTable() Table {
	t := Table{}
	for name, m := range Models {
		if m.Price == nil {
			continue
		}
		t[name] = *m.Price
		for _, a := range m.Aliases {
			t[a] = *m.Price
		}
	}
	return t
}
