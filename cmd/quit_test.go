package cmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A command quit by SIGQUIT exits 1 even when it finished its work (it
// does not watch the context), never 0 or 2.
func TestQuitExitsOne(t *testing.T) {
	if got := exitCode(ErrQuit); got != ExitFailure {
		t.Errorf("exitCode(ErrQuit) = %d, want %d", got, ExitFailure)
	}
	path := filepath.Join(t.TempDir(), "lesson.yaml")
	if err := os.WriteFile(path, []byte("version: 1\nmetadata:\n  title: x\nslides: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(ErrQuit)
	var out, errOut bytes.Buffer
	code := Run(ctx, []string{"validate", path}, &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	if code != ExitFailure || !strings.Contains(errOut.String(), "quit by SIGQUIT") {
		t.Errorf("exit %d, stderr %q; want 1 and the reason", code, errOut.String())
	}
}
