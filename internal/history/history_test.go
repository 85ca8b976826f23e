package history

import (
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lessongen/lessongen/llm"
)

func conversation() []llm.Message {
	return []llm.Message{
		{Role: llm.RoleSystem, Content: "You fill slides/light.\n"},
		{Role: llm.RoleUser, Content: "Fill every pending item"},
		{Role: llm.RoleAssistant, Content: "", ToolCalls: []llm.ToolCall{
			{ID: "c1", Name: "describe_node", Arguments: `{}`},
			{ID: "c2", Name: "set_text", Arguments: `{"id":"t1","text":"ünïcode \"q\""}`},
		}},
		{Role: llm.RoleTool, ToolCallID: "c1", Content: `{"ok":true}`},
		{Role: llm.RoleTool, ToolCallID: "c2", Content: `{"ok":true}`},
		{Role: llm.RoleAssistant, Content: "done"},
	}
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, Header{Node: "slides/light", Level: "whiteboard.node", ContentHash: "h1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range conversation() {
		if err := w.Append(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.MarkGenerated("t1"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	c, err := Load(dir, "slides/light", "whiteboard.node")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Messages, conversation()) {
		t.Fatalf("messages differ:\n got %#v\nwant %#v", c.Messages, conversation())
	}
	if c.Header.Format != FormatVersion || c.Header.ContentHash != "h1" || !reflect.DeepEqual(c.Header.Generated, []string{"t1"}) {
		t.Fatalf("header %+v", c.Header)
	}
	if !c.Committed["c1"] || !c.Committed["c2"] || len(c.Interrupted) != 0 {
		t.Fatalf("committed %v interrupted %v", c.Committed, c.Interrupted)
	}
}

func TestInterruptedCallGetsSyntheticResult(t *testing.T) {
	dir := t.TempDir()
	w, _ := Create(dir, Header{Node: "n", Level: "l"}, nil)
	msgs := conversation()[:4] // c2 has no result: the run was killed
	for _, m := range msgs {
		if err := w.Append(m); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	// A torn half line, as a kill mid-append leaves.
	path, _ := Path(dir, "n", "l")
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"role":"tool","tool_call_id":"c2","con`)
	f.Close()

	c, err := Load(dir, "n", "l")
	if err != nil {
		t.Fatal(err)
	}
	last := c.Messages[len(c.Messages)-1]
	if last.Role != llm.RoleTool || last.ToolCallID != "c2" || last.Content != Interrupted {
		t.Fatalf("last message %+v", last)
	}
	if !c.Committed["c1"] || c.Committed["c2"] || !reflect.DeepEqual(c.Interrupted, []string{"c2"}) {
		t.Fatalf("committed %v interrupted %v", c.Committed, c.Interrupted)
	}
	// Continuing appends after the synthetic result stay well-formed.
	w, err = Reopen(dir, "n", "l", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Reopen cut the torn line; the synthetic result is not stored, so
	// the continuing run appends the result it decides on.
	w.Append(llm.Message{Role: llm.RoleTool, ToolCallID: "c2", Content: Interrupted})
	w.Append(llm.Message{Role: llm.RoleUser, Content: "again"})
	w.Close()
	c, err = Load(dir, "n", "l")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(c.Messages); n != 6 || c.Messages[5].Content != "again" || len(c.Interrupted) != 0 {
		t.Fatalf("after reopen: %d messages, interrupted %v", n, c.Interrupted)
	}
}

func TestLargeResultIsSummarised(t *testing.T) {
	dir := t.TempDir()
	w, _ := Create(dir, Header{Node: "n", Level: "l"}, nil)
	big := strings.Repeat("line of a large result\n", 1000)
	w.Append(llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "describe_lesson", Arguments: "{}"}}})
	w.Append(llm.Message{Role: llm.RoleTool, ToolCallID: "c1", Content: big})
	w.Close()
	path, _ := Path(dir, "n", "l")
	raw, _ := os.ReadFile(path)
	if !strings.Contains(string(raw), `"summarised":true`) {
		t.Fatalf("no summarised flag in %s", raw)
	}
	c, err := Load(dir, "n", "l")
	if err != nil {
		t.Fatal(err)
	}
	got := c.Messages[1].Content
	if len(got) > MaxResultBytes || !strings.Contains(got, SummaryMarker) || !strings.Contains(got, "of 1001 lines kept, 23000 bytes") {
		t.Fatalf("summary (%d bytes): %q", len(got), got[max(0, len(got)-200):])
	}
}

func TestRedactsAndRefusesUnsafeNames(t *testing.T) {
	dir := t.TempDir()
	w, _ := Create(dir, Header{Node: "n", Level: "l"}, func(s string) string { return strings.ReplaceAll(s, "sk-secret", "sk-…") })
	w.Append(llm.Message{Role: llm.RoleUser, Content: "key sk-secret"})
	w.Close()
	path, _ := Path(dir, "n", "l")
	raw, _ := os.ReadFile(path)
	if strings.Contains(string(raw), "sk-secret") {
		t.Fatalf("secret stored: %s", raw)
	}
	for _, node := range []string{"../x", "a/../../b", ""} {
		if _, err := Path(dir, node, "l"); err == nil {
			t.Errorf("node %q accepted", node)
		}
	}
	if _, err := Load(dir, "none", "l"); err != ErrNone {
		t.Fatalf("missing history: %v", err)
	}
}

// A file that cannot be read is a *CorruptError (the run sets it aside);
// a torn last line is no damage.
func TestLoadCorrupt(t *testing.T) {
	header := `{"format":1,"node":"n","level":"l","content_hash":"sha256:0"}` + "\n"
	for _, tc := range []struct {
		name, data string
		line       int // 0: not corrupt
		corrupt    bool
	}{
		{"empty", "", 0, true},
		{"bad middle line", header + `{"role":"user","content":` + "\n" + `{"role":"user","content":"x"}` + "\n", 2, true},
		{"other format", `{"format":9,"node":"n","level":"l"}` + "\n", 1, true},
		{"torn last line", header + `{"role":"user","content":"x"}` + "\n" + `{"role":"us`, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p, _ := Path(dir, "n", "l")
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(dir, "n", "l")
			var ce *CorruptError
			if errors.As(err, &ce) != tc.corrupt || (tc.corrupt && ce.Line != tc.line) {
				t.Fatalf("Load: %v, want corrupt=%v at line %d", err, tc.corrupt, tc.line)
			}
			if !tc.corrupt {
				return
			}
			aside, err := SetAside(dir, "n", "l", time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
			if err != nil || filepath.Base(aside) != "l.jsonl.broken-20260102T030405.000000000Z" {
				t.Fatalf("SetAside = %s, %v", aside, err)
			}
			if data, _ := os.ReadFile(aside); string(data) != tc.data {
				t.Error("the set-aside file lost its content")
			}
			if _, err := Load(dir, "n", "l"); !errors.Is(err, ErrNone) {
				t.Errorf("after SetAside, Load = %v, want ErrNone", err)
			}
		})
	}
}

// An image sent with a message (--review-images) is stored as a marker:
// the file holds no base64 of it, and the loaded conversation replays
// as text.
func TestImageStoredAsMarker(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, Header{Node: "slides/light", Level: "whiteboard.node", ContentHash: "h1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	img := []byte("\x89PNG\r\n\x1a\n" + strings.Repeat("pixels", 100))
	if err := w.Append(llm.Message{Role: llm.RoleUser, Content: "Review", Images: [][]byte{img}}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	path, _ := Path(dir, "slides/light", "whiteboard.node")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if b64 := base64.StdEncoding.EncodeToString(img); strings.Contains(string(data), b64[20:60]) || strings.Contains(string(data), "pixels") {
		t.Errorf("the history file holds the image:\n%s", data)
	}
	c, err := Load(dir, "slides/light", "whiteboard.node")
	if err != nil {
		t.Fatal(err)
	}
	want := []llm.Message{{Role: llm.RoleUser, Content: "Review\n\n[image: board as drawn, 608 bytes]"}}
	if !reflect.DeepEqual(c.Messages, want) {
		t.Errorf("loaded %#v, want %#v", c.Messages, want)
	}
}
