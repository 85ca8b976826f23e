package llm

import (
	"context"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/fakellm"
)

// Every refusal of a server not set up for the request gets its fix line
// and is never retried as transient, whatever its status (llama.cpp's
// "Cannot use tools with stream" is a 500, once retried 23 times).
func TestRefusalsGetTheirFix(t *testing.T) {
	tool := Tool{Name: "f", Parameters: []byte(`{"type":"object","properties":{}}`)}
	for _, tc := range []struct {
		server string
		quirks fakellm.Quirks
		stream bool
		fix    string
	}{
		{"Azure OpenAI before 2024-09: stream_options", fakellm.Quirks{AzureStreamOptions: true}, true, "run without --stream"},
		{"newer Azure OpenAI: stream_options", fakellm.Quirks{AzureUnknownParameter: true}, true, "run without --stream"},
		{"Ollama: a model without tools", fakellm.Quirks{OllamaNoTools: true}, false, "does not support tool calling"},
		{"llama.cpp: no streamed tool calls (500)", fakellm.Quirks{LlamaCppNoToolStream: true}, true, "run without --stream"},
		{"llama.cpp without --jinja (500)", fakellm.Quirks{NoJinja: true}, false, "--jinja"},
		{"vLLM without auto tool choice", fakellm.Quirks{NoAutoToolChoice: true}, false, "--enable-auto-tool-choice"},
		{"older vLLM: strict", fakellm.Quirks{RejectStrict: true}, false, "--tool-schema compatible"},
	} {
		t.Run(tc.server, func(t *testing.T) {
			srv := fakellm.Start(t, fakellm.Script{Quirks: tc.quirks, Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Content: "ok"}}}}})
			req := userReq("go")
			tool := tool
			tool.Strict = true
			req.Tools = []Tool{tool}
			_, err := newClient(t, Config{BaseURL: srv.URL(), Clock: newFakeClock(), Stream: tc.stream, NoParallelToolCalls: true}).Complete(context.Background(), req)
			pe := providerError(t, err)
			if !strings.Contains(pe.Fix, tc.fix) || pe.Retryable || !Systemic(err) || srv.RequestCount() != 1 {
				t.Errorf("%v\n(retryable %v, systemic %v, %d requests); want fix %q, no retry, systemic", err, pe.Retryable, Systemic(err), srv.RequestCount(), tc.fix)
			}
		})
	}
}

// Each provider's own wording of a refused field names the field and its
// setting (issue #36: OpenAI's reasoning models and newer Azure got no
// fix line at all).
func TestRefusalWordings(t *testing.T) {
	for msg, want := range map[string]struct{ field, fix string }{
		"Unsupported parameter: 'parallel_tool_calls' is not supported with this model.":                             {fieldParallel, "--parallel-tool-calls=false"},
		"Unknown parameter: 'parallel_tool_calls'.":                                                                  {fieldParallel, "--parallel-tool-calls=false"},
		"Unrecognized request argument supplied: parallel_tool_calls":                                                {fieldParallel, "--parallel-tool-calls=false"},
		"Unknown parameter: 'stream_options'.":                                                                       {"stream_options", "run without --stream"},
		"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.": {fieldMaxTokens, "--token-field max_completion_tokens"},
		"Unrecognized request argument supplied: max_completion_tokens":                                              {fieldCompletionToken, "--token-field max_tokens"},
		"Function tools with reasoning_effort are not supported for gpt-5.6-sol in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.": {fieldReasoning, "--model"},
	} {
		fix, field := setupFix(msg)
		if field != want.field || !strings.Contains(fix, want.fix) {
			t.Errorf("%q: field %q, fix %q; want %q, %q", msg, field, fix, want.field, want.fix)
		}
	}
}

