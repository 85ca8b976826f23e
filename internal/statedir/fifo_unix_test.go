//go:build unix

package statedir

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A named pipe is refused, not opened: a read of one would wait for a
// writer for ever.
func TestReadFileRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "p"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadFileMax(dir, "p", 10); done <- err }()
	select {
	case err := <-done:
		var le *LinkError
		if !errors.As(err, &le) || le.What != "a named pipe" {
			t.Errorf("err %v, want a LinkError for a named pipe", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a named pipe hung")
	}
}
