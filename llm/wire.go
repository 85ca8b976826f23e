package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Values of Config.TokenField.
const (
	TokenFieldAuto                = "auto"
	TokenFieldMaxTokens           = "max_tokens"
	TokenFieldMaxCompletionTokens = "max_completion_tokens"
)

// completionField reports whether the answer cap goes in
// max_completion_tokens. OpenAI deprecated max_tokens and its reasoning
// models refuse it; Ollama and most local servers know only max_tokens.
func completionField(field, host string) (bool, error) {
	switch field {
	case "", TokenFieldAuto:
		h := strings.ToLower(strings.TrimSuffix(host, "."))
		return h == "api.openai.com" || strings.HasSuffix(h, ".openai.com") ||
			strings.HasSuffix(h, ".openai.azure.com"), nil
	case TokenFieldMaxTokens:
		return false, nil
	case TokenFieldMaxCompletionTokens:
		return true, nil
	}
	return false, fmt.Errorf("llm: token field %q is not one of auto, max_tokens, max_completion_tokens", field)
}

// historyArguments is a tool call's arguments as the history sends them
// back. Ollama decodes every one into an object and refuses the whole
// request (400 "invalid tool call arguments") when one is not, the empty
// string included; the call's tool result already tells the model what was
// wrong with what it sent, so the history carries {} instead.
func historyArguments(args string) string {
	trimmed := bytes.TrimSpace([]byte(args))
	if len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(trimmed) {
		return args
	}
	return "{}"
}

// defaultIdleConns is used when Config.IdleConns is 0.
const defaultIdleConns = 16

// newHTTPClient keeps idle connections for as many requests as run at once:
// the default transport keeps 2 per host, so at concurrency 16 most
// requests opened a new connection (and, over HTTPS, a TLS handshake).
func newHTTPClient(idle int) *http.Client {
	if idle <= 0 {
		idle = defaultIdleConns
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = idle
	t.MaxIdleConns = max(t.MaxIdleConns, idle)
	return &http.Client{Transport: t}
}
