package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// A saved conversation that ends with its first user turn unanswered (the
// run stopped before the answer) is continued as it was saved, whichever
// layout saved it: this one's (the node's part after the kickoff in the
// user message) or the earlier one's (the node's part at the end of the
// system message, the kickoff alone). The continued request holds one user
// turn and the node's part once: no second kickoff, no second node.
func TestResumeUnansweredAcrossPromptLayout(t *testing.T) {
	for _, layout := range []string{"this", "earlier"} {
		t.Run(layout, func(t *testing.T) {
			cleanEnv(t)
			t.Chdir(t.TempDir())
			write(t, "lesson.yaml", refineLesson)
			write(t, "slides/a.yaml", "heading: Attract\nelements: []\n")
			write(t, "slides/b.yaml", "heading: Poles\nelements: !pending \"the two poles\"\n")

			startScript(t, `{"rules": [{"match": ["slides/b/whiteboard", "whiteboard.node"], "turns": [{"status": 400, "times": -1}]}]}`)
			if code, out, errOut := runLessongen(t, "generate", "lesson.yaml"); code == 0 {
				t.Fatalf("the refused run: exit 0\n%s%s", out, errOut)
			}
			lines := conversationLines(t, historyLog, "slides/b/whiteboard", "whiteboard.node")
			data := bytes.Join(lines, []byte("\n"))
			if len(lines) != 4 {
				t.Fatalf("saved %d lines, want the header, the system message, the user turn and the content's hash:\n%s", len(lines), data)
			}
			var sys, user map[string]any
			if json.Unmarshal(lines[1], &sys) != nil || json.Unmarshal(lines[2], &user) != nil {
				t.Fatalf("saved:\n%s", data)
			}
			kickoff, part, ok := strings.Cut(user["content"].(string), "\n\n")
			if !ok || !strings.Contains(part, "Node: slides/b/whiteboard") {
				t.Fatalf("the saved user turn lacks the node's part: %q", user["content"])
			}
			if layout == "earlier" {
				sys["content"] = sys["content"].(string) + "\n" + part + "\n"
				user["content"] = kickoff
				l1, _ := json.Marshal(sys)
				l2, _ := json.Marshal(user)
				replaceConversation(t, historyLog, "slides/b/whiteboard", "whiteboard.node", [][]byte{lines[0], l1, l2, lines[3]})
			}

			srv := startScript(t, `{"rules": [{"match": ["whiteboard.node"], "turns": [
				{"tool_calls": [{"name": "add_text", "args": {"x": 40, "y": 200, "w": 500, "h": 60, "text": "N and S"}}]}]}]}`)
			if code, out, errOut := runLessongen(t, "generate", "lesson.yaml"); code != 0 {
				t.Fatalf("the rerun: exit %d\n%s%s", code, out, errOut)
			}
			first := messages(t, srv.Requests()[0].Body)
			body := string(srv.Requests()[0].Body)
			if len(first) != 2 || strings.Count(body, `"role":"user"`) != 1 || strings.Count(body, "Node: slides/b/whiteboard") != 1 {
				t.Errorf("the continued request: %d messages, %d user turns, node named %d times; want the saved two, one user turn, the node once:\n%s",
					len(first), strings.Count(body, `"role":"user"`), strings.Count(body, "Node: slides/b/whiteboard"), body)
			}
			var sent struct{ Content string }
			if json.Unmarshal(first[0], &sent) != nil || sent.Content != sys["content"] {
				t.Errorf("the saved system message was not continued:\n%s", first[0])
			}
			if b, _ := os.ReadFile("slides/b.yaml"); !bytes.Contains(b, []byte("N and S")) {
				t.Errorf("the rerun did not fill the board:\n%s", b)
			}
		})
	}
}

// fill --instruction on a lesson whose saved conversation predates this
// layout (the node's part in the system message, the kickoff alone)
// continues it: the instruction once, as the last user turn, the node
// named once (in the old system message), what is locked said once.
func TestRefineHistoryOfEarlierLayout(t *testing.T) {
	cleanEnv(t)
	t.Chdir(t.TempDir())
	write(t, "lesson.yaml", refineLesson)
	write(t, "slides/a.yaml", "heading: Attract\nelements: []\n")
	write(t, "slides/b.yaml", "heading: Poles\nelements:\n  - {id: t0, type: text, text: Mine, x: 40, y: 500, w: 300, h: 40}\n  - !pending \"the two poles\"\n")
	startScript(t, `{"rules": [{"match": ["whiteboard.node"], "turns": [
		{"tool_calls": [{"name": "add_text", "args": {"x": 40, "y": 200, "w": 500, "h": 60, "text": "N and S"}}]}]}]}`)
	if code, out, errOut := runLessongen(t, "generate", "lesson.yaml"); code != 0 {
		t.Fatalf("generate: exit %d\n%s%s", code, out, errOut)
	}
	lines := conversationLines(t, historyLog, "slides/b/whiteboard", "whiteboard.node")
	var sys, user map[string]any
	if len(lines) < 4 || json.Unmarshal(lines[1], &sys) != nil || json.Unmarshal(lines[2], &user) != nil {
		t.Fatalf("saved:\n%s", bytes.Join(lines, []byte("\n")))
	}
	kickoff, part, _ := strings.Cut(user["content"].(string), "\n\n")
	sys["content"] = sys["content"].(string) + "\n" + part + "\n"
	user["content"] = kickoff
	lines[1], _ = json.Marshal(sys)
	lines[2], _ = json.Marshal(user)
	replaceConversation(t, historyLog, "slides/b/whiteboard", "whiteboard.node", lines)

	srv := startScript(t, `{"rules": [{"turns": [{"content": "unused"},
		{"tool_calls": [{"name": "add_text", "args": {"x": 40, "y": 300, "w": 500, "h": 60, "text": "Magnets pull"}}]}]}]}`)
	if code, out, errOut := runLessongen(t, "fill", "lesson.yaml", "--slide", "b", "--whiteboard", "--instruction", "Add a caption ZZ"); code != 0 {
		t.Fatalf("fill: exit %d\n%s%s", code, out, errOut)
	}
	body := string(srv.Requests()[0].Body)
	for what, want := range map[string]int{"Add a caption ZZ": 1, "Node: slides/b/whiteboard": 1, "Locked, written by the author": 1, `"role":"user"`: 2, "Fill every pending item": 1} {
		if n := strings.Count(body, what); n != want {
			t.Errorf("%q %d times in the refinement's request, want %d:\n%s", what, n, want, body)
		}
	}
	first := messages(t, srv.Requests()[0].Body)
	if last := string(first[len(first)-1]); !strings.Contains(last, `"content":"Add a caption ZZ`) {
		t.Errorf("the last message is not the instruction: %s", last)
	}
}
