package event

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestRedacted(t *testing.T) {
	var buf bytes.Buffer
	sink := Redacted(JSONLines(&buf, time.Now), func(s string) string { return strings.ReplaceAll(s, "SECRET", "[redacted]") })
	sink(Event{Kind: ToolCall, Node: "SECRET", Level: "SECRET", Text: "a SECRET", Tool: "SECRET", CallID: "SECRET",
		Args: `{"text":"SECRET"}`, Error: "SECRET!", Status: "stopped: SECRET", Files: []string{"SECRET.yaml"},
		Result: json.RawMessage(`{"ok":true,"result":["SECRET"]}`)})
	out := buf.String()
	if strings.Contains(out, "SECRET") {
		t.Errorf("secret in event: %s", out)
	}
	var e Event
	if err := json.Unmarshal(buf.Bytes(), &e); err != nil {
		t.Fatalf("redacted event is not JSON: %v", err)
	}
	if e.Text != "a [redacted]" || string(e.Result) != `{"ok":true,"result":["[redacted]"]}` {
		t.Errorf("got %+v", e)
	}
}
