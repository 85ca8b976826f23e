package compose_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

const newBoardLesson = "version: 1\nmetadata:\n  title: T\nslides:\n  - id: a\n    title: A\n    whiteboard: {file: slides/new/summary.yaml}\n"

// loadNew loads a lesson whose whiteboard file does not exist yet, and
// returns it with that file's path.
func loadNew(t *testing.T) (*compose.Document, string) {
	t.Helper()
	d := load(t, newBoardLesson)
	return d, filepath.Join(filepath.Dir(d.Path), "slides", "new", "summary.yaml")
}

func setHeading(t *testing.T, d *compose.Document, heading string) {
	t.Helper()
	board, err := d.Child("a", "whiteboard")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := board.Dispatch(t.Context(), whiteboard.SetHeading{Heading: heading}); err != nil {
		t.Fatal(err)
	}
}

// A child file that does not exist yet is a child pending as a whole; the
// first save with something in it creates the file (and its folders), and
// the lesson file is not touched.
func TestMissingChildFileIsCreatedOnSave(t *testing.T) {
	d, path := loadNew(t)
	if got := d.NewFile("a", "whiteboard"); got != "slides/new/summary.yaml" {
		t.Errorf("NewFile = %q", got)
	}
	board, err := d.Child("a", "whiteboard")
	if err != nil {
		t.Fatal(err)
	}
	var pending int
	board.View(func(st session.State) { pending = len(st.Pending()) })
	if pending == 0 {
		t.Fatal("the new whiteboard has nothing pending")
	}
	s := compose.NewSaver(d)
	if files := mustSave(t, s); len(files) != 0 {
		t.Errorf("an untouched new child wrote %v", files)
	}
	if _, err := os.Stat(filepath.Dir(path)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the untouched child's folder exists: %v", err)
	}
	lessonBefore := read(t, d.Path)
	setHeading(t, d, "Summary")
	mustSave(t, s)
	got := read(t, path)
	if want := "heading: Summary\nlayout: !pending\nelements: !pending\n"; got != want {
		t.Errorf("created file:\n%s\nwant:\n%s", got, want)
	}
	if after := read(t, d.Path); after != lessonBefore {
		t.Errorf("the lesson file changed:\n%s", after)
	}
	setHeading(t, d, "Summary, again")
	mustSave(t, s)
	if got := read(t, path); !strings.Contains(got, "heading: Summary, again\n") {
		t.Errorf("second save:\n%s", got)
	}
	if c := s.Conflicts(); len(c) != 0 {
		t.Errorf("conflicts: %v", c)
	}
	again, err := compose.Load(d.Path, testRegistry())
	if err == nil {
		err = again.LoadAll()
	}
	if err != nil || again.NewFile("a", "whiteboard") != "" {
		t.Errorf("reload: %v, NewFile %q", err, again.NewFile("a", "whiteboard"))
	}
}

// A file the author creates during the run, where the run is to create
// one, is theirs: kept as it is, with the run's version beside it, unless
// it holds the very bytes the run would write.
func TestMissingChildFileCreatedDuringTheRun(t *testing.T) {
	t.Run("different", func(t *testing.T) {
		d, path := loadNew(t)
		s := compose.NewSaver(d)
		setHeading(t, d, "Run's")
		mine := "heading: Mine\n"
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(mine), 0o644); err != nil {
			t.Fatal(err)
		}
		mustSave(t, s)
		setHeading(t, d, "Run's, later")
		mustSave(t, s)
		if got := read(t, path); got != mine {
			t.Errorf("the author's file became:\n%s", got)
		}
		c := s.Conflicts()
		if len(c) != 1 || c[0].Path != path || !strings.Contains(c[0].Reason, "was created during the run") {
			t.Fatalf("conflicts = %v", c)
		}
		if got := read(t, c[0].RunCopy); !strings.Contains(got, "heading: Run's, later") {
			t.Errorf("run's copy:\n%s", got)
		}
	})
	t.Run("identical", func(t *testing.T) {
		d, path := loadNew(t)
		s := compose.NewSaver(d)
		setHeading(t, d, "Same")
		files, err := d.Render("")
		if err != nil || len(files) != 1 {
			t.Fatalf("render: %v, %v", files, err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, files[0].Data, 0o644); err != nil {
			t.Fatal(err)
		}
		mustSave(t, s)
		if c := s.Conflicts(); len(c) != 0 {
			t.Errorf("conflicts = %v", c)
		}
		// From then on it is the run's file, merged like any other.
		edit(t, path, "heading: Same\n", "heading: Same\n# the author's note\n")
		setHeading(t, d, "Same") // nothing new; a later level writes elements
		mustSave(t, s)
		if got := read(t, path); !strings.Contains(got, "# the author's note") {
			t.Errorf("the author's later edit was lost:\n%s", got)
		}
	})
}

