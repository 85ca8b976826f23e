//go:build unix

package llm_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lessongen/lessongen/internal/fakellm"
	"github.com/lessongen/lessongen/llm"
)

// A named pipe at a round file's name fails the round at once, naming
// it: opening one to read waits for a writer for ever.
func TestBatchDirFIFODoesNotHang(t *testing.T) {
	for _, which := range []string{".in.jsonl", ".out.jsonl"} {
		t.Run(which, func(t *testing.T) {
			srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{}}, NoBatch: true})
			dir := t.TempDir()
			base := roundName(t, srv, dir, "hello")
			if which == ".in.jsonl" {
				os.Remove(base + which)
			}
			if err := syscall.Mkfifo(base+which, 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
			defer cancel()
			b := batcher(t, srv, llm.BatchConfig{Size: 1, Dir: dir, Deadline: time.Second})
			_, err := ask(b, ctx, "hello")
			if errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("the run hung on the named pipe %s", base+which)
			}
			if err == nil || !strings.Contains(err.Error(), base+which+" is a named pipe") {
				t.Errorf("err = %v, want one naming the pipe", err)
			}
		})
	}
}
