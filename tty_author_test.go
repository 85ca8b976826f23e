//go:build linux

package main_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lessongen/lessongen/internal/fakellm"
)

// TestAskAuthorOnTerminal: with --interactive, a subagent's ask_author
// question stays on the screen while the answer is awaited, and the typed
// answer goes back to the model.
func TestAskAuthorOnTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "lessongen")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	script, err := fakellm.ParseScript([]byte(`{"rules": [
  {"match": ["lesson.metadata"], "turns": [
    {"tool_calls": [{"name": "ask_author", "args": {"question": "Which year group is this for?"}}]},
    {"tool_calls": [{"name": "set_objectives", "args": {"objectives": ["Name the three states"]}}]},
    {"content": "Done."}
  ]}
]}`))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.Start(t, script)
	lesson := filepath.Join(dir, "lesson.yaml")
	if err := os.WriteFile(lesson, []byte("version: 1\nmetadata:\n  title: Water\n  objectives:\nslides:\n  - id: s\n    title: S\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	term := startOnTerminal(t, ctx, 40, 120, bin, dir, []string{"LESSONGEN_BASE_URL=" + srv.URL(), "LESSONGEN_API_KEY=" + fakellm.DummyAPIKey, "NO_COLOR="}, "generate", "lesson.yaml", "--interactive", "--concurrency", "1", "--events", "events.jsonl")
	screen := term.screen
	prompt := regexp.MustCompile(`your answer \(empty: let it choose\): $`)
	waitFor(t, ctx, screen, prompt)
	time.Sleep(500 * time.Millisecond)
	s := screen()
	if !prompt.MatchString(lastLine(s)) || !strings.Contains(strings.Join(s, "\n"), "asks: Which year group is this for?") {
		t.Fatalf("question not on screen while waiting:\n%s", strings.Join(s, "\n"))
	}
	if _, err := term.master.Write([]byte("Year 7\n")); err != nil {
		t.Fatal(err)
	}
	if err := term.cmd.Wait(); err != nil {
		t.Fatalf("generate: %v\n%s", err, strings.Join(screen(), "\n"))
	}
	var sent bytes.Buffer
	for _, r := range srv.Requests() {
		sent.Write(r.Body)
	}
	if !bytes.Contains(sent.Bytes(), []byte(`the author answered: Year 7`)) {
		t.Errorf("the answer did not reach the model")
	}
	// The question and the answer are events, with the node that asked,
	// and they are in the node's saved conversation.
	events, err := os.ReadFile(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"kind":"author_question","node":"lesson","level":"lesson.metadata","text":"Which year group is this for?"`,
		`"kind":"author_answer","node":"lesson","level":"lesson.metadata","text":"Year 7","status":"answered"`,
	} {
		if !bytes.Contains(events, []byte(want)) {
			t.Errorf("events lack %s:\n%s", want, events)
		}
	}
	// The lesson's saved conversations, one log (docs/history.md).
	saved, err := os.ReadFile(filepath.Join(dir, ".lessongen", "lesson.yaml", "history.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"name":"ask_author","arguments":"{\"question\":\"Which year group is this for?\"}"`, `the author answered: Year 7`} {
		if !bytes.Contains(saved, []byte(want)) {
			t.Errorf("saved conversation lacks %s:\n%s", want, saved)
		}
	}
}
