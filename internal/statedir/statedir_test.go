package statedir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFor(t *testing.T) {
	if got, want := For(filepath.Join("out", "lesson.yaml")), filepath.Join("out", ".lessongen", "lesson.yaml"); got != want {
		t.Errorf("For = %s, want %s", got, want)
	}
	if CheckName("a/schema") == nil || CheckName("a/lesson.yaml") != nil {
		t.Error("CheckName: want only reserved names refused")
	}
}

// Every write refuses a link at any part of its path inside the state
// folder, and the link's target stays untouched.
func TestOpenFileRefusesLinks(t *testing.T) {
	for _, link := range []string{"notes.jsonl", "history", "history/lesson", "history/lesson/lesson.node.jsonl"} {
		t.Run(link, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), ".lessongen", "lesson.yaml")
			outside := filepath.Join(t.TempDir(), "target")
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, link)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(outside, []byte("precious\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, filepath.Join(dir, link)); err != nil {
				t.Fatal(err)
			}
			rel := "notes.jsonl"
			if strings.HasPrefix(link, "history") {
				rel = "history/lesson/lesson.node.jsonl"
			}
			var le *LinkError
			f, err := OpenFile(dir, rel, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
			if !errors.As(err, &le) {
				f.Close()
				t.Fatalf("OpenFile through %s: err %v, want a LinkError", link, err)
			}
			if err := Check(dir); !errors.As(err, &le) {
				t.Fatalf("Check: err %v, want a LinkError", err)
			}
			if data, _ := os.ReadFile(outside); string(data) != "precious\n" {
				t.Fatalf("the target changed: %q", data)
			}
		})
	}
}

func TestCheckRefusesLinkedStateFolder(t *testing.T) {
	lessonDir, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(lessonDir, Name)); err != nil {
		t.Fatal(err)
	}
	dir := For(filepath.Join(lessonDir, "lesson.yaml"))
	var le *LinkError
	if err := Check(dir); !errors.As(err, &le) || le.Path != filepath.Join(lessonDir, Name) {
		t.Fatalf("Check: %v, want a LinkError naming .lessongen", err)
	}
	if _, err := OpenFile(dir, NotesFile, os.O_CREATE|os.O_WRONLY, 0o644); !errors.As(err, &le) {
		t.Fatalf("OpenFile: %v, want a LinkError", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Fatalf("wrote %v outside", entries)
	}
}

