package compose_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/lessontest"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/whiteboard"
)

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// edit changes a file on disk as the author would, mid-run.
func edit(t *testing.T, path, old, new string) string {
	t.Helper()
	s := read(t, path)
	if strings.Count(s, old) != 1 {
		t.Fatalf("%q not once in %s:\n%s", old, path, s)
	}
	s = strings.Replace(s, old, new, 1)
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return s
}

func mustSave(t *testing.T, s *compose.Saver) []compose.OutFile {
	t.Helper()
	files, err := s.Save("")
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// Without edits on disk a Saver writes what Render renders.
func TestSaverWithoutEditsWritesTheRender(t *testing.T) {
	d := loadFractions(t)
	s := compose.NewSaver(d)
	dispatch(t, d.Session(), lesson.SetSubject{Subject: "math"})
	want, err := d.LessonBytes()
	if err != nil {
		t.Fatal(err)
	}
	mustSave(t, s)
	dispatch(t, d.Session(), lesson.SetGrade{Grade: "4"})
	mustSave(t, s)
	want, _ = d.LessonBytes()
	if got := read(t, d.Path); got != string(want) {
		t.Errorf("saved:\n%s\nwant:\n%s", got, want)
	}
	if c := s.Conflicts(); len(c) != 0 || len(s.Merged()) != 0 {
		t.Errorf("conflicts %v, merged %v", c, s.Merged())
	}
}

// An edit after a checkpoint survives that checkpoint and every later one.
func TestSaverKeepsAnEditAcrossLaterCheckpoints(t *testing.T) {
	d := loadFractions(t)
	s := compose.NewSaver(d)
	dispatch(t, d.Session(), lesson.SetSubject{Subject: "math"})
	mustSave(t, s)
	edit(t, d.Path, "  title: Adding fractions\n", "  title: Adding fractions with like denominators   # renamed\n")
	dispatch(t, d.Session(), lesson.SetGrade{Grade: "4"})
	mustSave(t, s)
	dispatch(t, d.Session(), lesson.SetLanguage{Language: "en"})
	mustSave(t, s)
	mustSave(t, s)
	got := read(t, d.Path)
	for _, want := range []string{"title: Adding fractions with like denominators   # renamed\n", "subject: math", "grade: \"4\"", "language: en"} {
		if !strings.Contains(got, want) {
			t.Errorf("saved file lacks %q:\n%s", want, got)
		}
	}
	if m := s.Merged(); len(m) != 1 || m[0] != d.Path {
		t.Errorf("merged = %v", m)
	}
	if _, err := compose.Load(d.Path, lessontest.Registry()); err != nil {
		t.Errorf("merged file does not load: %v", err)
	}
}

func TestSaverWhitespaceEditKeepsAuthorBytes(t *testing.T) {
	d := loadFractions(t)
	s := compose.NewSaver(d)
	edited := edit(t, d.Path, "version: 1\n", "version: 1\n\n\n")
	dispatch(t, d.Session(), lesson.SetSubject{Subject: "math"})
	mustSave(t, s)
	got := read(t, d.Path)
	if want := strings.Replace(edited, "  subject: !pending\n", "  subject: math\n", 1); got != want {
		t.Errorf("saved:\n%s\nwant:\n%s", got, want)
	}
}

func TestSaverConflicts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, path string)
		reason string
	}{
		{"same spot", func(t *testing.T, path string) { edit(t, path, "  subject: !pending\n", "  subject: arithmetic\n") }, "changed both by you and by this run at metadata.subject (line 6)"},
		{"deleted", func(t *testing.T, path string) { os.Remove(path) }, "was deleted during the run"},
		{"half-typed", func(t *testing.T, path string) { edit(t, path, "version: 1\n", "version: [1\n") }, "is not valid YAML now"},
		{"invalid result", func(t *testing.T, path string) { edit(t, path, "  - id: wrap\n", "  - id: intro\n") }, "could not be merged into a valid file: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := loadFractions(t)
			s := compose.NewSaver(d)
			tc.change(t, d.Path)
			var before string
			if b, err := os.ReadFile(d.Path); err == nil {
				before = string(b)
			}
			dispatch(t, d.Session(), lesson.SetSubject{Subject: "math"})
			files := mustSave(t, s)
			dispatch(t, d.Session(), lesson.SetGrade{Grade: "4"})
			mustSave(t, s)

			var after string
			if b, err := os.ReadFile(d.Path); err == nil {
				after = string(b)
			}
			if after != before {
				t.Errorf("the author's file changed:\n%s\nwant:\n%s", after, before)
			}
			c := s.Conflicts()
			if len(c) != 1 || c[0].Path != d.Path || c[0].RunCopy != d.Path+compose.ConflictSuffix || !strings.Contains(c[0].Reason, tc.reason) {
				t.Fatalf("conflicts = %+v, want one for %s: %s", c, d.Path, tc.reason)
			}
			if len(files) != 1 || files[0].Path != c[0].RunCopy {
				t.Errorf("wrote %v, want only the run's copy", files)
			}
			run := read(t, c[0].RunCopy)
			if !strings.Contains(run, "subject: math") || !strings.Contains(run, "grade: \"4\"") {
				t.Errorf("the run's copy lacks its later changes:\n%s", run)
			}
		})
	}
}

