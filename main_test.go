package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/lessongen/lessongen/cmd"
	"github.com/lessongen/lessongen/internal/fakellm"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"lessongen": func() { os.Exit(cmd.Main()) },
		"diffcheck": diffCheckMain,
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			// No key or server from the developer's machine leaks into a test.
			for _, k := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "LESSONGEN_API_KEY", "LESSONGEN_BASE_URL", "LESSONGEN_MODEL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID"} {
				env.Setenv(k, "")
			}
			env.Setenv("XDG_CONFIG_HOME", env.WorkDir+"/.config")
			env.Values[backgroundKey{}] = map[string]*background{}
			if err := fakellm.Setup(env); err != nil {
				return err
			}
			if err := setupRegistry(env); err != nil {
				return err
			}
			return os.CopyFS(filepath.Join(env.WorkDir, "example"), os.DirFS("examples/photosynthesis"))
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":     cmdExits,
			"eachlevel": cmdEachLevel,
			"fakellm":   fakellm.Cmd,
			"interrupt": signalCmd("interrupt", os.Interrupt),
			"quit":      signalCmd("quit", syscall.SIGQUIT),
			"urlcreds":  cmdURLCreds,
			"peakrss":   cmdPeakRSS,
			"backdate":  cmdBackdate,
			"bg":        cmdBackground,
			"bgexits":   cmdBackgroundExits,
			"bgkill":    cmdBackgroundKill,
			"replace":   cmdReplace,
			"hardlink":  cmdHardlink,
			"mkfifo":    cmdMkfifo,
			"mkpng":     cmdMkpng,
		},
		Condition: func(cond string) (bool, error) {
			if cond == "root" { // permission bits do not stop root
				return os.Geteuid() == 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}

// cmdBackdate sets a file's modification time into the past:
//
//	backdate .lesson.yaml.tmp-1-2 2h
func cmdBackdate(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: backdate FILE DURATION")
	}
	d, err := time.ParseDuration(args[1])
	ts.Check(err)
	t := time.Now().Add(-d)
	ts.Check(os.Chtimes(ts.MkAbs(args[0]), t, t))
}

// cmdExits runs a program and checks its exact exit code:
//
//	exits 3 lessongen generate lesson.yaml
//
// stdout and stderr are then available to the stdout and stderr commands.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad code %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			ts.Fatalf("exits: %v", err)
		}
		got = exit.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}

// signalCmd returns a command that runs a program until the fake model
// server has received n requests, sends it sig, and checks its exit code.
// Its output goes to the files NAME.stdout and NAME.stderr:
//
//	interrupt 3 130 lessongen generate lesson.yaml   (SIGINT)
//	quit 3 1 lessongen generate lesson.yaml          (SIGQUIT)
func signalCmd(name string, sig os.Signal) func(ts *testscript.TestScript, neg bool, args []string) {
	return func(ts *testscript.TestScript, neg bool, args []string) { sendSignal(ts, neg, args, name, sig) }
}

func sendSignal(ts *testscript.TestScript, neg bool, args []string, name string, sig os.Signal) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: %s AFTER_REQUESTS CODE program [args...]", name)
	}
	after, err1 := strconv.Atoi(args[0])
	want, err2 := strconv.Atoi(args[1])
	if err1 != nil || err2 != nil {
		ts.Fatalf("%s: bad numbers %q %q", name, args[0], args[1])
	}
	srv := fakellm.ServerOf(ts)
	if srv == nil {
		ts.Fatalf("%s: run fakellm start first", name)
	}
	path, err := exec.LookPath(args[2])
	if err != nil {
		ts.Fatalf("%s: %v", name, err)
	}
	c := exec.Command(path, args[3:]...)
	c.Dir = ts.MkAbs(".")
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "XDG_CONFIG_HOME", "LESSONGEN_BASE_URL", "LESSONGEN_API_KEY"} {
		c.Env = append(c.Env, k+"="+ts.Getenv(k))
	}
	var stdout, stderr strings.Builder
	c.Stdout, c.Stderr = &stdout, &stderr
	if err := c.Start(); err != nil {
		ts.Fatalf("%s: %v", name, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := srv.WaitForRequests(ctx, after); err != nil {
		c.Process.Kill()
		c.Wait()
		ts.Fatalf("%s: %v\n%s", name, err, stderr.String())
	}
	if err := c.Process.Signal(sig); err != nil {
		ts.Fatalf("%s: %v", name, err)
	}
	err = c.Wait()
	got := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		got = exit.ExitCode()
	} else if err != nil {
		ts.Fatalf("%s: %v", name, err)
	}
	ts.Check(os.WriteFile(ts.MkAbs(name+".stdout"), []byte(stdout.String()), 0o644))
	ts.Check(os.WriteFile(ts.MkAbs(name+".stderr"), []byte(stderr.String()), 0o644))
	if got != want {
		ts.Fatalf("exit code %d, want %d\n%s", got, want, stderr.String())
	}
}

