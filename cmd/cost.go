package cmd

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/course"
	"github.com/lessongen/lessongen/internal/price"
	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/internal/termsafe"
	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/modalities"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/orchestrate"
	"github.com/lessongen/lessongen/templates"
)

// worstAnswerTokens is the most one answer is taken to hold, for
// --max-cost's worst case, when --max-tokens does not say.
const worstAnswerTokens = 16384

// costFlags are the settings plan --cost reads beside the config file:
// what changes the requests a run would send (their number, their
// bodies), or their price.
var costFlags = []string{"model", "base_url", "templates", "tool_schema", "max_steps", "max_tokens", "token_field",
	"parallel_tool_calls", "temperature", "seed", "stream", "review", "review_images", "sources"}

// addCostFlags declares plan's --cost and the settings it reads.
func addCostFlags(cmd *cobra.Command, opts *planOptions) {
	cmd.Flags().BoolVar(&opts.cost, "cost", false, "estimate the requests, tokens and money the run would spend, from the requests it would send (no request is made)")
	for _, key := range costFlags {
		s, _ := lookupSetting(key)
		s.addFlag(cmd.Flags())
	}
}

// priceOf is the model's price from the config file's prices over
// price.Default.
func priceOf(cfg *settings) (price.Price, string, bool) {
	return price.Default.With(cfg.Prices).Lookup(cfg.Model)
}

// runPlanCost prints plan --cost: the estimate per level and in total,
// and its money at the model's price.
func runPlanCost(cmd *cobra.Command, opts *planOptions) error {
	cfg, err := loadSettings(cmd)
	if err != nil {
		return err
	}
	est, err := estimateCost(cfg, opts)
	if err != nil {
		return err
	}
	p, entry, priced := priceOf(cfg)
	if opts.json {
		return writePlanCostJSON(opts.io.Out, opts.file, cfg.Model, est, p, entry, priced)
	}
	var out strings.Builder
	writePlanCost(&out, opts.file, cfg, est, p, priced)
	_, err = fmt.Fprint(opts.io.Out, termsafe.String(out.String()))
	return err
}

// estimateCost sizes the first request of every subagent the run would
// start, through the client the run would use (nothing is sent): a
// lesson's, or a course's and each of its lessons'.
func estimateCost(cfg *settings, opts *planOptions) (orchestrate.Estimate, error) {
	wire := llm.Config{BaseURL: cfg.BaseURL, Model: cfg.Model, MaxTokens: cfg.MaxTokens,
		Temperature: cfg.Temperature, Seed: cfg.Seed, Stream: cfg.Stream,
		TokenField: cfg.TokenField, NoParallelToolCalls: !cfg.ParallelToolCalls}
	modelWire(cfg, &wire)
	client, err := llm.New(wire)
	if err != nil {
		return orchestrate.Estimate{}, &usageError{err}
	}
	srcs, err := openSources(cfg.Sources)
	if err != nil {
		return orchestrate.Estimate{}, err
	}
	defer srcs.Close()
	run, err := costOptions(cfg, opts.reg, opts.reg, srcs)
	if err != nil {
		return orchestrate.Estimate{}, err
	}
	if course.Sniff(opts.file) {
		return estimateCourseCost(cfg, opts, run, client.RequestBytes)
	}
	doc, err := loadLesson(opts.file, opts.reg)
	if err != nil {
		return orchestrate.Estimate{}, err
	}
	est, err := orchestrate.EstimateCost(doc, orchestrate.Scope{Slide: opts.slide}, run, client.RequestBytes)
	if err != nil {
		return est, &usageError{err}
	}
	return est, nil
}

// costOptions are the run's options as far as they change what is sent:
// the registry's tools, templates, tool schemas, steps, sources, review.
func costOptions(cfg *settings, reg, lessonReg *modality.Registry, srcs *sources.Sandbox) (orchestrate.Options, error) {
	form, err := bridge.ParseForm(cfg.ToolSchema)
	if err != nil {
		return orchestrate.Options{}, &usageError{err}
	}
	tmpl, err := templates.Load(cfg.Templates, templateLevels(lessonReg))
	if err != nil {
		return orchestrate.Options{}, &usageError{err}
	}
	br, err := bridge.New(reg)
	if err != nil {
		return orchestrate.Options{}, err
	}
	run := orchestrate.Options{Bridge: br, Templates: tmpl, Form: form, Approval: bridge.ApproveAuto,
		MaxSteps: cfg.MaxSteps, Review: cfg.Review, Sources: srcs}
	if cfg.ReviewImages {
		// The estimate counts the board as drawn without drawing it.
		run.Shoot = func(context.Context, string) ([]byte, error) { return nil, errors.New("not drawn for an estimate") }
	}
	return run, nil
}

