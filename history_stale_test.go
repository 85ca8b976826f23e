package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A saved conversation is continued only while its node reads as the
// conversation left it (docs/history.md): after the author edits the
// slide, a refinement starts afresh from the slide as it stands, in a run
// that saves (a new conversation begins in the log, the old one stays
// superseded above it) and in a dry run (nothing is written).
func TestStaleConversationNotContinued(t *testing.T) {
	generatedRefineLesson(t)
	const saved = "Let me look first." // the generate run's first answer on b
	b, _ := os.ReadFile("slides/b.yaml")
	write(t, "slides/b.yaml", strings.Replace(string(b), "heading: Poles", "heading: Magnet poles", 1))
	for _, dry := range []bool{true, false} {
		before, _ := os.ReadFile(historyLog)
		srv := startScript(t, refineFill)
		args := []string{"fill", "lesson.yaml", "--slide", "b", "--instruction", "Add a caption"}
		if dry {
			args = append(args, "--dry-run")
		}
		code, out, errOut := runLessongen(t, args...)
		// Started afresh, the script's first answer is text alone: the
		// refinement changes nothing, which is exit 3 (unfinished).
		if code != 3 || len(srv.Requests()) == 0 {
			t.Fatalf("dry run %v: exit %d, %d requests\n%s%s", dry, code, len(srv.Requests()), out, errOut)
		}
		first := srv.Requests()[0].Body
		if bytes.Contains(first, []byte(saved)) || !bytes.Contains(first, []byte("Magnet poles")) {
			t.Fatalf("dry run %v: the first request continues the conversation saved before the edit:\n%s", dry, first)
		}
		after, _ := os.ReadFile(historyLog)
		if dry && !bytes.Equal(before, after) {
			t.Errorf("the dry run wrote the log:\n%s", after[len(before):])
		}
		if !dry && (!bytes.HasPrefix(after, before) || len(conversationLines(t, historyLog, "slides/b/whiteboard", "whiteboard.node")) < 3 ||
			bytes.Contains(bytes.Join(conversationLines(t, historyLog, "slides/b/whiteboard", "whiteboard.node"), nil), []byte(saved))) {
			t.Errorf("the log after the refinement: want the old conversation kept above a new one that holds none of it:\n%s", after)
		}
	}
}

// A run that saves nothing (a dry run) warns about a saved conversation
// it cannot read and starts that node afresh, but sets nothing aside:
// no copy beside the log, no line added to it.
func TestDryRunSetsNothingAside(t *testing.T) {
	generatedRefineLesson(t)
	lines := conversationLines(t, historyLog, "slides/b/whiteboard", "whiteboard.node")
	lines = append(lines, []byte(`{"node":"slides/b/whiteboard","level":"whiteboard.node","role":"tool","tool_call_id":"nobody","content":"x"}`))
	replaceConversation(t, historyLog, "slides/b/whiteboard", "whiteboard.node", lines)
	before, _ := os.ReadFile(historyLog)
	startScript(t, refineFill)
	code, out, errOut := runLessongen(t, "fill", "lesson.yaml", "--slide", "b", "--instruction", "Add a caption", "--dry-run")
	// Started afresh, the script's first answer changes nothing: exit 3.
	if code != 3 || !strings.Contains(errOut, "saved conversation not continued") || strings.Contains(errOut, "set aside") {
		t.Fatalf("dry run: exit %d; want a warning that sets nothing aside\n%s%s", code, out, errOut)
	}
	if after, _ := os.ReadFile(historyLog); !bytes.Equal(before, after) {
		t.Errorf("the dry run wrote the log:\n%s", after[len(before):])
	}
	if m, _ := filepath.Glob(historyLog + ".broken-*"); len(m) > 0 {
		t.Errorf("the dry run set aside %v", m)
	}
}

