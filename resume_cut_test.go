package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

// The saved conversations cut at any line, or inside one (what a machine
// crash may leave of a history log fsync'd once per checkpoint interval,
// or a run killed between two writes), is continued or started afresh, never a
// crash, and the request sent is a well-formed conversation: the system
// message first, one user turn naming the node before any answer, no two
// user turns in a row, every tool result answering a call of the turn
// before it.
func TestResumeFromEveryCut(t *testing.T) {
	cleanEnv(t)
	t.Chdir(t.TempDir())
	write(t, "lesson.yaml", refineLesson)
	write(t, "slides/a.yaml", "heading: Attract\nelements: []\n")
	const board = "heading: Poles\nelements: !pending \"the two poles\"\n"
	write(t, "slides/b.yaml", board)
	const hist = historyLog
	startScript(t, `{"rules": [{"match": ["slides/b/whiteboard", "whiteboard.node"], "turns": [
		{"tool_calls": [{"name": "describe_whiteboard", "args": {}}, {"name": "list_pending", "args": {}}]},
		{"tool_calls": [{"name": "add_text", "args": {"x": 40, "y": 200, "w": 500, "h": 60, "text": "N"}}]}]}]}`)
	if code, out, errOut := runLessongen(t, "generate", "lesson.yaml", "--checkpoint-interval", "1h"); code != 0 {
		t.Fatalf("generate: exit %d\n%s%s", code, out, errOut)
	}
	whole, err := os.ReadFile(hist)
	if err != nil {
		t.Fatal(err)
	}
	var cuts []int
	for i, b := range whole {
		if b == '\n' {
			cuts = append(cuts, i+1, i+1+(len(whole)-i)/3) // at the line's end, and inside the next
		}
	}
	for _, cut := range cuts {
		if cut >= len(whole) {
			continue
		}
		write(t, "slides/b.yaml", board)
		write(t, hist, string(whole[:cut]))
		srv := startScript(t, `{"rules": [{"match": ["whiteboard.node"], "turns": [
			{"tool_calls": [{"name": "add_text", "args": {"x": 40, "y": 200, "w": 500, "h": 60, "text": "N"}}]}], "repeat": true}]}`)
		code, out, errOut := runLessongen(t, "generate", "lesson.yaml", "--checkpoint-interval", "1h")
		if code != 0 && code != 3 {
			t.Fatalf("cut at byte %d of %d: exit %d\n%s%s", cut, len(whole), code, out, errOut)
		}
		if len(srv.Requests()) == 0 {
			t.Fatalf("cut at byte %d: no request", cut)
		}
		if msg := malformed(srv.Requests()[0].Body); msg != "" {
			t.Errorf("cut at byte %d: %s\n%s", cut, msg, srv.Requests()[0].Body)
		}
	}
}

// malformed says what is wrong with a request's conversation, "" if
// nothing.
func malformed(body []byte) string {
	var req struct {
		Messages []struct {
			Role       string `json:"role"`
			Content    any    `json:"content"`
			ToolCallID string `json:"tool_call_id"`
			ToolCalls  []struct {
				ID string `json:"id"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return err.Error()
	}
	ms := req.Messages
	if len(ms) < 2 || ms[0].Role != "system" || ms[1].Role != "user" {
		return "not the system message then a user turn"
	}
	if n := bytes.Count(body, []byte("Node: slides/b/whiteboard")); n != 1 {
		return fmt.Sprintf("the node is named %d times", n)
	}
	open := map[string]bool{}
	for i := 1; i < len(ms); i++ {
		m := ms[i]
		switch m.Role {
		case "user":
			if ms[i-1].Role == "user" {
				return "two user turns in a row"
			}
		case "assistant":
			open = map[string]bool{}
			for _, c := range m.ToolCalls {
				open[c.ID] = true
			}
		case "tool":
			if !open[m.ToolCallID] {
				return "a tool result for no open call: " + m.ToolCallID
			}
			delete(open, m.ToolCallID)
		default:
			return fmt.Sprintf("a %q message at %d", m.Role, i)
		}
		if m.Role != "tool" && m.Role != "assistant" && len(open) > 0 {
			return "calls left without a result"
		}
	}
	return ""
}
