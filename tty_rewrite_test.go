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

// TestRewriteAsksOnTerminal: fill --instruction --rewrite at a terminal
// shows a change to the author's text as a diff, says whose text it is,
// and applies it once approved.
func TestRewriteAsksOnTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "lessongen")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	script, err := fakellm.ParseScript([]byte(`{"rules": [
  {"match": ["slides/s/whiteboard", "whiteboard.node"], "turns": [
    {"tool_calls": [{"name": "update_element", "args": {"id": "title", "text": "Which half is bigger?"}}]},
    {"content": "Done."}
  ]}
]}`))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.Start(t, script)
	lesson := filepath.Join(dir, "lesson.yaml")
	if err := os.WriteFile(lesson, []byte("version: 1\nmetadata:\n  title: Halves\nslides:\n  - id: s\n    title: S\n    whiteboard:\n      heading: Halves\n      elements:\n        - id: title\n          type: text\n          x: 40\n          y: 130\n          w: 400\n          h: 40\n          text: Which is bigger?\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	term := startOnTerminal(t, ctx, 40, 120, bin, dir, []string{"LESSONGEN_BASE_URL=" + srv.URL(), "LESSONGEN_API_KEY=" + fakellm.DummyAPIKey, "NO_COLOR="}, "fill", "lesson.yaml", "--slide", "s", "--rewrite", "--instruction", "Say which half")
	screen := term.screen
	prompt := regexp.MustCompile(`apply\? \[y\]es / \[n\]o / \[a\]lways / \[q\]uit and save: $`)
	waitFor(t, ctx, screen, prompt)
	s := strings.Join(screen(), "\n")
	for _, want := range []string{
		"wants to update_element, changing what the author wrote (--rewrite):",
		"-          text: Which is bigger?",
		"+          text: Which half is bigger?",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the question lacks %q:\n%s", want, s)
		}
	}
	if _, err := term.master.Write([]byte("y\n")); err != nil {
		t.Fatal(err)
	}
	if err := term.cmd.Wait(); err != nil {
		t.Fatalf("fill: %v\n%s", err, strings.Join(screen(), "\n"))
	}
	got, _ := os.ReadFile(lesson)
	if !bytes.Contains(got, []byte("text: Which half is bigger?")) {
		t.Errorf("the approved change is not in the file:\n%s", got)
	}
}
