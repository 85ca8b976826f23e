package orchestrate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/history"
	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/session"
)

// resumeModel answers the continued conversation's first turn by repeating
// the committed call k0 and making a new call k2, then stops.
type resumeModel struct {
	mu   sync.Mutex
	reqs []llm.Request
}

func (m *resumeModel) Complete(_ context.Context, req llm.Request) (llm.Response, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reqs = append(m.reqs, req)
	resp := llm.Response{Requests: 1}
	resp.Message.Role = llm.RoleAssistant
	if len(m.reqs) == 1 {
		resp.Message.ToolCalls = []llm.ToolCall{
			{ID: "k0", Name: "add_text", Arguments: `{"x":10,"y":10,"w":100,"h":40,"text":"again"}`},
			{ID: "k2", Name: "add_text", Arguments: `{"x":10,"y":200,"w":100,"h":40,"text":"new"}`},
		}
	} else {
		resp.Message.Content = "done"
	}
	return resp, nil
}

// A run killed between a tool call and its result leaves a history that
// loads with a synthetic result; the next run continues it and does not
// apply the committed call again.
func TestKilledHistoryContinuesWithoutReapplying(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lesson.yaml")
	os.WriteFile(path, []byte("version: 1\nmetadata:\n  title: T\n  subject: s\n  grade: \"4\"\n  objectives:\n    - o\nslides:\n  - id: a\n    title: A\n    notes: n\n    whiteboard:\n      heading: H\n      layout: L\n      elements: !pending \"a board\"\n"), 0o644)
	doc, err := compose.Load(path, testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	sess, err := doc.Child("a", "whiteboard")
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	wb, _ := testRegistry().Child("whiteboard")
	saved, err := history.Open(state, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := saved.Create(history.Header{Node: "slides/a/whiteboard", Level: "whiteboard.node", ContentHash: contentHash(wb, sess, session.LevelNode)})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []llm.Message{
		{Role: llm.RoleSystem, Content: "Node: slides/a/whiteboard (whiteboard.node)"},
		{Role: llm.RoleUser, Content: "go"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "k0", Name: "describe_whiteboard", Arguments: "{}"}}},
		{Role: llm.RoleTool, ToolCallID: "k0", Content: `{"ok":true}`},
		// killed here: k1 was saved, its result never was
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "k1", Name: "add_text", Arguments: `{}`}}},
	} {
		if err := w.Append(m); err != nil {
			t.Fatal(err)
		}
	}
	saved.Close()

	model := &resumeModel{}
	opts := options(t, model, 1)
	opts.StateDir = state
	if _, err := Run(context.Background(), doc, Scope{}, opts); err != nil {
		t.Fatal(err)
	}
	first := model.reqs[0].Messages
	if len(first) != 7 || first[5].ToolCallID != "k1" || first[5].Content != history.Interrupted || first[6].Role != llm.RoleUser {
		t.Fatalf("first request: %+v", first)
	}
	var k0 string
	for _, m := range model.reqs[1].Messages {
		if m.Role == llm.RoleTool && m.ToolCallID == "k0" {
			k0 = m.Content
		}
	}
	if !strings.Contains(k0, "not run again") {
		t.Errorf("the repeated committed call got %q", k0)
	}
	var desc string
	sess.View(func(st session.State) { desc = st.Describe() })
	if strings.Contains(desc, "again") || !strings.Contains(desc, "new") {
		t.Errorf("board after the run: %s", desc)
	}
	saved, err = history.Open(state, nil)
	if err != nil {
		t.Fatal(err)
	}
	conv, err := saved.Load("slides/a/whiteboard", "whiteboard.node")
	if err != nil || len(conv.Interrupted) != 0 || !conv.Committed["k1"] || !conv.Committed["k2"] {
		t.Errorf("history after the run: interrupted %v committed %v err %v", conv.Interrupted, conv.Committed, err)
	}
}
