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

	"github.com/lessongen/lessongen/internal/statedir"
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

// open is Open that must succeed; the log is closed with the test.
func open(t *testing.T, dir string, redact func(string) string) *Log {
	t.Helper()
	l, err := Open(dir, redact)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func logPath(dir string) string { return filepath.Join(dir, statedir.HistoryLog) }

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	l := open(t, dir, nil)
	w, err := l.Create(Header{Node: "slides/light", Level: "whiteboard.node", ContentHash: "h1"})
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
	l.Close()
	c, err := open(t, dir, nil).Load("slides/light", "whiteboard.node")
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

// Conversations of many nodes share the one file, their lines
// interleaved as the subagents ran side by side; each loads as its own,
// and one begun again replaces the one before.
func TestInterleavedConversations(t *testing.T) {
	dir := t.TempDir()
	l := open(t, dir, nil)
	a, _ := l.Create(Header{Node: "slides/a/whiteboard", Level: "whiteboard.node", ContentHash: "ha"})
	b, _ := l.Create(Header{Node: "slides/b/whiteboard", Level: "whiteboard.node", ContentHash: "hb"})
	for i, m := range conversation() {
		if err := a.Append(m); err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			if err := b.Append(llm.Message{Role: llm.RoleUser, Content: "b" + m.Content}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := l.Create(Header{Node: "slides/b/whiteboard", Level: "whiteboard.node", ContentHash: "hb2"}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	l = open(t, dir, nil)
	ca, err := l.Load("slides/a/whiteboard", "whiteboard.node")
	if err != nil || !reflect.DeepEqual(ca.Messages, conversation()) || ca.Header.ContentHash != "ha" {
		t.Fatalf("a: %v %+v", err, ca)
	}
	cb, err := l.Load("slides/b/whiteboard", "whiteboard.node")
	if err != nil || len(cb.Messages) != 0 || cb.Header.ContentHash != "hb2" {
		t.Fatalf("b begun again: %v %+v, want the new, empty conversation", err, cb)
	}
	if data, _ := os.ReadFile(logPath(dir)); strings.Count(string(data), "\n") != 1+1+len(conversation())+3+1 {
		t.Errorf("log has %d lines:\n%s", strings.Count(string(data), "\n"), data)
	}
}

func TestInterruptedCallGetsSyntheticResult(t *testing.T) {
	dir := t.TempDir()
	l := open(t, dir, nil)
	w, _ := l.Create(Header{Node: "n", Level: "l"})
	msgs := conversation()[:4] // c2 has no result: the run was killed
	for _, m := range msgs {
		if err := w.Append(m); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	// A torn half line, as a kill mid-append leaves.
	f, _ := os.OpenFile(logPath(dir), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"node":"n","level":"l","role":"tool","tool_call_id":"c2","con`)
	f.Close()

	l = open(t, dir, nil)
	c, err := l.Load("n", "l")
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
	// Continuing appends after the synthetic result stay well-formed: the
	// first write cut the torn line off.
	w, err = l.Reopen("n", "l")
	if err != nil {
		t.Fatal(err)
	}
	w.Append(llm.Message{Role: llm.RoleTool, ToolCallID: "c2", Content: Interrupted})
	w.Append(llm.Message{Role: llm.RoleUser, Content: "again"})
	l.Close()
	c, err = open(t, dir, nil).Load("n", "l")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(c.Messages); n != 6 || c.Messages[5].Content != "again" || len(c.Interrupted) != 0 {
		t.Fatalf("after reopen: %d messages, interrupted %v", n, c.Interrupted)
	}
}

func TestLargeResultIsSummarised(t *testing.T) {
	dir := t.TempDir()
	l := open(t, dir, nil)
	w, _ := l.Create(Header{Node: "n", Level: "l"})
	big := strings.Repeat("line of a large result\n", 1000)
	w.Append(llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "describe_lesson", Arguments: "{}"}}})
	w.Append(llm.Message{Role: llm.RoleTool, ToolCallID: "c1", Content: big})
	l.Close()
	raw, _ := os.ReadFile(logPath(dir))
	if !strings.Contains(string(raw), `"summarised":true`) {
		t.Fatalf("no summarised flag in %s", raw)
	}
	c, err := open(t, dir, nil).Load("n", "l")
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
	l := open(t, dir, func(s string) string { return strings.ReplaceAll(s, "sk-secret", "sk-…") })
	w, _ := l.Create(Header{Node: "n", Level: "l"})
	w.Append(llm.Message{Role: llm.RoleUser, Content: "key sk-secret"})
	l.Close()
	raw, _ := os.ReadFile(logPath(dir))
	if strings.Contains(string(raw), "sk-secret") || !strings.Contains(string(raw), "sk-…") {
		t.Fatalf("secret stored: %s", raw)
	}
	for _, node := range []string{"../x", "a/../../b", ""} {
		if _, err := l.Load(node, "l"); err == nil || errors.Is(err, ErrNone) {
			t.Errorf("node %q accepted: %v", node, err)
		}
		if _, err := l.Create(Header{Node: node, Level: "l"}); err == nil {
			t.Errorf("node %q created", node)
		}
		if _, err := l.Reopen(node, "l"); err == nil || errors.Is(err, ErrNone) {
			t.Errorf("node %q reopened: %v", node, err)
		}
		if _, err := l.SetAside(node, "l", time.Now()); err == nil {
			t.Errorf("node %q set aside", node)
		}
	}
	if _, err := l.Load("none", "l"); err != ErrNone {
		t.Fatalf("missing history: %v", err)
	}
}

// A conversation that cannot be read is a *CorruptError naming its line
// (the run sets it aside, and it stays aside); a log that cannot be read
// as a whole is Open's *CorruptError (the run sets the file aside); a
// torn last line is no damage.
func TestLoadCorrupt(t *testing.T) {
	const header = `{"format":2,"node":"n","level":"l","content_hash":"sha256:0"}` + "\n"
	const other = `{"format":2,"node":"o","level":"l"}` + "\n" + `{"node":"o","level":"l","role":"user","content":"kept"}` + "\n"
	for _, tc := range []struct {
		name, data string
		openLine   int // Open's CorruptError at this line
		loadLine   int // Load's CorruptError at this line
	}{
		{"bad middle line", header + `{"node":"n","level":"l","role":"user","content":` + "\n" + other, 2, 0},
		{"line naming nothing", header + `{"role":"user","content":"x"}` + "\n" + other, 2, 0},
		{"record before header", `{"node":"n","level":"l","role":"user","content":"x"}` + "\n", 1, 0},
		{"header naming a node and no level", header + `{"format":2,"node":"n","content_hash":"sha256:0"}` + "\n" + other, 2, 0},
		{"record after its conversation was set aside", header + `{"format":2,"node":"n","level":"l","set_aside":"history.jsonl.broken-x"}` + "\n" + `{"node":"n","level":"l","role":"user","content":"x"}` + "\n", 3, 0},
		{"earlier format inside the log", other + `{"format":1,"node":"n","level":"l"}` + "\n", 0, 3},
		{"other format", other + `{"format":9,"node":"n","level":"l"}` + "\n", 0, 3},
		{"result without its call", other + header + `{"node":"n","level":"l","role":"tool","tool_call_id":"zz","content":"x"}` + "\n", 0, 4},
		{"torn last line", header + `{"node":"n","level":"l","role":"user","content":"x"}` + "\n" + other + `{"node":"n","level":"l","role":"us`, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(logPath(dir), []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			l, err := Open(dir, nil)
			var ce *CorruptError
			if errors.As(err, &ce) != (tc.openLine > 0) || (ce != nil && ce.Line != tc.openLine) {
				t.Fatalf("Open: %v, want corrupt at line %d", err, tc.openLine)
			}
			defer l.Close()
			if tc.openLine > 0 {
				if _, err := l.Create(Header{Node: "n", Level: "l"}); err == nil {
					t.Fatal("wrote to a log not set aside")
				}
				aside, err := l.SetAsideLog(now)
				if err != nil || filepath.Base(aside) != "history.jsonl.broken-20260102T030405.000000000Z" {
					t.Fatalf("SetAsideLog = %s, %v", aside, err)
				}
				if data, _ := os.ReadFile(aside); string(data) != tc.data {
					t.Error("the set-aside file lost its content")
				}
				if _, err := l.Create(Header{Node: "n", Level: "l"}); err != nil {
					t.Fatalf("create after set aside: %v", err)
				}
				return
			}
			_, err = l.Load("n", "l")
			if errors.As(err, &ce) != (tc.loadLine > 0) || (ce != nil && ce.Line != tc.loadLine) {
				t.Fatalf("Load: %v, want corrupt at line %d", err, tc.loadLine)
			}
			if c, err := l.Load("o", "l"); err != nil || c.Messages[0].Content != "kept" {
				t.Fatalf("another node's conversation: %v %+v", err, c)
			}
			if tc.loadLine == 0 {
				return
			}
			aside, err := l.SetAside("n", "l", now)
			if err != nil || filepath.Base(aside) != "history.jsonl.broken-20260102T030405.000000000Z" {
				t.Fatalf("SetAside = %s, %v", aside, err)
			}
			if data, _ := os.ReadFile(aside); !strings.Contains(tc.data, string(data)) || !strings.Contains(string(data), `"node":"n"`) || strings.Contains(string(data), `"node":"o"`) {
				t.Errorf("the set-aside file holds %q, want n's lines alone", data)
			}
			l.Close()
			if _, err := l.Reopen("n", "l"); !errors.Is(err, ErrNone) {
				t.Errorf("Reopen of a conversation set aside = %v, want ErrNone", err)
			}
			// Aside in this run and the next, until begun again.
			for _, l := range []*Log{l, open(t, dir, nil)} {
				if _, err := l.Load("n", "l"); !errors.Is(err, ErrNone) {
					t.Errorf("after SetAside, Load = %v, want ErrNone", err)
				}
			}
		})
	}
}

// An image sent with a message (--review-images) is stored as a marker:
// the file holds no base64 of it, and the loaded conversation replays
// as text.
func TestImageStoredAsMarker(t *testing.T) {
	dir := t.TempDir()
	l := open(t, dir, nil)
	w, err := l.Create(Header{Node: "slides/light", Level: "whiteboard.node", ContentHash: "h1"})
	if err != nil {
		t.Fatal(err)
	}
	img := []byte("\x89PNG\r\n\x1a\n" + strings.Repeat("pixels", 100))
	if err := w.Append(llm.Message{Role: llm.RoleUser, Content: "Review", Images: [][]byte{img}}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	data, err := os.ReadFile(logPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	if b64 := base64.StdEncoding.EncodeToString(img); strings.Contains(string(data), b64[20:60]) || strings.Contains(string(data), "pixels") {
		t.Errorf("the history file holds the image:\n%s", data)
	}
	c, err := open(t, dir, nil).Load("slides/light", "whiteboard.node")
	if err != nil {
		t.Fatal(err)
	}
	want := []llm.Message{{Role: llm.RoleUser, Content: "Review\n\n[image: board as drawn, 608 bytes]"}}
	if !reflect.DeepEqual(c.Messages, want) {
		t.Errorf("loaded %#v, want %#v", c.Messages, want)
	}
}
