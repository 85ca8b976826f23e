package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// A --templates folder whose whiteboard template is the task alone, has
// text after the task, never uses it, or whose common.tmpl writes its own
// task: the run fills the board, and its first request holds one user
// turn, the kickoff once, the node named as often as the template names
// it (never twice by the program), and every word of the template.
func TestTemplateOverridesRun(t *testing.T) {
	common, err := os.ReadFile("templates/common.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	board, err := os.ReadFile("templates/whiteboard.node.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	custom := strings.Replace(string(common), "{{- define \"task\" -}}\n", "{{- define \"task\" -}}\nMY OWN TASK for {{ .Node }}.\n", 1)
	for _, tc := range []struct {
		name, level, common string
		want                []string // in the request
		nodes               int      // times the node is named
	}{
		{"task alone", `{{ template "task" . }}`, "", []string{"Where this is"}, 1},
		{"text after the task", `Draw. {{ template "task" . }} ZZ-AFTER`, "", []string{"Draw.", "ZZ-AFTER"}, 1},
		{"no task", `Draw {{ .Node }} ZZ-ONLY. {{ template "rules" . }}`, "", []string{"ZZ-ONLY", "How to work:"}, 0},
		{"own task in common", string(board), custom, []string{"MY OWN TASK for slides/b/whiteboard."}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cleanEnv(t)
			t.Chdir(t.TempDir())
			write(t, "lesson.yaml", refineLesson)
			write(t, "slides/a.yaml", "heading: Attract\nelements: []\n")
			write(t, "slides/b.yaml", "heading: Poles\nelements: !pending \"the two poles\"\n")
			write(t, "tmpl/whiteboard.node.tmpl", tc.level)
			if tc.common != "" {
				write(t, "tmpl/common.tmpl", tc.common)
			}
			srv := startScript(t, `{"rules": [{"turns": [
				{"tool_calls": [{"name": "add_text", "args": {"x": 40, "y": 200, "w": 500, "h": 60, "text": "N and S"}}]}]}]}`)
			if code, out, errOut := runLessongen(t, "generate", "lesson.yaml", "--templates", "tmpl"); code != 0 {
				t.Fatalf("exit %d\n%s%s", code, out, errOut)
			}
			var req struct {
				Messages []struct{ Role, Content string }
			}
			if err := json.Unmarshal(srv.Requests()[0].Body, &req); err != nil {
				t.Fatal(err)
			}
			all := ""
			users := 0
			for _, m := range req.Messages {
				all += m.Content + "\n"
				if m.Role == "user" {
					users++
				}
			}
			if users != 1 || strings.Count(all, "Fill every pending item") != 1 || strings.Count(all, "Node: slides/b/whiteboard") != tc.nodes {
				t.Errorf("%d user turns, kickoff %d times, node %d times (want 1, 1, %d):\n%s", users, strings.Count(all, "Fill every pending item"),
					strings.Count(all, "Node: slides/b/whiteboard"), tc.nodes, all)
			}
			for _, w := range tc.want {
				if strings.Count(all, w) != 1 {
					t.Errorf("%q is in the request %d times, want once:\n%s", w, strings.Count(all, w), all)
				}
			}
			if b, _ := os.ReadFile("slides/b.yaml"); !strings.Contains(string(b), "N and S") {
				t.Errorf("the board was not filled:\n%s", b)
			}
		})
	}
}
