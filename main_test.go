package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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
			if err := fakellm.Setup(env); err != nil {
				return err
			}
			return os.CopyFS(filepath.Join(env.WorkDir, "example"), os.DirFS("examples/photosynthesis"))
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":     cmdExits,
			"fakellm":   fakellm.Cmd,
			"interrupt": signalCmd("interrupt", os.Interrupt),
			"quit":      signalCmd("quit", syscall.SIGQUIT),
			"urlcreds":  cmdURLCreds,
		},
	})
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
