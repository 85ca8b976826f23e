package llm

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
)

// ErrUnparsedToolCalls is an answer whose text is a tool call the server
// left as text: no retry helps, the server needs its parser fixed.
var ErrUnparsedToolCalls = errors.New("the server did not turn the model's tool calls into tool_calls (check its tool-call parser or chat template)")

// maxUnparsedScan bounds the text searched for a call written as text.
const maxUnparsedScan = 256 << 10

// callMarkers are what chat templates wrap a tool call in when the
// server's tool-call parser is missing or wrong: Hermes and Qwen
// <tool_call>, Mistral [TOOL_CALLS], Llama 3.1 <|python_tag|> and
// <function=…>.
var callMarkers = []string{"<tool_call>", "[tool_calls]", "<|python_tag|>", "<function=", "<|tool_call|>"}

// UnparsedToolCall reports whether text, the content of an answer with no
// tool calls, is plainly a tool call the server did not parse: a
// template's tool-call markup, or a JSON object naming one of tools as
// {"name": …} (with "arguments" or "parameters") — alone, in a code
// fence, or one per line.
func UnparsedToolCall(text string, tools []Tool) bool {
	if len(text) > maxUnparsedScan {
		text = text[:maxUnparsedScan]
	}
	low := strings.ToLower(text)
	for _, m := range callMarkers {
		if strings.Contains(low, m) {
			return true
		}
	}
	offered := func(name string) bool {
		return slices.ContainsFunc(tools, func(t Tool) bool { return t.Name == name })
	}
	for _, obj := range jsonObjects(text) {
		var call struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
			Params    json.RawMessage `json:"parameters"`
			Function  *struct {
				Name string `json:"name"`
			} `json:"function"`
		}
		if json.Unmarshal([]byte(obj), &call) != nil {
			continue
		}
		if call.Function != nil && offered(call.Function.Name) {
			return true
		}
		if offered(call.Name) && (call.Arguments != nil || call.Params != nil) {
			return true
		}
	}
	return false
}

// jsonObjects finds the top-level {…} spans of text that decode as JSON,
// skipping what lies between (prose, code fences).
func jsonObjects(text string) []string {
	var out []string
	for i := 0; i < len(text); i++ {
		if text[i] != '{' {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(text[i:]))
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			continue
		}
		out = append(out, string(raw))
		i += int(dec.InputOffset()) - 1
	}
	return out
}
