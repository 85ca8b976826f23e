//go:build linux

package main_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/lessongen/lessongen/internal/fakellm"
)

// TestApproveAskOnTerminal runs the real binary on a pseudo-terminal:
// the question stays on the screen while the answer is awaited (the live
// progress does not draw over it), "y" applies the change, and the final
// frame has no duplicated rows.
func TestApproveAskOnTerminal(t *testing.T) {
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
  ]},
  {"match": ["whiteboard.metadata"], "turns": [
    {"tool_calls": [{"name": "set_heading", "args": {"heading": "Water"}}]},
    {"content": "Done."}
  ]}
]}`))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.Start(t, script)
	lesson := filepath.Join(dir, "lesson.yaml")
	if err := os.WriteFile(lesson, []byte("version: 1\nmetadata:\n  title: Water\n  objectives:\nslides:\n  - id: s\n    title: S\n    whiteboard:\n      heading: !pending\n      elements: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	term := startOnTerminal(t, ctx, 40, 120, bin, dir, []string{"LESSONGEN_BASE_URL=" + srv.URL(), "LESSONGEN_API_KEY=" + fakellm.DummyAPIKey, "NO_COLOR="}, "generate", "lesson.yaml", "--approve", "ask", "--concurrency", "1")
	screen := term.screen
	question := regexp.MustCompile(`apply\? \[y\]es / \[n\]o / \[a\]lways / \[q\]uit and save: $`)
	// Each change is shown as the diff it makes to the lesson file, right
	// above the question.
	diffs := []string{
		"lesson wants to set_objectives:\n" +
			"  --- lesson.yaml · lesson\n" +
			"  +++ lesson.yaml · lesson (with this change)\n" +
			"  @@ -2,6 +2,7 @@\n" +
			"   metadata:\n" +
			"     title: Water\n" +
			"     objectives:\n" +
			"  +    - Name the three states\n" +
			"   slides:\n" +
			"     - id: s\n" +
			"       title: S\n" +
			"apply? ",
		"slide \"s\" · whiteboard wants to set_heading:\n" +
			"  --- lesson.yaml · slides/s/whiteboard\n" +
			"  +++ lesson.yaml · slides/s/whiteboard (with this change)\n" +
			"  @@ -7,5 +7,5 @@\n" + // the objectives, applied, are two lines above
			"     - id: s\n" +
			"       title: S\n" +
			"       whiteboard:\n" +
			"  -      heading: !pending\n" +
			"  +      heading: Water\n" +
			"         elements: []\n" +
			"apply? ",
	}
	for _, diff := range diffs { // one question per change: objectives, then heading
		waitFor(t, ctx, screen, question)
		// Several frame intervals later, the question is still there, and
		// the diff with it.
		time.Sleep(500 * time.Millisecond)
		s := screen()
		if !question.MatchString(lastLine(s)) {
			t.Fatalf("question wiped while waiting:\n%s", strings.Join(s, "\n"))
		}
		if text := strings.Join(s, "\n"); !strings.Contains(text, diff) {
			t.Fatalf("diff not on screen while waiting; want\n%s\nscreen:\n%s", diff, text)
		}
		if _, err := term.master.Write([]byte("y\n")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
	}
	if err := term.cmd.Wait(); err != nil {
		t.Fatalf("generate: %v\n%s", err, strings.Join(screen(), "\n"))
	}
	time.Sleep(100 * time.Millisecond)
	final := screen()
	t.Logf("final screen:\n%s", strings.Join(final, "\n"))
	seen := map[string]bool{}
	rows := 0
	for _, l := range final {
		if !strings.Contains(l, " · ") || strings.HasPrefix(l, "summary:") {
			continue
		}
		if strings.HasPrefix(l, "✓ ") || strings.HasPrefix(l, "⠋") {
			rows++
		}
		if seen[l] && (strings.HasPrefix(l, "✓") || strings.HasPrefix(l, "-")) {
			t.Errorf("duplicated row %q", l)
		}
		seen[l] = true
	}
	if rows != 2 {
		t.Errorf("final frame has %d finished rows, want 2", rows)
	}
	text := strings.Join(final, "\n")
	// The approval preview is the file's YAML, not the call's JSON.
	if strings.Contains(text, `{"heading"`) || strings.Contains(text, `"objectives"`) {
		t.Error("preview shows JSON arguments")
	}
	for _, want := range []string{"2/2 finished", "summary: 2 done, 0 failed, 0 still pending, 0 with defects (0 defects), 0 interrupted", "wrote lesson.yaml"} {
		if !strings.Contains(text, want) {
			t.Errorf("screen lacks %q", want)
		}
	}
	for _, spin := range []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"} {
		if strings.Contains(text, spin) {
			t.Errorf("spinner %q left on the final screen", spin)
		}
	}
	data, _ := os.ReadFile(lesson)
	if !bytes.Contains(data, []byte("heading: Water")) {
		t.Errorf("change not applied:\n%s", data)
	}
}

func lastLine(s []string) string {
	for i := len(s) - 1; i >= 0; i-- {
		if strings.TrimSpace(s[i]) != "" {
			return s[i]
		}
	}
	return ""
}

func waitFor(t *testing.T, ctx context.Context, screen func() []string, re *regexp.Regexp) {
	t.Helper()
	for {
		if re.MatchString(lastLine(screen())) {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no %s on screen:\n%s", re, strings.Join(screen(), "\n"))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// render plays raw terminal output onto a screen of lines, for the few
// controls the program uses: CR, LF, cursor up (ESC[nA), clear to the end
// of the screen (ESC[J) and colours (ESC[...m, ignored).
func render(raw []byte, width int) []string {
	lines := []string{""}
	row, col := 0, 0
	put := func(r rune) {
		cur := []rune(lines[row])
		for len(cur) < col {
			cur = append(cur, ' ')
		}
		if col < len(cur) {
			cur[col] = r
		} else {
			cur = append(cur, r)
		}
		lines[row] = string(cur)
		col++
	}
	s := []rune(string(raw))
	for i := 0; i < len(s); i++ {
		switch r := s[i]; r {
		case '\r':
			col = 0
		case '\n':
			row++
			if row == len(lines) {
				lines = append(lines, "")
			}
		case '\x1b':
			j := i + 2
			for j < len(s) && (s[j] < '@' || s[j] > '~') {
				j++
			}
			if j >= len(s) {
				i = len(s)
				break
			}
			arg := string(s[i+2 : j])
			switch s[j] {
			case 'A':
				n, _ := strconv.Atoi(arg)
				row = max(0, row-max(n, 1))
			case 'J':
				lines = lines[:row+1]
				lines[row] = string([]rune(lines[row])[:min(col, len([]rune(lines[row])))])
			}
			i = j
		default:
			if col >= width {
				col = 0
				row++
				if row == len(lines) {
					lines = append(lines, "")
				}
			}
			put(r)
		}
	}
	return lines
}

// openPTY opens a pseudo-terminal pair of the given size.
func openPTY(t *testing.T, rows, cols uint16) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatalf("unlockpt: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatalf("ptsname: %v", e)
	}
	ws := struct{ row, col, x, y uint16 }{rows, cols, 0, 0}
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&ws))); e != 0 {
		t.Fatalf("set size: %v", e)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(); s.Close() })
	return m, s
}

// On a terminal, lines other writers print during a run (`--events -`)
// and streamed model text (`--stream`) go above the live frame: the final
// screen holds one frame, whole, and every event line intact.
func TestStrayLinesAboveFrameOnTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "lessongen")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	script, err := fakellm.ParseScript([]byte(`{"latency": "150ms", "stream": {"chunk": 3}, "rules": [
  {"match": ["lesson.metadata"], "turns": [
    {"content": "Writing the objectives now.\nOne moment.", "tool_calls": [{"name": "set_objectives", "args": {"objectives": ["Name the three states"]}}]},
    {"content": "Done."}
  ]},
  {"match": ["whiteboard.metadata"], "turns": [
    {"tool_calls": [{"name": "set_heading", "args": {"heading": "Water"}}]},
    {"content": "Heading set."}
  ]}
]}`))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.Start(t, script)
	lesson := filepath.Join(dir, "lesson.yaml")
	if err := os.WriteFile(lesson, []byte("version: 1\nmetadata:\n  title: Water\n  objectives:\nslides:\n  - id: s\n    title: S\n    whiteboard:\n      heading: !pending\n      elements: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	master, slave := openPTY(t, 200, 400)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, bin, "generate", "lesson.yaml", "--concurrency", "1", "--stream", "--events", "-")
	c.Dir = dir
	c.Env = append(os.Environ(), "LESSONGEN_BASE_URL="+srv.URL(), "LESSONGEN_API_KEY="+fakellm.DummyAPIKey, "TERM=xterm", "NO_COLOR=1")
	c.Stdin, c.Stdout, c.Stderr = slave, slave, slave
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	var raw bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = io.Copy(&raw, master)
	}()
	if err := c.Wait(); err != nil {
		t.Fatalf("generate: %v", err)
	}
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
	final := render(raw.Bytes(), 400)
	text := strings.Join(final, "\n")
	t.Logf("final screen:\n%s", text)
	frames := 0
	events := 0
	for _, l := range final {
		if regexp.MustCompile(`^\d+/2 finished`).MatchString(l) {
			frames++
		}
		if strings.Contains(l, `"kind":`) {
			events++
			if !strings.HasPrefix(l, "{") || !strings.HasSuffix(strings.TrimSpace(l), "}") {
				t.Errorf("event line broken by the frame: %q", l)
			}
		}
	}
	if frames != 1 {
		t.Errorf("%d frames left on screen, want 1 (a stray line landed inside one)", frames)
	}
	if events < 10 {
		t.Errorf("only %d event lines on screen", events)
	}
	for _, want := range []string{"lesson · metadata: Writing the objectives now.", "lesson · metadata: One moment.", `"kind":"text_chunk"`, "2/2 finished"} {
		if !strings.Contains(text, want) {
			t.Errorf("screen lacks %q", want)
		}
	}
}

// terminal is a command running on a pseudo-terminal, and everything the
// terminal has received from it so far.
type terminal struct {
	cmd    *exec.Cmd
	master *os.File
	cols   int
	mu     sync.Mutex
	raw    bytes.Buffer
}

// startOnTerminal starts bin in dir with stdin, stdout and stderr on a new
// rows×cols pseudo-terminal (TERM=xterm, env added to the test's own);
// ctx ending kills it.
func startOnTerminal(t *testing.T, ctx context.Context, rows, cols uint16, bin, dir string, env []string, args ...string) *terminal {
	t.Helper()
	master, slave := openPTY(t, rows, cols)
	c := exec.CommandContext(ctx, bin, args...)
	c.Dir = dir
	c.Env = append(append(os.Environ(), env...), "TERM=xterm")
	c.Stdin, c.Stdout, c.Stderr = slave, slave, slave
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	term := &terminal{cmd: c, master: master, cols: int(cols)}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			term.mu.Lock()
			term.raw.Write(buf[:n])
			term.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return term
}

// received is a copy of every byte the terminal has received so far.
func (term *terminal) received() []byte {
	term.mu.Lock()
	defer term.mu.Unlock()
	return bytes.Clone(term.raw.Bytes())
}

// screen is the terminal's screen as a person would see it now.
func (term *terminal) screen() []string { return render(term.received(), term.cols) }
