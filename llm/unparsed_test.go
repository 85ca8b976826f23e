package llm

import "testing"

func TestUnparsedToolCall(t *testing.T) {
	tools := []Tool{{Name: "set_heading"}, {Name: "add_text"}}
	for text, want := range map[string]bool{
		`<tool_call>{"name": "set_heading", "arguments": {"heading": "Leaves"}}</tool_call>`: true,
		"```json\n{\"name\": \"add_text\", \"arguments\": {\"text\": \"x\"}}\n```":           true,
		`I will call it: {"name": "set_heading", "parameters": {"heading": "Leaves"}}`:       true,
		`[TOOL_CALLS][{"name": "set_heading", "arguments": {}}]`:                             true,
		`{"type": "function", "function": {"name": "add_text", "arguments": "{}"}}`:          true,
		`Done: the heading is set.`:                                 false,
		`{"name": "not_offered", "arguments": {}}`:                  false,
		`The board reads {"name": "set_heading"} as its title`:      false,
		`{"heading": "Leaves"}`:                                     false,
		`{broken {"name": "add_text", "arguments": {"x": 1}} after`: true,
	} {
		if got := UnparsedToolCall(text, tools); got != want {
			t.Errorf("UnparsedToolCall(%q) = %v, want %v", text, got, want)
		}
	}
}