// estimateCourseCost is a course's estimate: its own levels', then each
// lesson's with the course above its chain, as generate runs them. A
// lesson the course still names pending is not counted: its file is
// written once the course's node subagent names it.
func estimateCourseCost(cfg *settings, opts *planOptions, lessonRun orchestrate.Options, size orchestrate.Sizer) (orchestrate.Estimate, error) {
	if opts.slide != "" {
		return orchestrate.Estimate{}, usagef("--slide plans one lesson's slide; run plan on that lesson's file")
	}
	c := &courseRun{opts: &generateOptions{io: opts.io, reg: opts.reg, file: opts.file}}
	if err := c.load(); err != nil {
		return orchestrate.Estimate{}, err
	}
	all, err := c.summaries()
	if err != nil {
		return orchestrate.Estimate{}, err
	}
	reg, err := modalities.Course()
	if err != nil {
		return orchestrate.Estimate{}, err
	}
	run, err := costOptions(cfg, reg, opts.reg, lessonRun.Sources)
	if err != nil {
		return orchestrate.Estimate{}, err
	}
	est, err := orchestrate.EstimateCost(course.NewTree(c.file, courseOverview(all)), orchestrate.Scope{}, run, size)
	if err != nil {
		return est, &usageError{err}
	}
	pending := 0
	for i, path := range c.paths {
		if path == "" {
			pending++
			continue
		}
		doc, err := loadLesson(path, opts.reg)
		if err != nil {
			return est, err
		}
		e, err := orchestrate.EstimateCost(doc, orchestrate.Scope{Above: course.Above(c.file.Course, all, i)}, lessonRun, size)
		if err != nil {
			return est, &usageError{fmt.Errorf("%s: %w", path, err)}
		}
		est = est.Add(e)
	}
	if pending > 0 {
		est.Notes = append(est.Notes, fmt.Sprintf("%s the course's node subagent names not counted: each is written, then generated as a lesson", plural(pending, "pending lesson")))
	}
	return est, nil
}

func writePlanCost(out *strings.Builder, file string, cfg *settings, est orchestrate.Estimate, p price.Price, priced bool) {
	if len(est.Levels) == 0 {
		fmt.Fprintf(out, "%s: nothing to do; nothing is pending.\n", file)
		return
	}
	fmt.Fprintf(out, "%s: an estimate for %s\n\n", file, cfg.Model)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "level\tsubagents\trequests\tprompt tokens\tcompletion tokens\tcost\t")
	row := func(name string, n int, s orchestrate.Spend) {
		money := "-"
		if priced {
			money = price.Money(p.Cost(price.Usage{Prompt: s.Prompt, Completion: s.Completion}))
		}
		fmt.Fprintf(tw, "%s\t%d\t%g\t%d\t%d\t%s\t\n", name, n, s.Requests, s.Prompt, s.Completion, money)
	}
	n := 0
	for _, l := range est.Levels {
		row(l.Level, l.Subagents, l.Spend)
		n += l.Subagents
	}
	row("total", n, est.Total)
	tw.Flush()
	fmt.Fprintf(out, "\nat most %s (%d turns for each subagent); retries not counted\n", plural(est.MaxRequests, "request"), cfg.MaxSteps)
	fmt.Fprintf(out, "prompt tokens: the requests the run would send, at %g bytes a token (an image too); turns, what each adds and completion tokens: as a capable model's recorded run measured\n", orchestrate.BytesPerToken)
	for _, note := range est.Notes {
		fmt.Fprintf(out, "assumed: %s\n", note)
	}
	if priced {
		fmt.Fprintf(out, "money at $%g per 1M tokens in, $%g out, no prompt caching (prices checked %s; prices in the config file override them)\n",
			p.Input, p.Output, price.Checked)
	} else {
		fmt.Fprintln(out, noPrice(cfg.Model))
	}
}

