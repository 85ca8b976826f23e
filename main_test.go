package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/lessongen/lessongen/cmd"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"lessongen": func() { os.Exit(cmd.Main()) },
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
			return os.CopyFS(filepath.Join(env.WorkDir, "example"), os.DirFS("examples/photosynthesis"))
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits": cmdExits,
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