func TestSaverMergesAWhiteboardFile(t *testing.T) {
	d := loadFractions(t)
	s := compose.NewSaver(d)
	recap, err := d.Child("recap", "whiteboard")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(filepath.Dir(d.Path), "boards", "recap.yaml")
	edit(t, path, "heading: What we learned\n", "heading: What we learned today  # the author, mid-run\n")
	dispatch(t, recap, whiteboard.SetLayout{Layout: "three bullets"})
	files := mustSave(t, s)
	if len(files) != 1 || files[0].Path != path {
		t.Fatalf("wrote %v", files)
	}
	got := read(t, path)
	if !strings.Contains(got, "heading: What we learned today  # the author, mid-run\n") || !strings.Contains(got, "layout: three bullets") {
		t.Errorf("board file:\n%s", got)
	}
}

// A checkpoint rewrites only the files that changed since the last one:
// saving again with nothing new leaves the file itself alone (an atomic
// write would replace it with a new file), yet still reports it as the
// run's change.
func TestSaverSkipsFilesUnchangedSinceLastCheckpoint(t *testing.T) {
	d := loadFractions(t)
	s := compose.NewSaver(d)
	stat := func() os.FileInfo {
		t.Helper()
		fi, err := os.Stat(d.Path)
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	dispatch(t, d.Session(), lesson.SetSubject{Subject: "math"})
	mustSave(t, s)
	first := stat()
	if files := mustSave(t, s); len(files) != 1 || files[0].Path != d.Path {
		t.Errorf("second save reported %v, want the lesson", files)
	}
	if !os.SameFile(first, stat()) {
		t.Error("a save with nothing new rewrote the lesson")
	}
	dispatch(t, d.Session(), lesson.SetGrade{Grade: "4"})
	mustSave(t, s)
	if os.SameFile(first, stat()) {
		t.Error("a save after a change did not write the lesson")
	}
	if got := read(t, d.Path); !strings.Contains(got, `grade: "4"`) {
		t.Errorf("saved file lacks the grade:\n%s", got)
	}
}

// An author's save that lands after the run last read the file, in the
// moment before its rename, is caught by the last check (the file's hash):
// the run merges again and the author's bytes survive.
func TestSaverCheckCatchesAnEditJustBeforeTheRename(t *testing.T) {
	d := loadFractions(t)
	s := compose.NewSaver(d)
	edited := false
	compose.SetBeforeCheck(func(path string) {
		if !edited && path == d.Path {
			edited = true
			edit(t, d.Path, "  title: Adding fractions\n", "  title: Adding fractions, in my words   # mine\n")
		}
	})
	t.Cleanup(func() { compose.SetBeforeCheck(nil) })
	dispatch(t, d.Session(), lesson.SetSubject{Subject: "math"})
	mustSave(t, s)
	if !edited {
		t.Fatal("the hook never ran: the save did not check before its rename")
	}
	got := read(t, d.Path)
	for _, want := range []string{"  title: Adding fractions, in my words   # mine\n", "subject: math"} {
		if !strings.Contains(got, want) {
			t.Errorf("saved file lacks %q:\n%s", want, got)
		}
	}
}

// A link made at the conflict copy's name during the run is replaced by
// the copy, never written through: its target stays as it was.
func TestSaverConflictCopyReplacesALink(t *testing.T) {
	d := loadFractions(t)
	s := compose.NewSaver(d)
	outside := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(outside, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, d.Path+compose.ConflictSuffix); err != nil {
		t.Fatal(err)
	}
	edit(t, d.Path, "  subject: !pending\n", "  subject: arithmetic\n")
	dispatch(t, d.Session(), lesson.SetSubject{Subject: "math"})
	mustSave(t, s)
	if got := read(t, outside); got != "precious\n" {
		t.Errorf("the link's target was written:\n%s", got)
	}
	fi, err := os.Lstat(d.Path + compose.ConflictSuffix)
	if err != nil || !fi.Mode().IsRegular() || !strings.Contains(read(t, d.Path+compose.ConflictSuffix), "subject: math") {
		t.Errorf("the conflict copy is not a plain file with the run's version: %v %v", fi, err)
	}
}