func writePlanCostJSON(w io.Writer, file, model string, est orchestrate.Estimate, p price.Price, entry string, priced bool) error {
	if est.Levels == nil {
		est.Levels = []orchestrate.LevelCost{}
	}
	v := map[string]any{"file": file, "model": model, "estimate": est, "bytes_per_token": orchestrate.BytesPerToken, "cost": nil}
	if priced {
		usd := func(s orchestrate.Spend) float64 {
			return p.Cost(price.Usage{Prompt: s.Prompt, Completion: s.Completion})
		}
		levels := map[string]float64{}
		for _, l := range est.Levels {
			levels[l.Level] = usd(l.Spend)
		}
		v["cost"] = map[string]any{"usd": usd(est.Total), "levels_usd": levels,
			"price": p, "priced_as": entry, "prices_checked": price.Checked}
	} else {
		v["note"] = noPrice(model)
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", termsafe.JSON(data))
	return err
}

// noPrice says a model has no price, and how to give it one.
func noPrice(model string) string {
	return fmt.Sprintf("no price known for model %q: tokens only; %s", model, price.HowToAdd(model))
}

// imagePriceOf is the price of one picture of the image model --images
// asks for (imageModel), from the config file's prices over
// price.Default; false when the model has none, or is the server's own.
func imagePriceOf(cfg *settings) (float64, bool) {
	m := imageModel(cfg)
	if m == "" {
		return 0, false
	}
	return price.Default.With(cfg.Prices).LookupImage(m)
}

// runCost is the money a run spent, for its summary; USD is nil when
// the model has no price.
type runCost struct {
	Model string `json:"model"`
	// USD is the tokens' money and the pictures' (Images).
	USD  *float64 `json:"usd"`
	Note string   `json:"note,omitempty"`
	// Images is what --images spent, on its own; nil without pictures.
	Images *imagesCost `json:"images,omitempty"`
}

// imagesCost is the pictures a run was sent and their money; USD is nil
// when the image model has no price.
type imagesCost struct {
	Model    string   `json:"model"`
	Pictures int      `json:"pictures"`
	USD      *float64 `json:"usd"`
	Note     string   `json:"note,omitempty"`
}

// costOf is what the tokens a run reported, and the pictures the server
// sent it (--images), cost at their models' prices.
func costOf(cfg *settings, s runSummary, pictures int) *runCost {
	c := &runCost{Model: cfg.Model}
	var images float64
	if pictures > 0 {
		img := &imagesCost{Model: cmp.Or(imageModel(cfg), "the server's image model"), Pictures: pictures}
		if each, ok := imagePriceOf(cfg); ok {
			images = each * float64(pictures)
			img.USD = &images
		} else {
			img.Note = fmt.Sprintf("no price known for image model %q: pictures not counted in the cost; %s", img.Model, price.HowToAddImage(cmp.Or(imageModel(cfg), "NAME")))
		}
		c.Images = img
	}
	p, _, ok := priceOf(cfg)
	if !ok {
		c.Note = noPrice(cfg.Model)
		return c
	}
	usd := p.Cost(price.Usage{Prompt: s.Tokens.Prompt, Completion: s.Tokens.Completion, Cached: s.Tokens.Cached}) + images
	c.USD = &usd
	return c
}

// lines are the summary's cost lines: the run's, then its pictures'.
func (c *runCost) lines() []string {
	var out []string
	if c.USD == nil {
		out = append(out, fmt.Sprintf("cost: unknown, model %q has no price (add one under prices in the config file; see plan --cost)", c.Model))
	} else {
		with := ""
		if c.Images != nil && c.Images.USD != nil {
			with = " and its image model's"
		}
		out = append(out, fmt.Sprintf("cost: %s at %s's price%s (prices checked %s)", price.Money(*c.USD), c.Model, with, price.Checked))
	}
	if im := c.Images; im != nil {
		if im.USD == nil {
			out = append(out, fmt.Sprintf("images: %s, cost unknown: image model %q has no price (add one under prices in the config file: image, USD per picture)", plural(im.Pictures, "picture"), im.Model))
		} else {
			out = append(out, fmt.Sprintf("images: %s, %s at %s's price of one (%s)", plural(im.Pictures, "picture"), price.Money(*im.USD), im.Model, price.ImageAsked))
		}
	}
	return out
}

// costCap is --max-cost for the run, nil without it; a model with no
// price is the user's to fix (checkMaxCost, before any request).
func costCap(cfg *settings, model llm.Model) *orchestrate.CostCap {
	if cfg.MaxCost <= 0 {
		return nil
	}
	p, _, _ := priceOf(cfg)
	c := &orchestrate.CostCap{Max: cfg.MaxCost, Price: p, Completion: worstAnswerTokens}
	c.Image, _ = imagePriceOf(cfg)
	if cfg.MaxTokens > 0 {
		c.Completion = cfg.MaxTokens
	}
	c.Size = requestBytes(model)
	return c
}

// requestBytes is how model measures a request's body as sent (a Client,
// or a Batcher over one); nil for a model that cannot say (a replay).
func requestBytes(model llm.Model) func(llm.Request) (int, error) {
	if sized, ok := model.(interface {
		RequestBytes(llm.Request) (int, error)
	}); ok {
		return sized.RequestBytes
	}
	return nil
}

// checkMaxCost refuses --max-cost for a model without a price, and,
// when the run draws pictures, for an image model without one.
func checkMaxCost(cfg *settings, pictures bool) error {
	if cfg.MaxCost <= 0 {
		return nil
	}
	if _, _, ok := priceOf(cfg); !ok {
		why := "which has none"
		if m, known := modelInfo(cfg, cfg.Model); known && m.Shutdown != "" && m.Price == nil {
			why = "which has none: it was shut down on " + m.Shutdown
		}
		return usagef("--max-cost needs the price of model %q, %s\nfix: %s (prices are matched by exact name; the table in internal/price was checked %s)", cfg.Model, why, price.HowToAdd(cfg.Model), price.Checked)
	}
	if _, ok := imagePriceOf(cfg); pictures && !ok {
		m := imageModel(cfg)
		if m == "" {
			return usagef("--max-cost with --images needs the price of a picture, and the image model is the server's own (image_model is not set)\nfix: set --image-model to the model the server draws with, and %s; or run without --images", price.HowToAddImage("NAME"))
		}
		return usagef("--max-cost with --images needs the price of a picture of image model %q, which has none\nfix: %s (matched by exact name; the table in internal/price was checked %s); or run without --images", m, price.HowToAddImage(m), price.Checked)
	}
	return nil
}

// parsePrices reads the prices setting: a list of {model, input,
// cached_input, output} from the config file, or the same list as JSON
// from the environment.
func parsePrices(v any) (price.Table, error) {
	if v == nil {
		return nil, nil
	}
	if s, ok := v.(string); ok {
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return nil, err
		}
	}
	if t, ok := v.(price.Table); ok {
		return t, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, errSettingType
	}
	t := price.Table{}
	for _, it := range list {
		m, p, err := priceEntry(it)
		if err != nil {
			return nil, err
		}
		t[m] = p
	}
	return t, t.Check()
}

