package agent

import (
	"reflect"
	"testing"

	"github.com/lessongen/lessongen/llm"
)

// A conversation saved before the kickoff was answered continues with the
// same request a fresh start sends, so a batch in flight still holds it;
// one with an answer gets the kickoff as a new turn.
func TestFirstRequestDoesNotRepeatUnansweredKickoff(t *testing.T) {
	tools := newFakeTools(1, 1)
	fresh := FirstRequest(tools, Task{Prompt: "sys", NodePart: "Node: n (whiteboard.node)\n"})
	if got := fresh.Messages; len(got) != 2 || got[0].Content != "sys" || got[1].Content != kickoff+"\n\nNode: n (whiteboard.node)" {
		t.Fatalf("fresh request: %q; want the node's part after the kickoff in the user message", got)
	}
	continued := FirstRequest(tools, Task{Prior: fresh.Messages, NodePart: "Node: n (whiteboard.node)\n"})
	if !reflect.DeepEqual(continued.Messages, fresh.Messages) {
		t.Errorf("continued %v, want the fresh request %v", continued.Messages, fresh.Messages)
	}
	answered := append(fresh.Messages, llm.Message{Role: llm.RoleAssistant, Content: "thinking"})
	if got := FirstRequest(tools, Task{Prior: answered}).Messages; len(got) != len(answered)+1 || got[len(got)-1].Content != kickoff {
		t.Errorf("answered conversation: want the kickoff appended, got %v", got)
	}
}
