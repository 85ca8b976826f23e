package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/lessongen/lessongen/internal/fakellm"
)

// TestRealLessons runs testdata/real/<name>.txtar against the shipped
// examples/real lessons (copied into the script's work dir as real/): each
// validates, plans, is generated against a scripted fake model through the
// tools of issue #27, and renders with the answers in the teacher copy only.
func TestRealLessons(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/real",
		Setup: func(env *testscript.Env) error {
			for _, k := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "LESSONGEN_API_KEY", "LESSONGEN_BASE_URL", "LESSONGEN_MODEL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID"} {
				env.Setenv(k, "")
			}
			env.Setenv("XDG_CONFIG_HOME", env.WorkDir+"/.config")
			if err := fakellm.Setup(env); err != nil {
				return err
			}
			return os.CopyFS(filepath.Join(env.WorkDir, "real"), os.DirFS("examples/real"))
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":   cmdExits,
			"fakellm": fakellm.Cmd,
		},
	})
}
