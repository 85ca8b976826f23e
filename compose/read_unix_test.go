//go:build unix

package compose_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/lessontest"
)

// A FIFO named as the lesson or as a child file is refused at once; before,
// reading it waited for a writer for ever.
func TestLoadRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "lesson.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := compose.Load(fifo, lessontest.Registry())
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Fatalf("Load(fifo) = %v, want a named-pipe refusal", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Load(fifo) hangs")
	}
}

func TestLoadRefusesHugeFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lesson.yaml")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(compose.MaxFileBytes + 1); err != nil { // sparse: no real disk used
		t.Fatal(err)
	}
	f.Close()
	_, err = compose.Load(path, lessontest.Registry())
	if err == nil || !strings.Contains(err.Error(), "at most 64 MB") {
		t.Fatalf("Load(huge) = %v, want a size refusal", err)
	}
}
