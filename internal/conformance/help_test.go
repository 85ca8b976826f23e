package conformance_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/cmd"
)

// TestHelpNamesEveryKind: the help of the commands that take any kind
// (schema, render) is read from the registry, so the toy, registered in a
// test only, is named there with what it is (its Doc).
func TestHelpNamesEveryKind(t *testing.T) {
	reg := registry(t)
	for _, command := range []string{"schema", "render"} {
		out, errOut, code := run(t, context.Background(), reg, command, "--help")
		if code != cmd.ExitOK {
			t.Fatalf("%s --help (exit %d): %s", command, code, errOut)
		}
		for _, k := range reg.Children() {
			if !strings.Contains(out, k.Name) || !strings.Contains(out, k.Doc) {
				t.Errorf("%s --help does not name the %s (%q):\n%s", command, k.Name, k.Doc, out)
			}
		}
	}
}
