//go:build linux

package main_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lessongen/lessongen/internal/fakellm"
)

// On a terminal shorter than the run's table, the live frame keeps below
// the screen's height: it never moves the cursor up further than the
// screen, so it erases itself instead of reprinting below itself.
func TestFrameFitsShortTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "lessongen")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	script, err := fakellm.ParseScript([]byte(`{"latency": "150ms", "rules": [
  {"match": ["whiteboard.metadata"], "turns": [
    {"tool_calls": [{"name": "set_heading", "args": {"heading": "Water"}}]},
    {"content": "Done."}
  ]}
]}`))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.Start(t, script)
	var src strings.Builder
	src.WriteString("version: 1\nmetadata:\n  title: Water\nslides:\n")
	for i := range 12 {
		fmt.Fprintf(&src, "  - id: s%d\n    title: S%d\n    whiteboard:\n      heading: !pending\n      elements: []\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "lesson.yaml"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	const rows = 8
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	term := startOnTerminal(t, ctx, rows, 100, bin, dir, []string{"LESSONGEN_BASE_URL=" + srv.URL(), "LESSONGEN_API_KEY=" + fakellm.DummyAPIKey, "NO_COLOR=1"}, "generate", "lesson.yaml", "--concurrency", "2")
	if err := term.cmd.Wait(); err != nil {
		t.Fatalf("generate: %v\n%s", err, string(term.received()))
	}
	time.Sleep(100 * time.Millisecond)
	out := string(term.received())
	ups := regexp.MustCompile(`\x1b\[(\d+)A`).FindAllStringSubmatch(out, -1)
	if len(ups) == 0 {
		t.Fatal("no live frame was drawn")
	}
	for _, m := range ups {
		if n, _ := strconv.Atoi(m[1]); n >= rows {
			t.Fatalf("the frame moved the cursor up %d lines on a %d-line terminal", n, rows)
		}
	}
	if !strings.Contains(out, "finished rows not shown") {
		t.Error("the frame does not say rows were left out")
	}
	if !strings.Contains(out, "summary: 12 done") {
		t.Error("no summary")
	}
}
