package compose

import (
	"os"
	"path/filepath"
	"testing"
)

// FilesSum changes with the lesson file, with any child file it names, and
// with which file holds which bytes; a missing file is not an empty one.
func TestFilesSum(t *testing.T) {
	dir := t.TempDir()
	lesson := filepath.Join(dir, "lesson.yaml")
	put := func(name, data string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("lesson.yaml", "version: 1\n")
	put("slides/a.yaml", "heading: A\n")
	put("slides/b.yaml", "heading: B\n")
	rels := []string{"slides/a.yaml", "slides/b.yaml"}
	base := FilesSum(lesson, rels)
	if FilesSum(lesson, rels) != base {
		t.Fatal("the same files hash differently")
	}
	seen := map[string]string{base: "as written"}
	check := func(what, sum string) {
		t.Helper()
		if prev, ok := seen[sum]; ok {
			t.Errorf("%s hashes as %s does", what, prev)
		}
		seen[sum] = what
	}
	put("slides/b.yaml", "heading: C\n")
	check("a child file edited", FilesSum(lesson, rels))
	put("slides/b.yaml", "heading: B\n")
	check("the children swapped", FilesSum(lesson, []string{"slides/b.yaml", "slides/a.yaml"}))
	check("one child fewer", FilesSum(lesson, rels[:1]))
	put("slides/b.yaml", "")
	check("a child file emptied", FilesSum(lesson, rels))
	os.Remove(filepath.Join(dir, "slides/b.yaml"))
	check("a child file missing", FilesSum(lesson, rels))
	put("slides/b.yaml", "heading: B\n")
	put("lesson.yaml", "version: 1\n# edited\n")
	check("the lesson edited", FilesSum(lesson, rels))
}