// A refused optional field is dropped (or moved) and the turn sent once
// more, with one warning naming the setting; later turns leave it out
// from the start. A refusal that would change what a run gets is not
// adapted to (TestRefusalsGetTheirFix).
func TestRefusedFieldIsAdaptedTo(t *testing.T) {
	tool := Tool{Name: "f", Parameters: []byte(`{"type":"object","properties":{}}`)}
	for _, tc := range []struct {
		server string
		quirks fakellm.Quirks
		cfg    Config
		gone   string // a field the retried request no longer has
		now    string // what it has instead
		warn   string
	}{
		{"OpenAI reasoning model: parallel_tool_calls", fakellm.Quirks{OpenAIReasoning: true}, Config{}, `"parallel_tool_calls"`, "", "--parallel-tool-calls=false"},
		{"newer Azure: parallel_tool_calls", fakellm.Quirks{AzureUnknownParameter: true}, Config{}, `"parallel_tool_calls"`, "", "--parallel-tool-calls=false"},
		{"older Azure: parallel_tool_calls", fakellm.Quirks{AzureParallelToolCalls: true}, Config{}, `"parallel_tool_calls"`, "", "--parallel-tool-calls=false"},
		{"OpenAI reasoning model: max_tokens", fakellm.Quirks{OpenAIReasoning: true}, Config{MaxTokens: 100, TokenField: TokenFieldMaxTokens, NoParallelToolCalls: true}, `"max_tokens"`, `"max_completion_tokens":100`, "--token-field max_completion_tokens"},
		{"GPT-5.4 and later: tools beside reasoning", fakellm.Quirks{ToolsNeedNoReasoning: true}, Config{}, "", `"reasoning_effort":"none"`, "reasoning_effort none"},
	} {
		t.Run(tc.server, func(t *testing.T) {
			srv := fakellm.Start(t, fakellm.Script{Quirks: tc.quirks, Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Content: "ok"}}, Repeat: true}}})
			var warnings []string
			cfg := tc.cfg
			cfg.BaseURL, cfg.Clock, cfg.Warn = srv.URL(), newFakeClock(), func(s string) { warnings = append(warnings, s) }
			c := newClient(t, cfg)
			req := userReq("go")
			req.Tools = []Tool{tool}
			for turn := range 2 {
				if _, err := c.Complete(context.Background(), req); err != nil {
					t.Fatalf("turn %d: %v", turn, err)
				}
			}
			reqs := srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests, want 3: the refused one, its retry, the next turn", len(reqs))
			}
			for _, r := range reqs[1:] {
				if tc.gone != "" && strings.Contains(string(r.Body), tc.gone) || !strings.Contains(string(r.Body), tc.now) {
					t.Errorf("request after the refusal: %s; want no %s, with %s", r.Body, tc.gone, tc.now)
				}
			}
			if len(warnings) != 1 || !strings.Contains(warnings[0], tc.warn) {
				t.Errorf("warnings %q, want one naming %q", warnings, tc.warn)
			}
		})
	}
}

// A model that takes tools only without reasoning gets reasoning_effort
// none from the first request when the model table says so.
func TestToolsWithoutReasoningFromTheStart(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Quirks: fakellm.Quirks{ToolsNeedNoReasoning: true}, Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Content: "ok"}}}}})
	c := newClient(t, Config{BaseURL: srv.URL(), Clock: newFakeClock(), ToolsWithoutReasoning: true})
	req := userReq("go")
	req.Tools = []Tool{{Name: "f", Parameters: []byte(`{"type":"object","properties":{}}`)}}
	if _, err := c.Complete(context.Background(), req); err != nil || srv.RequestCount() != 1 {
		t.Fatalf("%v after %d requests; want one request that succeeds", err, srv.RequestCount())
	}
	// Without tools, no reasoning_effort: the model reasons as it would.
	if _, err := c.Complete(context.Background(), userReq("text only")); err != nil {
		t.Fatal(err)
	}
	if body := string(srv.Requests()[1].Body); strings.Contains(body, "reasoning_effort") {
		t.Errorf("a request without tools carries reasoning_effort: %s", body)
	}
}
