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
		{"Azure OpenAI: parallel_tool_calls", fakellm.Quirks{AzureParallelToolCalls: true}, false, "--parallel-tool-calls=false"},
		{"Azure OpenAI before 2024-09: stream_options", fakellm.Quirks{AzureStreamOptions: true}, true, "run without --stream"},
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
			_, err := newClient(t, Config{BaseURL: srv.URL(), Clock: newFakeClock(), Stream: tc.stream}).Complete(context.Background(), req)
			pe := providerError(t, err)
			if !strings.Contains(pe.Fix, tc.fix) || pe.Retryable || !Systemic(err) || srv.RequestCount() != 1 {
				t.Errorf("%v\n(retryable %v, systemic %v, %d requests); want fix %q, no retry, systemic", err, pe.Retryable, Systemic(err), srv.RequestCount(), tc.fix)
			}
		})
	}
}
