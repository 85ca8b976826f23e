//go:build linux

package main_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lessongen/lessongen/internal/fakellm"
)

// The hostile sequences planted in lesson text, file names and model
// output: a window title, a screen clear, a colour, and a right-to-left
// override. None may reach a terminal raw.
var hostileSeqs = []string{"\x1b]0;pwned", "\x1b[2J", "\x1b[31;1m", "\u202e", "pwned\x07"}

// TestNothingHostileReachesTheTerminal runs the real binary on a
// pseudo-terminal — render to stdout, load errors of every command that
// loads a lesson, a generate run with the live frame and streamed model
// text — and finds no escape sequence or bidi override from lesson text,
// a file name or the model in what the terminal received.
func TestNothingHostileReachesTheTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "lessongen")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	const good = `version: 1
metadata:
  title: "Title \e]0;pwned\a \u202eevil"
slides:
  - id: s
    title: "Slide \e[31;1mred"
    notes: "Notes \e[2J cleared"
    whiteboard:
      heading: !pending "hint \e[2J"
      elements:
        - {id: t, type: text, x: 10, y: 10, w: 300, h: 60, text: "Text \e[31;1m\u202e"}
`
	// A problem in a file whose name holds an escape: the name is
	// printed in every problem line.
	badName := "bad\x1b[2J.yaml"
	files := map[string]string{
		"good.yaml": good,
		badName:     "version: 1\nmetadata:\n  title: T\n  \"bogus\\e]0;pwned\\a\": 1\nslides: []\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script, err := fakellm.ParseScript([]byte(`{"rules": [{"match": ["whiteboard.metadata"], "turns": [
  {"content": "model says \u001b]0;pwned\u0007 and \u001b[2J\n", "tool_calls": [{"name": "set_heading", "args": {"heading": "H \u001b[31;1m \u202e"}}]},
  {"content": "Done \u202e.\n"}
]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.Start(t, script)

	for _, args := range [][]string{
		{"render", "good.yaml", "-o", "-"},
		{"render", "good.yaml", "--format", "md", "-o", "-"},
		{"validate", badName},
		{"plan", badName},
		{"render", badName, "-o", "-"},
		{"generate", badName},
		{"fill", badName, "--slide", "1"},
		{"plan", "good.yaml"},
		{"generate", "good.yaml", "-o", "out.yaml", "--stream", "--events", "-"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			got := onTerminal(t, bin, dir, []string{"LESSONGEN_BASE_URL=" + srv.URL(), "LESSONGEN_API_KEY=" + fakellm.DummyAPIKey}, args...)
			if len(bytes.TrimSpace(got)) == 0 {
				t.Fatal("nothing printed")
			}
			for _, seq := range hostileSeqs {
				if bytes.Contains(got, []byte(seq)) {
					t.Errorf("the terminal received %q raw:\n%q", seq, got)
				}
			}
		})
	}
}

// onTerminal runs bin with stdin, stdout and stderr on a pseudo-terminal
// and returns every byte the terminal received.
func onTerminal(t *testing.T, bin, dir string, env []string, args ...string) []byte {
	t.Helper()
	master, slave := openPTY(t, 40, 200)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, bin, args...)
	c.Dir = dir
	c.Env = append(os.Environ(), append(env, "TERM=xterm", "NO_COLOR=")...)
	c.Stdin, c.Stdout, c.Stderr = slave, slave, slave
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	done := make(chan []byte)
	go func() {
		var raw bytes.Buffer
		io.Copy(&raw, master) // ends with EIO once the child exits
		done <- raw.Bytes()
	}()
	_ = c.Wait()
	master.SetReadDeadline(time.Now().Add(2 * time.Second))
	return <-done
}
