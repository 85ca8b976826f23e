package orchestrate

import (
	"strings"
	"testing"

	"github.com/lessongen/lessongen/agent"
	"github.com/lessongen/lessongen/internal/event"
)

// A refinement is held to its instruction as a whole: unfinished only when
// no step changed anything; one step's change carries it out.
func TestUnfinishedInstruction(t *testing.T) {
	refused := []agent.Refusal{{Tool: "set_misconceptions", Message: "misconceptions is already set"}}
	for _, tc := range []struct {
		name        string
		instruction string
		nodes       []NodeResult
		want        []string
		wantErr     string
	}{
		{"nothing changed", "x", []NodeResult{
			{Status: event.StatusDone, refined: true, Refusals: refused},
			{Status: event.StatusDone, refined: true, notes: 1},
		}, []string{event.StatusUnfinished, event.StatusUnfinished}, "every change was refused (set_misconceptions: misconceptions is already set)"},
		{"one step changed", "x", []NodeResult{
			{Status: event.StatusDone, refined: true},
			{Status: event.StatusDone, refined: true, changed: true},
		}, []string{event.StatusDone, event.StatusDone}, ""},
		{"a step failed: reported as it is", "x", []NodeResult{
			{Status: event.StatusDone, refined: true},
			{Status: event.StatusFailed, refined: true},
		}, []string{event.StatusDone, event.StatusFailed}, ""},
		{"no instruction", "", []NodeResult{{Status: event.StatusDone}}, []string{event.StatusDone}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Report{Nodes: tc.nodes}
			r.unfinishedInstruction(tc.instruction)
			for i, n := range r.Nodes {
				if n.Status != tc.want[i] {
					t.Errorf("node %d: %s, want %s", i, n.Status, tc.want[i])
				}
			}
			if !strings.Contains(r.Nodes[0].Error, tc.wantErr) {
				t.Errorf("error %q, want %q", r.Nodes[0].Error, tc.wantErr)
			}
			if tc.name == "nothing changed" && !strings.Contains(r.Nodes[1].Error, "only left notes") {
				t.Errorf("notes-only step: %q", r.Nodes[1].Error)
			}
		})
	}
}
