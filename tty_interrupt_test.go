//go:build linux

package main_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lessongen/lessongen/internal/fakellm"
)

// Ctrl-C at an approval question on a real terminal stops the run (exit
// 130) and leaves a clean screen: the prompt line ends where the terminal
// echoed ^C, the next line says the question went unanswered, and the
// final frame and the summary follow on lines of their own.
func TestCtrlCAtQuestionOnTerminal(t *testing.T) {
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
    {"tool_calls": [{"name": "set_objectives", "args": {"objectives": ["Name the three states"]}}]},
    {"content": "Done."}
  ]}
]}`))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.Start(t, script)
	lesson := filepath.Join(dir, "lesson.yaml")
	src := []byte("version: 1\nmetadata:\n  title: Water\n  objectives:\nslides: []\n")
	if err := os.WriteFile(lesson, src, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	term := startOnTerminal(t, ctx, 40, 120, bin, dir, []string{"LESSONGEN_BASE_URL=" + srv.URL(), "LESSONGEN_API_KEY=" + fakellm.DummyAPIKey, "NO_COLOR=1"}, "generate", "lesson.yaml", "--approve", "ask")
	screen := term.screen
	waitFor(t, ctx, screen, regexp.MustCompile(`apply\? .*: $`))
	if _, err := term.master.Write([]byte{3}); err != nil { // Ctrl-C, through the terminal
		t.Fatal(err)
	}
	err = term.cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("generate: %v, want exit 130\n%s", err, strings.Join(screen(), "\n"))
	}
	time.Sleep(100 * time.Millisecond)
	final := screen()
	text := strings.Join(final, "\n")
	t.Logf("final screen:\n%s", text)
	at := -1
	for i, l := range final {
		if strings.HasPrefix(l, "apply? ") {
			at = i
		}
	}
	if at < 0 || at+1 >= len(final) {
		t.Fatal("the question is not on the final screen")
	}
	if rest := strings.TrimSpace(strings.TrimPrefix(final[at], "apply? [y]es / [n]o / [a]lways / [q]uit and save:")); rest != "" && rest != "^C" {
		t.Errorf("the prompt line holds %q after the question", rest)
	}
	if final[at+1] != "stopped: not answered, nothing applied" {
		t.Errorf("the line after the question is %q", final[at+1])
	}
	if !strings.Contains(text, "summary: 0 done, 0 failed, 0 still pending, 0 with defects (0 defects), 1 interrupted") {
		t.Error("no summary on its own line")
	}
	for _, spin := range []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"} {
		if strings.Contains(text, spin) {
			t.Errorf("spinner %q left on the final screen", spin)
		}
	}
	if data, _ := os.ReadFile(lesson); !bytes.Equal(data, src) {
		t.Errorf("the unanswered change was applied:\n%s", data)
	}
}
