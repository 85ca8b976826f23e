package agent_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The agent loop knows no modality: it sees tools and envelopes only, so a
// new modality never touches it.
func TestAgentDependsOnNoModality(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, m := range []string{"/lesson", "/whiteboard", "/quiz", "/compose", "/bridge"} {
			if strings.HasSuffix(pkg, "lessongen"+m) {
				t.Errorf("agent depends on %s", pkg)
			}
		}
	}
}
