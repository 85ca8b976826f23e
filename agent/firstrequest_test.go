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

// A conversation saved with its system message alone (a run killed
// between saving it and saving the first user turn, or a torn last line)
// continues with the node's part after the kickoff: the system message
// holds the level's fixed instructions only, so without it the model
// would not know which node it works on. A system message of the earlier
// layout, which held the node's part, gets the kickoff alone.
func TestFirstRequestSystemOnlyPriorKeepsNodePart(t *testing.T) {
	tools := newFakeTools(1, 1)
	part := "Node: n (whiteboard.node)\n"
	got := FirstRequest(tools, Task{Prompt: "sys\n", NodePart: part, Prior: []llm.Message{{Role: llm.RoleSystem, Content: "sys\n"}}}).Messages
	if len(got) != 2 || got[1].Content != kickoff+"\n\nNode: n (whiteboard.node)" {
		t.Errorf("system-only prior: %q; want the kickoff and the node's part", got)
	}
	old := []llm.Message{{Role: llm.RoleSystem, Content: "sys\n\nNode: n (whiteboard.node)\n"}}
	got = FirstRequest(tools, Task{Prompt: "sys\n", NodePart: part, Prior: old}).Messages
	if len(got) != 2 || got[1].Content != kickoff {
		t.Errorf("system-only prior of the earlier layout: %q; want the kickoff alone", got)
	}
}

// A later user turn saved unanswered (a refinement killed before the
// answer) is asked again only when the words are the same: a new
// instruction that is the start of the old one is sent, not taken for it,
// after a stand-in answer to the old one.
func TestFirstRequestNewInstructionNotTakenForOld(t *testing.T) {
	tools := newFakeTools(1, 1)
	prior := []llm.Message{
		{Role: llm.RoleSystem, Content: "sys"},
		{Role: llm.RoleUser, Content: kickoff + "\n\nNode: n"},
		{Role: llm.RoleAssistant, Content: "done"},
		{Role: llm.RoleUser, Content: "Make it bigger\n\nand red"},
	}
	got := FirstRequest(tools, Task{Prior: prior, Continue: "Make it bigger", NodePart: "Node: n"}).Messages
	if last := got[len(got)-1]; len(got) != len(prior)+2 || last.Content != "Make it bigger" {
		t.Errorf("the new instruction was not sent: last message %q of %d", last.Content, len(got))
	}
	// The old one is answered first: no two user turns in a row.
	if a := got[len(prior)]; a.Role != llm.RoleAssistant || a.Content != Unanswered {
		t.Errorf("between the unanswered instruction and the new one: %+v, want the Unanswered answer", a)
	}
	same := FirstRequest(tools, Task{Prior: prior, Continue: "Make it bigger\n\nand red", NodePart: "Node: n"}).Messages
	if len(same) != len(prior) {
		t.Errorf("the same instruction unanswered was asked twice: %d messages", len(same))
	}
}
