package llm

import (
	"encoding/json"
	"strings"
	"testing"
)

func cacheClient(t testing.TB) *Client {
	c, err := New(Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A tool's wire form is built once and reused; the same definition with
// other schema bytes (a reused buffer) is built afresh, not served stale.
func TestToolWireFormCached(t *testing.T) {
	c := cacheClient(t)
	params := []byte(`{"type":"object","properties":{"a":{"type":"string"}}}`)
	tl := Tool{Name: "t", Description: "d", Parameters: params}
	first, err := c.params(Request{Tools: []Tool{tl}})
	if err != nil {
		t.Fatal(err)
	}
	again, _ := c.params(Request{Tools: []Tool{tl}})
	if a, b := first.Tools[0].OfFunction, again.Tools[0].OfFunction; a == nil || b == nil || &a.Function.Parameters == nil {
		t.Fatal("no function tool")
	}
	n := 0
	c.tools.Range(func(any, any) bool { n++; return true })
	if n != 1 {
		t.Errorf("%d cached tools after two requests with one tool, want 1", n)
	}
	copy(params, `{"type":"object","properties":{"b":{"type":"string"}}}`)
	changed, _ := c.params(Request{Tools: []Tool{tl}})
	data, _ := json.Marshal(changed.Tools[0])
	if !strings.Contains(string(data), `"b":{"type":"string"}`) {
		t.Errorf("stale schema served: %s", data)
	}
}

// BenchmarkRequestParams builds the wire request of a turn with the
// whiteboard's 11 tools: the tools' part is built once, not every turn.
func BenchmarkRequestParams(b *testing.B) {
	c := cacheClient(b)
	schema := []byte(`{"type":"object","properties":{"x":{"type":"number","description":"left edge"},"y":{"type":"number"},"w":{"type":"number"},"h":{"type":"number"},"text":{"type":"string"},"style":{"type":["object","null"],"properties":{"font_size":{"type":["number","null"]},"color":{"type":["string","null"]}},"required":["font_size","color"],"additionalProperties":false}},"required":["x","y","w","h","text","style"],"additionalProperties":false}`)
	var tools []Tool
	for i := range 11 {
		tools = append(tools, Tool{Name: "tool" + string(rune('a'+i)), Description: "Add something.", Parameters: schema, Strict: true})
	}
	req := Request{Messages: []Message{{Role: RoleSystem, Content: "p"}, {Role: RoleUser, Content: "u"}}, Tools: tools}
	for b.Loop() {
		if _, err := c.params(req); err != nil {
			b.Fatal(err)
		}
	}
}