// cmdPeakRSS runs a program to its end, checks its exit code like exits,
// and logs the most memory it held (its peak resident set); the figure is
// also written to peakrss.txt. Its output goes to peakrss.stdout and
// peakrss.stderr:
//
//	peakrss 0 lessongen generate lesson.yaml
func cmdPeakRSS(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: peakrss CODE program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("peakrss: bad code %q", args[0])
	}
	path, err := exec.LookPath(args[1])
	if err != nil {
		ts.Fatalf("peakrss: %v", err)
	}
	c := exec.Command(path, args[2:]...)
	c.Dir = ts.MkAbs(".")
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "XDG_CONFIG_HOME", "LESSONGEN_BASE_URL", "LESSONGEN_API_KEY"} {
		c.Env = append(c.Env, k+"="+ts.Getenv(k))
	}
	var stdout, stderr strings.Builder
	c.Stdout, c.Stderr = &stdout, &stderr
	err = c.Run()
	got := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		got = exit.ExitCode()
	} else if err != nil {
		ts.Fatalf("peakrss: %v", err)
	}
	ts.Check(os.WriteFile(ts.MkAbs("peakrss.stdout"), []byte(stdout.String()), 0o644))
	ts.Check(os.WriteFile(ts.MkAbs("peakrss.stderr"), []byte(stderr.String()), 0o644))
	if got != want {
		ts.Fatalf("exit code %d, want %d\n%s", got, want, stderr.String())
	}
	figure := "peak resident memory: unknown on " + runtime.GOOS
	if bytes, ok := maxRSS(c.ProcessState); ok {
		figure = fmt.Sprintf("peak resident memory: %.1f MB", float64(bytes)/1e6)
	}
	ts.Logf("%s", figure)
	ts.Check(os.WriteFile(ts.MkAbs("peakrss.txt"), []byte(figure+"\n"), 0o644))
}

// diffCheckMain checks that every line of the first file appears in the
// second in the same order: the author's text survives, with only
// additions or replacements of pending lines in between. Lines holding a
// pending marker (!pending, or a key with no value) may go.
//
//	exec diffcheck before.yaml after.yaml
func diffCheckMain() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: diffcheck BEFORE AFTER")
		os.Exit(2)
	}
	before, err1 := os.ReadFile(os.Args[1])
	after, err2 := os.ReadFile(os.Args[2])
	if err := errors.Join(err1, err2); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	rest := strings.Split(string(after), "\n")
	for n, line := range strings.Split(string(before), "\n") {
		i := slices.Index(rest, line)
		if i < 0 {
			if pendingLine(line) {
				continue
			}
			fmt.Fprintf(os.Stderr, "%s:%d: author line lost or moved: %q\n", os.Args[1], n+1, line)
			os.Exit(1)
		}
		rest = rest[i+1:]
	}
}

func pendingLine(line string) bool {
	t := strings.TrimSpace(line)
	if strings.Contains(t, "!pending") {
		return true
	}
	key, value, ok := strings.Cut(t, ":")
	value, _, _ = strings.Cut(value, "#")
	return ok && !strings.Contains(key, " ") && strings.TrimSpace(value) == ""
}

// background is a program started by bg and not yet waited for by bgexits.
type background struct {
	cmd            *exec.Cmd
	stdout, stderr *strings.Builder
}

type backgroundKey struct{}

// backgrounds returns the script's running programs by name.
func backgrounds(ts *testscript.TestScript) map[string]*background {
	m, _ := ts.Value(backgroundKey{}).(map[string]*background)
	return m
}

