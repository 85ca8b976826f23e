package agent

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/llm"
)

// savingTools logs each saved message into the tools' own log, so the
// order of saves and calls shows.
func saveInto(f *fakeTools, saved *[]llm.Message) func(llm.Message) error {
	return func(m llm.Message) error {
		f.mu.Lock()
		defer f.mu.Unlock()
		entry := "save " + string(m.Role)
		if m.Role == llm.RoleTool {
			entry += " " + m.ToolCallID
		}
		f.log = append(f.log, entry)
		*saved = append(*saved, m)
		return nil
	}
}

func TestTurnIsSavedBeforeItsToolsRunAndEachResultWhenItCommits(t *testing.T) {
	tools := newFakeTools(1, 1)
	var saved []llm.Message
	model := &scriptedModel{turns: [][]llm.ToolCall{{call("c1", "write", "w1"), call("c2", "read", "r1")}}}
	res, err := Run(context.Background(), model, tools, Task{Prompt: "p", MaxSteps: 3, Append: saveInto(tools, &saved)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "save system|save user|save assistant|start w1|end w1|save tool c1|start r1|end r1|save tool c2"
	if got := strings.Join(tools.log, "|"); got != want {
		t.Errorf("order\n got %s\nwant %s", got, want)
	}
	// What was saved is the conversation exactly.
	if !reflect.DeepEqual(saved, res.Messages) {
		t.Errorf("saved messages differ from the conversation")
	}
}

func TestPriorConversationContinuesWithTheNewTurn(t *testing.T) {
	tools := newFakeTools(1, 0)
	prior := []llm.Message{
		{Role: llm.RoleSystem, Content: "p"},
		{Role: llm.RoleUser, Content: kickoff},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call("c1", "write", "w1")}},
		{Role: llm.RoleTool, ToolCallID: "c1", Content: `{"ok":true}`},
		{Role: llm.RoleAssistant, Content: "done"},
	}
	// Turn 3 (two assistant turns in prior) repeats the committed c1 and
	// makes a new call c9.
	model := &scriptedModel{turns: [][]llm.ToolCall{2: {call("c1", "write", "w1"), call("c9", "write", "w9")}}}
	var saved []llm.Message
	res, err := Run(context.Background(), model, tools, Task{Prompt: "ignored", MaxSteps: 3, Prior: prior, Continue: "make it more visual",
		Committed: map[string]bool{"c1": true}, Append: saveInto(tools, &saved)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	first := model.seen[0].Messages
	wantFirst := append(append([]llm.Message(nil), prior...), llm.Message{Role: llm.RoleUser, Content: "make it more visual"})
	if !reflect.DeepEqual(first, wantFirst) {
		t.Fatalf("first request\n got %+v\nwant %+v", first, wantFirst)
	}
	if got := strings.Join(tools.log, "|"); strings.Contains(got, "start w1") || !strings.Contains(got, "start w9") {
		t.Errorf("calls run: %s", got)
	}
	var c1 string
	for _, m := range res.Messages[len(prior):] {
		if m.Role == llm.RoleTool && m.ToolCallID == "c1" {
			c1 = m.Content
		}
	}
	if !strings.Contains(c1, "already applied") {
		t.Errorf("result of the repeated call: %q", c1)
	}
	// Only what is new is saved; the prior is on disk already.
	if saved[0].Content != "make it more visual" || len(saved) != len(res.Messages)-len(prior) {
		t.Errorf("saved %d messages, first %+v", len(saved), saved[0])
	}
}
