package statedir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A link (to outside, or to a folder inside the state folder), a named
// pipe, or a file where a folder belongs, planted at any depth of a
// history path, is refused by every way in (create, read, rename from and
// to) with an error naming the planted path; nothing is written through
// it and a pipe never blocks.
func TestPlantedAtEveryDepth(t *testing.T) {
	rel := "history/slides/s1/whiteboard/whiteboard.node.jsonl"
	parts := strings.Split(rel, "/")
	for depth := range parts {
		for _, kind := range []string{"link-out", "link-in", "fifo", "file"} {
			if kind == "file" && depth == len(parts)-1 {
				continue
			}
			t.Run(kind+"@"+strings.Join(parts[:depth+1], "/"), func(t *testing.T) {
				dir := filepath.Join(t.TempDir(), ".lessongen", "lesson.yaml")
				outside := t.TempDir()
				inside := filepath.Join(dir, "inside")
				planted := filepath.Join(dir, filepath.Join(parts[:depth+1]...))
				for _, d := range []string{filepath.Dir(planted), inside} {
					if err := os.MkdirAll(d, 0o755); err != nil {
						t.Fatal(err)
					}
				}
				var err error
				switch kind {
				case "link-out":
					err = os.Symlink(outside, planted)
				case "link-in":
					err = os.Symlink(inside, planted)
				case "fifo":
					err = syscall.Mkfifo(planted, 0o644)
				case "file":
					err = os.WriteFile(planted, []byte("x"), 0o644)
				}
				if err != nil {
					t.Fatal(err)
				}
				check := func(what string, err error) {
					t.Helper()
					var le *LinkError
					switch {
					case err == nil:
						t.Errorf("%s: no error", what)
					case kind != "file" && !errors.As(err, &le):
						t.Errorf("%s: %v, want a LinkError", what, err)
					case kind != "file" && le.Path != planted:
						t.Errorf("%s: %v, want it to name %s", what, err, planted)
					case kind == "file" && !strings.Contains(err.Error(), planted+" is a file, where lessongen keeps a folder; move it away"):
						t.Errorf("%s: %v, want it to say %s is a file where a folder belongs", what, err, planted)
					}
				}
				done := make(chan struct{})
				go func() {
					defer close(done)
					f, err := OpenFile(dir, rel, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
					if err == nil {
						f.Close()
					}
					check("create", err)
					_, err = ReadFile(dir, rel)
					check("read", err)
					check("rename to", Rename(dir, "inside", rel))
					check("rename from", Rename(dir, rel, "aside.jsonl"))
				}()
				select {
				case <-done:
				case <-time.After(5 * time.Second):
					t.Fatal("blocked (opened the pipe?)")
				}
				for _, d := range []string{outside, inside} {
					if entries, _ := os.ReadDir(d); len(entries) != 0 {
						t.Errorf("wrote through the %s into %s: %v", kind, d, entries)
					}
				}
			})
		}
	}
}