var backgroundMu sync.Mutex

// cmdBackground starts a program and carries on, so the script can act
// while it runs (edit its files, start a second run); bgexits waits for it:
//
//	bg first lessongen generate lesson.yaml
func cmdBackground(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: bg NAME program [args...]")
	}
	path, err := exec.LookPath(args[1])
	if err != nil {
		ts.Fatalf("bg: %v", err)
	}
	c := exec.Command(path, args[2:]...)
	c.Dir = ts.MkAbs(".")
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "XDG_CONFIG_HOME", "LESSONGEN_BASE_URL", "LESSONGEN_API_KEY"} {
		c.Env = append(c.Env, k+"="+ts.Getenv(k))
	}
	b := &background{cmd: c, stdout: &strings.Builder{}, stderr: &strings.Builder{}}
	c.Stdout, c.Stderr = b.stdout, b.stderr
	if err := c.Start(); err != nil {
		ts.Fatalf("bg: %v", err)
	}
	ts.Defer(func() {
		if c.ProcessState == nil {
			c.Process.Kill()
			c.Wait()
		}
	})
	backgroundMu.Lock()
	defer backgroundMu.Unlock()
	m := backgrounds(ts)
	if m == nil {
		ts.Fatalf("bg: no slot for background programs (see TestScripts Setup)")
	}
	m[args[0]] = b
}

// cmdBackgroundExits waits for a program started by bg, writes its output to
// NAME.stdout and NAME.stderr, and checks its exact exit code:
//
//	bgexits first 3
func cmdBackgroundExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: bgexits NAME CODE")
	}
	want, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("bgexits: bad code %q", args[1])
	}
	backgroundMu.Lock()
	b := backgrounds(ts)[args[0]]
	backgroundMu.Unlock()
	if b == nil {
		ts.Fatalf("bgexits: no program %q started by bg", args[0])
	}
	done := make(chan error, 1)
	go func() { done <- b.cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		b.cmd.Process.Kill()
		ts.Fatalf("bgexits: %s still running after 30s\n%s", args[0], b.stderr.String())
	}
	got := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		got = exit.ExitCode()
	} else if err != nil {
		ts.Fatalf("bgexits: %v", err)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]+".stdout"), []byte(b.stdout.String()), 0o644))
	ts.Check(os.WriteFile(ts.MkAbs(args[0]+".stderr"), []byte(b.stderr.String()), 0o644))
	if got != want {
		ts.Fatalf("%s: exit code %d, want %d\n%s", args[0], got, want, b.stderr.String())
	}
}

// cmdReplace edits a file in place as an author would in an editor:
// replaces the one occurrence of OLD with NEW (\n in either is a newline),
// and fails unless OLD occurs exactly once.
//
//	replace lesson.yaml 'title: Old' 'title: New'
func cmdReplace(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: replace FILE OLD NEW")
	}
	path := ts.MkAbs(args[0])
	data, err := os.ReadFile(path)
	ts.Check(err)
	old := strings.ReplaceAll(args[1], `\n`, "\n")
	repl := strings.ReplaceAll(args[2], `\n`, "\n")
	if n := strings.Count(string(data), old); n != 1 {
		ts.Fatalf("replace: %q occurs %d times in %s, want once:\n%s", old, n, args[0], data)
	}
	ts.Check(os.WriteFile(path, []byte(strings.Replace(string(data), old, repl, 1)), 0o644))
}

// cmdHardlink makes NEW a second hard link to OLD:
//
//	hardlink sources/copy.md canary.md
func cmdHardlink(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: hardlink NEW OLD")
	}
	ts.Check(os.Link(ts.MkAbs(args[1]), ts.MkAbs(args[0])))
}

// cmdBackgroundKill kills a program started by bg with SIGKILL, as a crash
// or an OOM killer would, and waits for it to be gone:
//
//	bgkill first
func cmdBackgroundKill(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: bgkill NAME")
	}
	backgroundMu.Lock()
	b := backgrounds(ts)[args[0]]
	backgroundMu.Unlock()
	if b == nil {
		ts.Fatalf("bgkill: no program %q started by bg", args[0])
	}
	ts.Check(b.cmd.Process.Kill())
	b.cmd.Wait()
}
