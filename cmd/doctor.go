package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/internal/redact"
	"github.com/lessongen/lessongen/llm"
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
	io     *IOStreams
	asJSON bool
}

func newDoctorCmd(streams *IOStreams) *cobra.Command {
	opts := &doctorOptions{io: streams}
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check that the configured model server can run generation",
		Long: `Probe the model server with the configured settings: that it answers, that
/models lists the model, that one small tool-calling request round-trips, and
whether it accepts strict schemas, makes parallel tool calls and reports
token usage. Each check prints ok, warn or fail with what to change.

Exit code 0 when generation will work (warnings allowed), 1 when it will
not, 2 for invalid settings. Neither the API key nor the model's text is
printed.`,
		Example: "  lessongen doctor\n  lessongen doctor --base-url http://localhost:11434/v1 --model llama3.1 --json",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := loadSettings(cmd)
			if err != nil {
				return err
			}
			// A server's answer, quoted in a check, passes the run's
			// redactor as generate's output does.
			red := newRedactor(cfg)
			streams, flush := redactedStreams(opts.io, red)
			defer flush()
			o := *opts
			o.io = streams
			return red.Error(runDoctor(cmd.Context(), &o, cfg))
		},
	}
	addModelFlags(cmd.Flags())
	// doctor probes a live server; a recording has nothing to tell it.
	_ = cmd.Flags().MarkHidden("record")
	_ = cmd.Flags().MarkHidden("replay")
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "print the checks as JSON")
	return cmd
}

func runDoctor(ctx context.Context, opts *doctorOptions, cfg *settings) error {
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
	checks := doctorChecks(ctx, cfg, form == bridge.Strict)
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
		return &silentError{code: ExitFailure, err: errors.New("the model server cannot run generation as configured")}
	}
	return nil
}

// doctorChecks runs the probes in order; a failure that makes the rest
// meaningless (server unreachable) ends the list.
func doctorChecks(ctx context.Context, cfg *settings, strict bool) []check {
	base := redact.URL(cfg.BaseURL)
	var out []check

	listed, err := listModels(ctx, cfg)
	switch {
	case errors.Is(err, llm.ErrUnreachable):
		return append(out, check{"reachable", checkFail, fmt.Sprintf("no connection to %s", base),
			"check --base-url and that the server is running"})
	case errors.Is(err, llm.ErrAuth):
		return append(out, check{"reachable", checkFail, fmt.Sprintf("%s refused the credentials", base),
			"set LESSONGEN_API_KEY or OPENAI_API_KEY to a key the server accepts"})
	case err != nil:
		out = append(out, check{"reachable", checkOK, fmt.Sprintf("%s answers", base), ""},
			check{"models", checkWarn, "the server does not list its models (" + err.Error() + ")", ""})
	default:
		out = append(out, check{"reachable", checkOK, fmt.Sprintf("%s answers", base), ""})
		if listed[cfg.Model] {
			out = append(out, check{"models", checkOK, fmt.Sprintf("model %q is listed", cfg.Model), ""})
		} else {
			out = append(out, check{"models", checkWarn, fmt.Sprintf("model %q is not among the %d listed", cfg.Model, len(listed)),
				"check --model against the server's model names"})
		}
	}

	// Strict schemas, probed whatever the setting, so the answer says
	// whether the setting can stay.
	resp, err := probeTools(ctx, cfg, true)
	strictOK := err == nil
	switch {
	case err == nil:
		out = append(out, check{"strict schemas", checkOK, "accepted", ""})
	case strings.Contains(setupFixOf(err), "strict"):
		st := checkWarn
		if strict {
			st = checkFail
		}
		out = append(out, check{"strict schemas", st, "the server rejects strict schemas", "use --tool-schema compatible"})
	default:
		return append(out, toolFailure(err, cfg))
	}
	if !strictOK {
		if resp, err = probeTools(ctx, cfg, false); err != nil {
			return append(out, toolFailure(err, cfg))
		}
	}

	switch n := len(resp.Message.ToolCalls); {
	case n == 0:
		out = append(out, check{"tool calls", checkFail, "the model answered without calling the tool",
			"use a model (and chat template) that supports tool calling"})
	case n == 1:
		out = append(out, check{"tool calls", checkOK, "a tool call round-trips", ""},
			check{"parallel tool calls", checkWarn, "asked for two calls in one turn, got one: each turn fills one item, so more turns are needed",
				parallelFix(cfg)})
	default:
		out = append(out, check{"tool calls", checkOK, "a tool call round-trips", ""},
			check{"parallel tool calls", checkOK, fmt.Sprintf("%d calls in one turn", n), ""})
	}
	if resp.Usage.PromptTokens > 0 || resp.Usage.CompletionTokens > 0 {
		out = append(out, check{"usage", checkOK, "token usage is reported", ""})
	} else {
		out = append(out, check{"usage", checkWarn, "the server reports no token usage: the summary's token counts stay 0", ""})
	}
	return out
}

func parallelFix(cfg *settings) string {
	if !cfg.ParallelToolCalls {
		return "remove parallel_tool_calls: false, or check the server"
	}
	return "the server or model ignores parallel_tool_calls; generation still works, one item per turn"
}

// toolFailure turns a failed tool-calling probe into a check, with the
// server's own fix when it named one.
func toolFailure(err error, cfg *settings) check {
	c := check{Name: "tool calls", Status: checkFail, Message: firstLine(err.Error()), Fix: setupFixOf(err)}
	if c.Fix == "" {
		c.Fix = firstLine(strings.TrimPrefix(lastLine(explainProvider(err, cfg).Error()), "fix: "))
		if c.Fix == c.Message {
			c.Fix = ""
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

// probeTools asks for two calls of a tiny tool in one turn.
func probeTools(ctx context.Context, cfg *settings, strict bool) (llm.Response, error) {
	c, err := llm.New(llm.Config{
		BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, Model: cfg.Model,
		Temperature: cfg.Temperature, Seed: cfg.Seed, MaxTokens: cfg.MaxTokens,
		TurnTimeout: cfg.Timeout, AttemptTimeout: cfg.AttemptTimeout,
		MaxRetries: -1, TokenField: cfg.TokenField, NoParallelToolCalls: !cfg.ParallelToolCalls,
		Stream: cfg.Stream,
	})
	if err != nil {
		return llm.Response{}, err
	}
	return c.Complete(ctx, llm.Request{
		Messages: []llm.Message{
			{Role: llm.RoleSystem, Content: "lessongen doctor: a check that tool calling works. Call the tool ping twice in this one turn, with n 1 and with n 2, and write nothing else."},
			{Role: llm.RoleUser, Content: "Call ping with n 1 and ping with n 2, both now."},
		},
		Tools: []llm.Tool{{
			Name: "ping", Description: "Answer a ping.", Strict: strict,
			Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}`),
		}},
	})
}

// listModels reads GET /models and returns the model ids.
func listModels(ctx context.Context, cfg *settings) (map[string]bool, error) {
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
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, errors.New("GET /models did not answer a model list")
	}
	ids := make(map[string]bool, len(list.Data))
	for _, m := range list.Data {
		ids[m.ID] = true
	}
	return ids, nil
}