// A refinement killed while the model was answering leaves its
// instruction saved without an answer. The next refinement, with other
// words, sends a well-formed conversation (no two user turns in a row:
// servers whose chat template wants the roles to alternate refuse it).
// The same instruction again is asked once, not twice.
func TestRefineAfterKilledRefinement(t *testing.T) {
	generatedRefineLesson(t)
	if err := os.CopyFS("../generated", os.DirFS(".")); err != nil {
		t.Fatal(err)
	}
	// What a refinement killed before its answer leaves: the log holds its
	// instruction turn (as sent, with what may change) and nothing after.
	startScript(t, refineFill)
	if code, out, errOut := runLessongen(t, "fill", "lesson.yaml", "--slide", "b", "--instruction", "Make it red"); code != 0 {
		t.Fatalf("fill: exit %d\n%s%s", code, out, errOut)
	}
	var killed []byte
	for _, ln := range conversationLines(t, historyLog, "slides/b/whiteboard", "whiteboard.node") {
		if bytes.Contains(ln, []byte(`"role":"user","content":"Make it red`)) {
			killed = ln
		}
	}
	for _, instruction := range []string{"Make it red", "Add a caption"} {
		for _, f := range []string{".lessongen", "slides", "lesson.yaml"} {
			if err := os.RemoveAll(f); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.CopyFS(".", os.DirFS("../generated")); err != nil {
			t.Fatal(err)
		}
		lines := conversationLines(t, historyLog, "slides/b/whiteboard", "whiteboard.node")
		replaceConversation(t, historyLog, "slides/b/whiteboard", "whiteboard.node", append(lines, killed))
		srv := startScript(t, refineFill)
		if code, out, errOut := runLessongen(t, "fill", "lesson.yaml", "--slide", "b", "--instruction", instruction); code != 0 || len(srv.Requests()) == 0 {
			t.Fatalf("fill %q: exit %d\n%s%s", instruction, code, out, errOut)
		}
		first := srv.Requests()[0].Body
		if msg := malformed(first); msg != "" {
			t.Errorf("fill %q after a killed refinement: %s", instruction, msg)
		}
		if n := bytes.Count(first, []byte(`"content":"Make it red`)); n != 1 {
			t.Errorf("fill %q: the killed instruction is in the request %d times, want once", instruction, n)
		}
		if !bytes.Contains(first, []byte(`"content":"`+instruction)) {
			t.Errorf("fill %q: the instruction was not sent", instruction)
		}
	}
}

// A refinement's saved conversation cut at any line, or inside one (what
// a kill -9 or a machine crash may leave), is continued by the next
// refinement with a well-formed request (malformed: no two user turns in
// a row, every result answering a call of the turn before it), whatever
// the new instruction.
func TestRefineFromEveryCut(t *testing.T) {
	generatedRefineLesson(t)
	generated, _ := os.ReadFile(historyLog)
	board, _ := os.ReadFile("slides/b.yaml")
	startScript(t, refineFill)
	if code, out, errOut := runLessongen(t, "fill", "lesson.yaml", "--slide", "b", "--instruction", "Make it red"); code != 0 {
		t.Fatalf("fill: exit %d\n%s%s", code, out, errOut)
	}
	whole, _ := os.ReadFile(historyLog)
	var cuts []int
	for i := len(generated); i < len(whole); i++ {
		if whole[i-1] == '\n' {
			cuts = append(cuts, i, i+(len(whole)-i)/3) // at the line's end, and inside the next
		}
	}
	for _, cut := range cuts {
		for _, instruction := range []string{"Make it red", "Add a caption"} {
			write(t, "slides/b.yaml", string(board))
			write(t, historyLog, string(whole[:cut]))
			srv := startScript(t, refineFill)
			code, out, errOut := runLessongen(t, "fill", "lesson.yaml", "--slide", "b", "--instruction", instruction)
			if code != 0 && code != 3 || len(srv.Requests()) == 0 {
				t.Fatalf("cut at byte %d, %q: exit %d, %d requests\n%s%s", cut, instruction, code, len(srv.Requests()), out, errOut)
			}
			if msg := malformed(srv.Requests()[0].Body); msg != "" {
				t.Errorf("cut at byte %d, %q: %s", cut, instruction, msg)
			}
		}
	}
}