// priceEntry reads one {model, input, cached_input, output, image}.
func priceEntry(it any) (string, price.Price, error) {
	m, ok := it.(map[string]any)
	if !ok {
		return "", price.Price{}, errSettingType
	}
	var p price.Price
	model, _ := m["model"].(string)
	fields := map[string]*float64{"input": &p.Input, "cached_input": &p.CachedInput, "output": &p.Output, "image": &p.Image}
	for k, val := range m {
		dst, known := fields[k]
		switch {
		case k == "model":
		case !known:
			return "", p, fmt.Errorf("unknown field %q in a price (want model, input, cached_input, output, image)", k)
		default:
			f, err := parseFloat(val)
			if err != nil {
				return "", p, fmt.Errorf("%s of %q is not a number", k, model)
			}
			*dst = f
		}
	}
	// An image model's entry may hold its picture price alone.
	if model == "" || (m["input"] == nil || m["output"] == nil) && (m["image"] == nil || m["input"] != nil || m["output"] != nil) {
		return "", p, fmt.Errorf("a price needs model, input and output (or, for an image model, image): %v", m)
	}
	return model, p, nil
}

// pricesSchema is the prices setting's JSON Schema.
func pricesSchema() map[string]any {
	usd := map[string]any{"type": "number", "minimum": 0, "description": "USD per 1M tokens"}
	return map[string]any{"type": "array", "items": map[string]any{
		"type": "object",
		"properties": map[string]any{"model": map[string]any{"type": "string"}, "input": usd, "cached_input": usd, "output": usd,
			"image": map[string]any{"type": "number", "minimum": 0, "description": "USD per picture, for an image model (" + price.ImageAsked + ")"}},
		"required":             []any{"model"},
		"anyOf":                []any{map[string]any{"required": []any{"input", "output"}}, map[string]any{"required": []any{"image"}}},
		"additionalProperties": false,
	}}
}
