package cmd

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/internal/clip"
	"github.com/lessongen/lessongen/internal/price"
	"github.com/lessongen/lessongen/internal/redact"
	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/modality"
)

// Check statuses: fail means generation will not work as configured.
const (
	checkOK   = "ok"
	checkWarn = "warn"
	checkFail = "fail"
)

// check is one finding of doctor. It never holds the key or what the model
// wrote.
type check struct {
	Name    string `json:"name"`
	Status  string `json:"status"`
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`
}

type doctorOptions struct {
	io  *IOStreams
	reg *modality.Registry
	// settings reads the probe's settings: flags, environment, config file.
	settings func() (*settings, error)
	asJSON   bool
}

// newCmdDoctor builds doctor; runF, when set, runs in place of runDoctor
// with the options the flags filled (tests).
func newCmdDoctor(f *factory, runF func(*doctorOptions) error) *cobra.Command {
	opts := &doctorOptions{io: f.io, reg: f.registry}
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check that the configured model server can run generation",
		Long: `Probe the model server with the settings generate would use: that it
answers, that /models lists the model, and a two-turn tool-calling
conversation as a subagent has one — tool names and arguments as sent, the
tool results returned, whether it accepts strict schemas, makes parallel
tool calls and reports plausible token usage — then one request the size of
a real subagent's (its tools included), reporting the context it found.
Each check prints ok, warn or fail with what to change.

Exit code 0 when generation will work (warnings allowed), 1 when it will
not, 2 for invalid settings. Neither the API key nor the model's text is
printed.`,
		Example: "  lessongen doctor\n  lessongen doctor --base-url http://localhost:11434/v1 --model llama3.1 --json",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.settings = func() (*settings, error) { return f.settings(cmd) }
			if runF != nil {
				return runF(opts)
			}
			return runDoctor(cmd.Context(), opts)
		},
	}
	addProbeFlags(cmd.Flags())
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "print the checks as JSON")
	return cmd
}

// runDoctor reads the settings and probes the server with them; a
// server's answer, quoted in a check, passes the run's redactor as
// generate's output does.
func runDoctor(ctx context.Context, opts *doctorOptions) error {
	cfg, err := opts.settings()
	if err != nil {
		return err
	}
	red := newRedactor(cfg)
	streams, flush := redactedStreams(opts.io, red)
	defer flush()
	o := *opts
	o.io = streams
	return red.Error(probe(ctx, &o, cfg))
}

// probe runs the checks and prints them.
func probe(ctx context.Context, opts *doctorOptions, cfg *settings) error {
	if ctx == nil {
		ctx = context.Background()
	}
	form, err := bridge.ParseForm(cfg.ToolSchema)
	if err != nil {
		return &usageError{err}
	}
	if cfg.APIKey == "" && strings.HasPrefix(cfg.BaseURL, defaultBaseURL) {
		return usagef("no API key for %s: set LESSONGEN_API_KEY or OPENAI_API_KEY (or api_key in the config file), or point --base-url at a local OpenAI-compatible server", redact.URL(cfg.BaseURL))
	}
	sized, err := sizeProbeTools(opts.reg, form)
	if err != nil {
		return err
	}
	checks := doctorChecks(ctx, cfg, form == bridge.Strict, sized)
	healthy := true
	for _, c := range checks {
		healthy = healthy && c.Status != checkFail
	}
	if opts.asJSON {
		enc := json.NewEncoder(opts.io.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			OK     bool    `json:"ok"`
			Checks []check `json:"checks"`
		}{healthy, checks}); err != nil {
			return err
		}
	} else {
		for _, c := range checks {
			fmt.Fprintf(opts.io.Out, "%-4s  %s: %s\n", c.Status, c.Name, c.Message)
			if c.Fix != "" {
				fmt.Fprintf(opts.io.Out, "      fix: %s\n", c.Fix)
			}
		}
	}
	if !healthy {
		return printed(errors.New("the model server cannot run generation as configured"))
	}
	return nil
}

// addProbeFlags declares the flags of the settings that change what a
// probe sends or how it reads the answer (settingTable's probe); the rest
// (concurrency, budgets, files) mean nothing to one.
func addProbeFlags(dst *pflag.FlagSet) {
	for _, s := range settingTable {
		if s.probe && !s.noFlag {
			s.addFlag(dst)
		}
	}
}

// doctorChecks runs the probes in order; a failure that makes the rest
// meaningless (server unreachable, no tool calls) ends the list. The probes
// go through the client generate uses, with its settings (streaming
// included), so a server that would fail a run fails here.
func doctorChecks(ctx context.Context, cfg *settings, strict bool, sized []llm.Tool) []check {
	out, ok := reachChecks(ctx, cfg)
	if !ok {
		return out
	}
	var adapted []string // the client's warnings: a field refused and left out
	c, err := probeClient(cfg, func(msg string) { adapted = append(adapted, msg) })
	if err != nil {
		return append(out, check{"tool calls", checkFail, err.Error(), ""})
	}
	req, first, found, ok := firstTurnChecks(ctx, c, cfg, strict)
	out = append(out, refusedChecks(adapted)...)
	out = append(out, found...)
	if !ok {
		return out
	}
	// The second turn returns the tool results, as every subagent's does.
	req.Messages = append(req.Messages, first.Message)
	for _, call := range first.Message.ToolCalls {
		req.Messages = append(req.Messages, llm.Message{Role: llm.RoleTool, ToolCallID: call.ID, Content: `{"ok":true,"result":"pong"}`})
	}
	second, err := c.Complete(ctx, req)
	if err != nil {
		f := toolFailure(err, cfg)
		f.Name, f.Message = "tool results", "a turn that returns tool results fails: "+f.Message
		return append(out, f)
	}
	out = append(out, check{"tool results", checkOK, "a second turn with the tool results answers", ""})
	out = append(out, usageCheck(first, second))

	if len(sized) > 0 {
		out = append(out, sizeCheck(ctx, c, sized, cfg))
	}
	if cfg.Images {
		out = append(out, imageCheck(ctx, c, cfg))
	}
	return out
}

// refusedChecks turns the fields the server refused, and the client then
// left out, into warnings: generation works, one request more each run.
func refusedChecks(warnings []string) []check {
	var out []check
	for _, w := range warnings {
		msg, fix, _ := strings.Cut(w, "; to save the refused request, ")
		out = append(out, check{"refused field", checkWarn, msg, fix})
	}
	return out
}

// imageCheck asks the image endpoint for one picture, as --images would:
// a server without the endpoint is a warning (the run keeps its
// placeholders), any other failure fails with the server's fix.
func imageCheck(ctx context.Context, c *llm.Client, cfg *settings) check {
	by := cmp.Or(imageModel(cfg), "the server's image model")
	data, _, err := c.GenerateImage(ctx, "lessongen doctor: a plain red square")
	switch {
	case errors.Is(err, llm.ErrNoImageEndpoint):
		return check{"images", checkWarn, err.Error(), "point --base-url at a server with the OpenAI images API, or run without --images"}
	case err != nil:
		f := toolFailure(err, cfg)
		f.Name, f.Message = "images", "POST /images/generations with "+by+" fails: "+f.Message
		if f.Fix == "" {
			f.Fix = "check --image-model (" + by + ") against the server's image models"
		}
		return f
	case len(data) == 0:
		return check{"images", checkFail, "the image endpoint answered no picture", ""}
	}
	return check{"images", checkOK, fmt.Sprintf("%s drew a picture of %d bytes", by, len(data)), ""}
}

// reachChecks checks that the server answers and lists the model; false
// when it cannot be used at all (unreachable, credentials refused).
func reachChecks(ctx context.Context, cfg *settings) ([]check, bool) {
	base := redact.URL(cfg.BaseURL)
	listed, err := listModels(ctx, cfg)
	switch {
	case errors.Is(err, llm.ErrUnreachable):
		return []check{{"reachable", checkFail, fmt.Sprintf("no connection to %s", base),
			"check --base-url and that the server is running"}}, false
	case errors.Is(err, llm.ErrAuth):
		return []check{{"reachable", checkFail, fmt.Sprintf("%s refused the credentials", base),
			"set LESSONGEN_API_KEY or OPENAI_API_KEY to a key the server accepts"}}, false
	case err != nil:
		return []check{{"reachable", checkOK, fmt.Sprintf("%s answers", base), ""},
			{"models", checkWarn, "the server does not list its models (" + err.Error() + ")", ""}}, true
	}
	out := []check{{"reachable", checkOK, fmt.Sprintf("%s answers", base), ""}}
	shutdown, ok := listed[cfg.Model]
	if !ok {
		return append(out, check{"models", checkWarn, fmt.Sprintf("model %q is not among the %d listed", cfg.Model, len(listed)),
			"check --model against the server's model names"}), true
	}
	// The server's own shutdown_date first, else the table's.
	from := "GET /models"
	if m, known := modelInfo(cfg, cfg.Model); shutdown == "" && known {
		shutdown, from = m.Shutdown, "OpenAI's deprecations page"
		if _, own := cfg.Models[cfg.Model]; own {
			from = "models in the config file"
		}
	}
	if note := price.ShutdownNote(cfg.Model, shutdown, time.Now(), price.ShutdownWarnDays); note != "" {
		return append(out, check{"models", checkWarn, fmt.Sprintf("model %q is listed, but %s (%s)", cfg.Model, strings.TrimPrefix(note, fmt.Sprintf("model %q ", cfg.Model)), from),
			price.Replacement()}), true
	}
	return append(out, check{"models", checkOK, fmt.Sprintf("model %q is listed", cfg.Model), ""}), true
}

// firstTurnChecks sends the first turn, which asks for two tool calls:
// whether strict schemas are accepted (probed whatever the setting, so the
// answer says whether the setting can stay), whether the calls round-trip,
// and whether they come in parallel. It returns the request and answer
// the second turn continues; false when there is none.
func firstTurnChecks(ctx context.Context, c *llm.Client, cfg *settings, strict bool) (llm.Request, llm.Response, []check, bool) {
	var out []check
	req := pingRequest(true)
	first, err := c.Complete(ctx, req)
	switch {
	case err == nil:
		out = append(out, check{"strict schemas", checkOK, "accepted", ""})
	case strings.Contains(setupFixOf(err), "strict"):
		st := checkWarn
		if strict {
			st = checkFail
		}
		out = append(out, check{"strict schemas", st, "the server rejects strict schemas", "use --tool-schema compatible"})
		req = pingRequest(false)
		if first, err = c.Complete(ctx, req); err != nil {
			return req, first, append(out, toolFailure(err, cfg)), false
		}
	default:
		return req, first, append(out, toolFailure(err, cfg)), false
	}
	if fail, ok := checkPingCalls(first, req.Tools); !ok {
		return req, first, append(out, fail), false
	}
	out = append(out, check{"tool calls", checkOK, "a tool call round-trips", ""})
	if n := len(first.Message.ToolCalls); n == 1 {
		out = append(out, check{"parallel tool calls", checkWarn, "asked for two calls in one turn, got one: each turn fills one item, so more turns are needed",
			parallelFix(cfg)})
	} else {
		out = append(out, check{"parallel tool calls", checkOK, fmt.Sprintf("%d calls in one turn", n), ""})
	}
	return req, first, out, true
}

// checkPingCalls checks the first turn's calls as the agent would read
// them: a call written as text, a name the server mangled (resent and
// appended, merged across calls), arguments that do not parse.
func checkPingCalls(resp llm.Response, tools []llm.Tool) (check, bool) {
	calls := resp.Message.ToolCalls
	if len(calls) == 0 {
		if llm.UnparsedToolCall(resp.Message.Content, tools) {
			return check{"tool calls", checkFail, llm.ErrUnparsedToolCalls.Error(),
				"vLLM: --tool-call-parser for this model; llama.cpp: --jinja with a template that supports tools; Ollama: a model with tool support"}, false
		}
		return check{"tool calls", checkFail, "the model answered without calling the tool",
			"use a model (and chat template) that supports tool calling"}, false
	}
	for _, call := range calls {
		if call.Name != "ping" {
			return check{"tool names", checkFail, fmt.Sprintf("the tool ping came back named %q: the server resends or merges names in streamed calls", call.Name),
				"update the server, or run without --stream"}, false
		}
		var args struct {
			N *int `json:"n"`
		}
		if json.Unmarshal([]byte(call.Arguments), &args) != nil || args.N == nil {
			return check{"tool arguments", checkFail, fmt.Sprintf("ping's arguments came back as %q, not {\"n\": …}", clip.String(call.Arguments, 80)),
				"update the server, or run without --stream"}, false
		}
	}
	return check{}, true
}

// usageCheck compares the usage of the two turns: none is a warning (the
// summary's counts stay 0); a second prompt counted no larger than the
// first, or more completion tokens than the answer has bytes, means the
// server's figures are wrong (counted once per chunk, say), and
// --max-tokens-total would stop a run early or late.
func usageCheck(first, second llm.Response) check {
	u1, u2 := first.Usage, second.Usage
	if u1.PromptTokens == 0 && u1.CompletionTokens == 0 {
		return check{"usage", checkWarn, "the server reports no token usage: the summary's token counts stay 0", ""}
	}
	size := len(first.Message.Content)
	for _, c := range first.Message.ToolCalls {
		size += len(c.Name) + len(c.Arguments)
	}
	switch {
	case u2.PromptTokens <= u1.PromptTokens:
		return check{"usage", checkWarn, fmt.Sprintf("the second turn's prompt counted %d tokens, no more than the first's %d: the server's usage looks wrong", u2.PromptTokens, u1.PromptTokens),
			"do not rely on --max-tokens-total with this server"}
	case u1.CompletionTokens > int64(size)+64:
		return check{"usage", checkWarn, fmt.Sprintf("%d completion tokens for an answer of %d bytes: the server's usage looks counted many times over", u1.CompletionTokens, size),
			"do not rely on --max-tokens-total with this server"}
	}
	return check{"usage", checkOK, "token usage is reported", ""}
}

// sizeProbeBytes is the prompt text of the size probe: what a subagent's
// prompt holds with its describe chain, pending list and sibling notes.
const sizeProbeBytes = 8 << 10

// sizeCheck sends one request the size of a real subagent's, the largest
// level's tools included, and reports the context the server showed: its
// refusal with the limit it names, or a prompt counted short (Ollama cuts
// a prompt to num_ctx without saying so).
func sizeCheck(ctx context.Context, c *llm.Client, tools []llm.Tool, cfg *settings) check {
	filler := strings.Repeat("This sentence stands for the context a real subagent is given. ", sizeProbeBytes/64)
	req := llm.Request{Tools: tools, Messages: []llm.Message{
		{Role: llm.RoleSystem, Content: "lessongen doctor: a request the size of a real one. Answer with the word ok and call no tool.\n" + filler},
		{Role: llm.RoleUser, Content: "Answer with the word ok."},
	}}
	approx := len(filler)
	for _, t := range tools {
		approx += len(t.Name) + len(t.Description) + len(t.Parameters)
	}
	resp, err := c.Complete(ctx, req)
	if err != nil {
		f := toolFailure(err, cfg)
		f.Name, f.Message = "request size", fmt.Sprintf("a request of %d KB, the size of a real subagent's, fails: %s", approx>>10, f.Message)
		if f.Fix == "" {
			f.Fix = "give the server a larger context (llama.cpp -c, Ollama num_ctx, vLLM --max-model-len)"
		}
		return f
	}
	found := resp.Usage.PromptTokens
	switch {
	case found == 0:
		return check{"request size", checkOK, fmt.Sprintf("a request of %d KB, the size of a real subagent's, is answered (the server counts no tokens)", approx>>10), ""}
	case found < int64(approx/8):
		// About 4 bytes a token: well under half of that was read.
		return check{"request size", checkWarn, fmt.Sprintf("a request of %d KB was counted as %d prompt tokens, far fewer than it holds: the server seems to cut prompts to a context of about %d tokens", approx>>10, found, found),
			"give the server a larger context (Ollama: num_ctx; llama.cpp: -c)"}
	}
	return check{"request size", checkOK, fmt.Sprintf("a request of %d KB, the size of a real subagent's, is answered: %d prompt tokens fit the server's context", approx>>10, found), ""}
}

// sizeProbeTools is the tool list of the level whose tools weigh most,
// as generate would send it.
func sizeProbeTools(reg *modality.Registry, form bridge.Form) ([]llm.Tool, error) {
	if reg == nil {
		return nil, nil
	}
	br, err := bridge.New(reg)
	if err != nil {
		return nil, err
	}
	var best []llm.Tool
	bestSize := 0
	for _, l := range br.Levels() {
		c, err := br.Catalog(l.Modality)
		if err != nil {
			return nil, err
		}
		var tools []llm.Tool
		size := 0
		for _, t := range append(c.Tools(l, form), br.LocalTools(l, form, false)...) {
			tools = append(tools, llm.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters, Strict: t.Strict})
			size += len(t.Description) + len(t.Parameters)
		}
		if size > bestSize {
			best, bestSize = tools, size
		}
	}
	return best, nil
}

func parallelFix(cfg *settings) string {
	if !cfg.ParallelToolCalls {
		return "remove parallel_tool_calls: false, or check the server"
	}
	return "the server or model ignores parallel_tool_calls; generation still works, one item per turn"
}

// toolFailure turns a failed probe into a check, with the server's own
// fix when it named one, else the fix generate would print.
func toolFailure(err error, cfg *settings) check {
	c := check{Name: "tool calls", Status: checkFail, Message: firstLine(err.Error()), Fix: setupFixOf(err)}
	if c.Fix == "" {
		// Only a line that is a fix: a server's message may end with a
		// line of its own (pydantic's "For further information visit …").
		if last := lastLine(explainProvider(err, cfg).Error()); strings.HasPrefix(last, "fix: ") {
			c.Fix = strings.TrimPrefix(last, "fix: ")
		}
	}
	return c
}

func setupFixOf(err error) string {
	var pe *llm.ProviderError
	if errors.As(err, &pe) {
		return pe.Fix
	}
	return ""
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func lastLine(s string) string {
	return s[strings.LastIndex(s, "\n")+1:]
}

// probeClient is the client generate would make, retries included, so a
// failure generate would retry past does not fail the probe.
func probeClient(cfg *settings, warn func(string)) (*llm.Client, error) {
	c := llm.Config{
		BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, Model: cfg.Model, Warn: warn, ImageModel: imageModel(cfg),
		Temperature: cfg.Temperature, Seed: cfg.Seed, MaxTokens: cfg.MaxTokens,
		TurnTimeout: cfg.Timeout, AttemptTimeout: cfg.AttemptTimeout,
		MaxRetries: retries(cfg.Retries), TokenField: cfg.TokenField, NoParallelToolCalls: !cfg.ParallelToolCalls,
		Stream: cfg.Stream, MaxAnswerBytes: cfg.MaxAnswerBytes,
	}
	modelWire(cfg, &c)
	return llm.New(c)
}

// pingRequest asks for two calls of a tiny tool in one turn.
func pingRequest(strict bool) llm.Request {
	return llm.Request{
		Messages: []llm.Message{
			{Role: llm.RoleSystem, Content: "lessongen doctor: a check that tool calling works. Call the tool ping twice in this one turn, with n 1 and with n 2, and write nothing else. When the results come back, answer with the word done."},
			{Role: llm.RoleUser, Content: "Call ping with n 1 and ping with n 2, both now."},
		},
		Tools: []llm.Tool{{
			Name: "ping", Description: "Answer a ping.", Strict: strict,
			Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}`),
		}},
	}
}

// listModels reads GET /models and returns the model ids, each with its
// shutdown_date (YYYY-MM-DD) where the server gives one (OpenAI does,
// for models it has announced a shutdown of), else "".
func listModels(ctx context.Context, cfg *settings) (map[string]string, error) {
	ctx, cancel := context.WithTimeout(ctx, min(max(cfg.Timeout, time.Second), 30*time.Second))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(cfg.BaseURL, "/")+"/models", nil)
	if err != nil {
		return nil, err
	}
	if cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+cfg.APIKey)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w", llm.ErrUnreachable)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 4<<20))
	switch {
	case res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusForbidden:
		return nil, llm.ErrAuth
	case res.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("GET /models answered %d", res.StatusCode)
	}
	var list struct {
		Data []struct {
			ID       string  `json:"id"`
			Shutdown *string `json:"shutdown_date"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, errors.New("GET /models did not answer a model list")
	}
	ids := make(map[string]string, len(list.Data))
	for _, m := range list.Data {
		ids[m.ID] = ""
		if m.Shutdown != nil {
			ids[m.ID] = *m.Shutdown
		}
	}
	return ids, nil
}