func TestMigrate(t *testing.T) {
	setup := func(t *testing.T) string {
		d := t.TempDir()
		for name, data := range map[string]string{
			".lessongen/history/lesson/lesson.metadata.jsonl": "{}\n",
			".lessongen/notes.jsonl":                          `{"text":"n"}` + "\n",
			".lessongen/schema/lesson.json":                   "{}",
		} {
			p := filepath.Join(d, name)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	t.Run("alone: moved", func(t *testing.T) {
		d := setup(t)
		lesson := filepath.Join(d, "a.yaml")
		if ReadDir(lesson) != filepath.Join(d, Name) {
			t.Errorf("ReadDir before migrating = %s, want the old folder", ReadDir(lesson))
		}
		msg, err := Migrate(lesson, false)
		if err != nil || !strings.Contains(msg, "moved") {
			t.Fatalf("Migrate: %q, %v", msg, err)
		}
		for _, p := range []string{"a.yaml/history/lesson/lesson.metadata.jsonl", "a.yaml/notes.jsonl", "schema/lesson.json"} {
			if _, err := os.Stat(filepath.Join(d, Name, p)); err != nil {
				t.Error(err)
			}
		}
		if Old(lesson) != "" {
			t.Error("the old layout is still there")
		}
		if msg, err := Migrate(lesson, false); msg != "" || err != nil {
			t.Errorf("second Migrate: %q, %v", msg, err)
		}
	})
	t.Run("shared: copied", func(t *testing.T) {
		d := setup(t)
		msg, err := Migrate(filepath.Join(d, "a.yaml"), true)
		if err != nil || !strings.Contains(msg, "copied") {
			t.Fatalf("Migrate: %q, %v", msg, err)
		}
		for _, p := range []string{"a.yaml/history/lesson/lesson.metadata.jsonl", "a.yaml/notes.jsonl", "history/lesson/lesson.metadata.jsonl", "notes.jsonl"} {
			if _, err := os.Stat(filepath.Join(d, Name, p)); err != nil {
				t.Error(err)
			}
		}
	})
}

// TestWriteFileRefusesLink: a link planted at a state file after the
// preflight is refused, not followed: its target keeps its content.
func TestWriteFileRefusesLink(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "state")
	outside := filepath.Join(base, "outside.json")
	if err := os.WriteFile(outside, []byte("theirs"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(dir, "provenance.json", []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "provenance.json")); string(b) != "one" {
		t.Fatalf("wrote %q", b)
	}
	os.Remove(filepath.Join(dir, "provenance.json"))
	if err := os.Symlink(outside, filepath.Join(dir, "provenance.json")); err != nil {
		t.Skip(err)
	}
	err := WriteFile(dir, "provenance.json", []byte("two"), 0o644)
	if le := (*LinkError)(nil); !errors.As(err, &le) {
		t.Errorf("WriteFile over a symlink: %v, want a LinkError", err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "theirs" {
		t.Errorf("the link's target now holds %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left %d entries in the state folder, want the link only", len(ents))
	}
}

// A link deep in a history path is refused though it stays inside the
// state folder, and an error names the whole path, not the last part.
func TestOpenFileRefusesDeepLinkInside(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".lessongen", "lesson.yaml")
	inside := filepath.Join(dir, "elsewhere")
	if err := os.MkdirAll(filepath.Join(dir, "history", "slides"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(inside, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(inside, filepath.Join(dir, "history", "slides", "s1")); err != nil {
		t.Fatal(err)
	}
	rel := "history/slides/s1/whiteboard/whiteboard.node.jsonl"
	var le *LinkError
	if _, err := OpenFile(dir, rel, os.O_CREATE|os.O_WRONLY, 0o644); !errors.As(err, &le) || le.Path != filepath.Join(dir, "history", "slides", "s1") {
		t.Fatalf("err %v, want a LinkError naming history/slides/s1", err)
	}
	if entries, _ := os.ReadDir(inside); len(entries) != 0 {
		t.Fatalf("wrote through the link: %v", entries)
	}
	_, err := ReadFile(dir, "history/slides/s2/quiz/quiz.node.jsonl")
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), filepath.Join(dir, "history", "slides", "s2")) {
		t.Fatalf("missing file: %v, want not-exist naming the path", err)
	}
}

// BenchmarkOpenFileDeep creates and reopens a history file five parts
// deep, as each subagent of a run does.
func BenchmarkOpenFileDeep(b *testing.B) {
	dir := filepath.Join(b.TempDir(), ".lessongen", "lesson.yaml")
	i := 0
	for b.Loop() {
		rel := fmt.Sprintf("history/slides/s%d/whiteboard/whiteboard.node.jsonl", i%50)
		i++
		f, err := OpenFile(dir, rel, os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			b.Fatal(err)
		}
		f.Close()
		if _, err := ReadFile(dir, rel); err != nil {
			b.Fatal(err)
		}
	}
}

// An error on the way names the part it happened at: here a folder name
// longer than the system allows, two parts above the file.
func TestErrorNamesThePartItHappenedAt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".lessongen", "lesson.yaml")
	long := strings.Repeat("s", 300)
	_, err := OpenFile(dir, "history/"+long+"/whiteboard/whiteboard.node.jsonl", os.O_CREATE|os.O_WRONLY, 0o644)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != filepath.Join(dir, "history", long) {
		t.Fatalf("err %v, want a path error naming history/%s…", err, long[:8])
	}
}

// ReadFileMax refuses a file past its limit before holding it whole,
// and reads one at the limit.
func TestReadFileMax(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFileMax(dir, "f", 5); err != nil || string(data) != "12345" {
		t.Errorf("at the limit: %q, %v", data, err)
	}
	var tl *TooBigError
	if _, err := ReadFileMax(dir, "f", 4); !errors.As(err, &tl) || !strings.Contains(err.Error(), filepath.Join(dir, "f")) {
		t.Errorf("past the limit: err %v, want a TooBigError naming the file", err)
	}
}

// A folder where batches.json goes is refused before a run, as a batch
// created then could not be saved (and would be paid for twice).
func TestCheckRefusesFolderAtBatchesFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, BatchesFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Check(dir); err == nil || !strings.Contains(err.Error(), BatchesFile+" is a folder") {
		t.Errorf("Check = %v, want the folder at %s refused", err, BatchesFile)
	}
}

// CheckFile refuses what WriteFile could not replace, for one file.
func TestCheckFile(t *testing.T) {
	dir := t.TempDir()
	if err := CheckFile(dir, BatchesFile); err != nil {
		t.Errorf("a new file: %v", err)
	}
	if err := os.Mkdir(filepath.Join(dir, BatchesFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := CheckFile(dir, BatchesFile); err == nil || !strings.Contains(err.Error(), BatchesFile+" is a folder") {
		t.Errorf("a folder there: %v", err)
	}
	os.Remove(filepath.Join(dir, BatchesFile))
	if err := os.Symlink(filepath.Join(t.TempDir(), "x"), filepath.Join(dir, BatchesFile)); err != nil {
		t.Fatal(err)
	}
	var le *LinkError
	if err := CheckFile(dir, BatchesFile); !errors.As(err, &le) {
		t.Errorf("a link there: %v, want a LinkError", err)
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("probe files left: %v", es)
	}
}

// Remove refuses a link at the file or on the way, leaving its target.
func TestRemoveRefusesLink(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	target := filepath.Join(outside, BatchesFile)
	if err := os.WriteFile(target, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	var le *LinkError
	if err := Remove(dir, "sub/"+BatchesFile); !errors.As(err, &le) {
		t.Errorf("Remove through a linked folder: %v, want a LinkError", err)
	}
	if _, err := os.Stat(target); err != nil {
		t.Errorf("the target went: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Remove(dir, "f"); err != nil {
		t.Errorf("Remove of a plain file: %v", err)
	}
}