// A missing child file is pending only where a save could create it
// inside the lesson's folder.
func TestMissingChildFilePaths(t *testing.T) {
	outside := t.TempDir()
	for _, tc := range []struct {
		name, file, want string
		setup            func(t *testing.T, dir string)
	}{
		{"a linked folder out", "ext/new.yaml", `leads outside the lesson's folder (a symlink to ` + outside, func(t *testing.T, dir string) {
			symlink(t, outside, filepath.Join(dir, "ext"))
		}},
		{"a dangling link", "slides/new.yaml", `cannot be created: slides/new.yaml is a symlink that leads nowhere`, func(t *testing.T, dir string) {
			symlink(t, "gone.yaml", filepath.Join(dir, "slides", "new.yaml"))
		}},
		{"a link to a missing folder", "gone/new.yaml", `cannot be created: gone is a symlink that leads nowhere`, func(t *testing.T, dir string) {
			symlink(t, "nowhere", filepath.Join(dir, "gone"))
		}},
		{"a folder inside through a link", "inner/new.yaml", "", func(t *testing.T, dir string) {
			symlink(t, "slides", filepath.Join(dir, "inner"))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{
				"lesson.yaml":  "version: 1\nmetadata:\n  title: T\nslides:\n  - id: a\n    title: A\n    whiteboard: {file: " + tc.file + "}\n",
				"slides/.keep": "",
			})
			tc.setup(t, dir)
			d, err := compose.Load(filepath.Join(dir, "lesson.yaml"), testRegistry())
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("load: %v", err)
			case tc.want == "":
				if d.NewFile("a", "whiteboard") != tc.file {
					t.Errorf("not a new file")
				}
			case err == nil || !strings.Contains(err.Error(), tc.want):
				t.Errorf("load: %v\nwant %q", err, tc.want)
			}
		})
	}
}

// Two slides naming one missing file, in any spelling, is the duplicate
// error, as for a file that exists.
func TestTwoSlidesCannotShareANewFile(t *testing.T) {
	dir := writeFiles(t, map[string]string{"lesson.yaml": "version: 1\nmetadata:\n  title: T\nslides:\n" +
		"  - id: a\n    title: A\n    whiteboard: {file: new/b.yaml}\n" +
		"  - id: b\n    title: B\n    whiteboard: {file: new//b.yaml}\n"})
	_, err := compose.Load(filepath.Join(dir, "lesson.yaml"), testRegistry())
	if err == nil || !strings.Contains(err.Error(), `lesson.yaml:10:24: slide "b" (2).whiteboard.file "new//b.yaml" is already used by another child (line 7)`) {
		t.Errorf("load: %v", err)
	}
}

// A folder on the way to a new file swapped for a link out of the lesson's
// folder during the run is not written through.
func TestNewFileLinkedOutBeforeSaveIsNotWritten(t *testing.T) {
	d, path := loadNew(t)
	setHeading(t, d, "New")
	outside := t.TempDir()
	symlink(t, outside, filepath.Join(filepath.Dir(d.Path), "slides"))
	if _, err := compose.NewSaver(d).Save(""); err == nil || !strings.Contains(err.Error(), "leads outside the lesson's folder") {
		t.Errorf("save: %v", err)
	}
	if _, err := os.Stat(filepath.Join(outside, "new")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("something was made outside: %v", err)
	}
	if _, err := os.Lstat(path); err == nil {
		t.Errorf("%s was written", path)
	}
}

// Saved elsewhere, a new child's file is created under the output folder
// and nothing is made beside the input.
func TestNewFileSavedElsewhere(t *testing.T) {
	d, path := loadNew(t)
	setHeading(t, d, "Copied")
	out := filepath.Join(t.TempDir(), "copy", "lesson.yaml")
	if _, err := compose.NewSaver(d).Save(out); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(filepath.Dir(out), "slides", "new", "summary.yaml")); !strings.Contains(got, "heading: Copied") {
		t.Errorf("copy:\n%s", got)
	}
	if _, err := os.Stat(filepath.Dir(filepath.Dir(path))); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the input's folder got slides/: %v", err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
