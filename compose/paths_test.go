package compose_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/whiteboard"
)

const twoBoardsSrc = "version: 1\nmetadata:\n  title: T\nslides:\n  - id: a\n    title: A\n    whiteboard: {file: boards/a.yaml}\n  - id: b\n    title: B\n    whiteboard: {file: b.yaml}\n"

func loadTwoBoards(t *testing.T) *compose.Document {
	t.Helper()
	return load(t, twoBoardsSrc, "boards/a.yaml", "heading: A\n", "b.yaml", "heading: B\n")
}

// An output is compared with the inputs as the file it names, not as text.
func TestCheckOutputRefusesEverySpellingOfAnInput(t *testing.T) {
	d := loadTwoBoards(t)
	dir := filepath.Dir(d.Path)
	other := t.TempDir()
	if err := os.Symlink(filepath.Join(dir, "boards", "a.yaml"), filepath.Join(other, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, filepath.Join(other, "samedir")); err != nil {
		t.Fatal(err)
	}
	refused := map[string]string{
		filepath.Join(dir, "boards", "a.yaml"):                      `is the whiteboard file of slide "a"`,
		filepath.Join(dir, "boards", "..", "boards", "a.yaml"):      `is the whiteboard file of slide "a"`,
		filepath.Join(other, "link.yaml"):                           `is the whiteboard file of slide "a"`,
		filepath.Join(other, "samedir", "out.yaml"):                 "write to another folder, or in place",
		filepath.Join(other, "copy", "b.yaml"):                      "would both be written to",
		filepath.Join(other, "samedir", "boards", "..", "out.yaml"): "write to another folder, or in place",
		other: "is a folder; name the output file, e.g. " + filepath.Join(other, "lesson.yaml"),
	}
	for out, want := range refused {
		err := d.CheckOutput(out)
		if !strings.Contains(fmtErr(err), want) {
			t.Errorf("-o %s: %v, want an error containing %q", out, err, want)
		}
		if _, err := d.Render(out); err == nil {
			t.Errorf("render to %s was not refused", out)
		}
	}
	for _, out := range []string{"", d.Path, filepath.Join(dir, ".", "lesson.yaml"), filepath.Join(other, "samedir", "lesson.yaml"), filepath.Join(other, "copy", "lesson.yaml")} {
		if err := d.CheckOutput(out); err != nil {
			t.Errorf("-o %s: %v, want it allowed", out, err)
		}
	}
	// In place by another name writes the lesson's own files, nothing new.
	files, err := d.Render(filepath.Join(other, "samedir", "lesson.yaml"))
	if err != nil || len(files) != 0 {
		t.Errorf("unchanged in place: %v, %v; want nothing to write", files, err)
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// A whiteboard copy that would land on another input is refused.
func TestCheckOutputRefusesACopyOverAnInput(t *testing.T) {
	d := load(t, "version: 1\nmetadata:\n  title: T\nslides:\n  - id: a\n    title: A\n    whiteboard: {file: x.yaml}\n  - id: b\n    title: B\n    whiteboard: {file: sub/x.yaml}\n",
		"x.yaml", "heading: A\n", "sub/x.yaml", "heading: B\n")
	err := d.CheckOutput(filepath.Join(filepath.Dir(d.Path), "sub", "out.yaml"))
	if !errors.Is(err, compose.ErrSharedOutput) || !strings.Contains(err.Error(), `the copy of whiteboard file x.yaml would go to`) {
		t.Errorf("got %v", err)
	}
}

func TestOutputsListsEveryFileASaveMayWrite(t *testing.T) {
	d := loadTwoBoards(t)
	dir := filepath.Dir(d.Path)
	got := d.Outputs("")
	want := []string{filepath.Join(dir, "boards", "a.yaml"), filepath.Join(dir, "b.yaml"), d.Path}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("in place: %q, want %q", got, want)
	}
	got = d.Outputs("/o/l.yaml")
	want = []string{"/o/boards/a.yaml", "/o/b.yaml", "/o/l.yaml"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("elsewhere: %q, want %q", got, want)
	}
}

func TestCheckSideFile(t *testing.T) {
	d := loadTwoBoards(t)
	dir := filepath.Dir(d.Path)
	out := filepath.Join(t.TempDir(), "l.yaml")
	for path, want := range map[string]string{
		d.Path:                       "is the lesson file",
		filepath.Join(dir, "b.yaml"): `is the whiteboard file of slide "b"`,
		out:                          "is where this run saves",
		filepath.Join(filepath.Dir(out), "b.yaml"): "is where this run saves",
	} {
		if err := d.CheckSideFile(path, out); !strings.Contains(fmtErr(err), want) {
			t.Errorf("%s: %v, want %q", path, err, want)
		}
	}
	if err := d.CheckSideFile(filepath.Join(dir, "run.jsonl"), out); err != nil {
		t.Errorf("a new file: %v", err)
	}
	if err := d.CheckSideFile(out, "-"); err != nil {
		t.Errorf("nothing is saved to a file with -o -: %v", err)
	}
}

// A whiteboard file that becomes a link out of the folder after the
// lesson was loaded is refused when it is read, without its content.
func TestBoardFileLinkedOutAfterLoadIsRefused(t *testing.T) {
	d := loadTwoBoards(t)
	secret := filepath.Join(t.TempDir(), "secret.yaml")
	if err := os.WriteFile(secret, []byte("heading: CANARY\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	board := filepath.Join(filepath.Dir(d.Path), "b.yaml")
	if err := os.Remove(board); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, board); err != nil {
		t.Fatal(err)
	}
	_, err := d.Child("b", "whiteboard")
	if err == nil || !strings.Contains(err.Error(), "leads outside the lesson's folder") || strings.Contains(err.Error(), "CANARY") {
		t.Errorf("got %v", err)
	}
}

// A whiteboard file swapped for a link out of the folder during a run is
// not written through: the save fails and the outside file is untouched.
func TestBoardFileLinkedOutBeforeSaveIsNotWritten(t *testing.T) {
	d := load(t, "version: 1\nmetadata:\n  title: T\nslides:\n  - id: a\n    title: A\n    whiteboard: {file: b.yaml}\n", "b.yaml", "heading: !pending\n")
	board, err := d.Child("a", "whiteboard")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := board.Dispatch(t.Context(), whiteboard.SetHeading{Heading: "New"}); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "victim.yaml")
	if err := os.WriteFile(outside, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(filepath.Dir(d.Path), "b.yaml")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, path); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(""); err == nil || !strings.Contains(err.Error(), "leads outside the lesson's folder") {
		t.Errorf("save: %v", err)
	}
	if data, _ := os.ReadFile(outside); string(data) != "keep me\n" {
		t.Errorf("the outside file was written: %q", data)
	}
}

// Saves replace files (new inodes, old ones freed and reused): the check
// that a whiteboard file is not the lesson itself must not go by what the
// lesson file was at load.
func TestRepeatedSavesAreNotMistakenForAliasing(t *testing.T) {
	d := load(t, "version: 1\nmetadata:\n  title: !pending\nslides:\n  - id: a\n    title: A\n    whiteboard: {file: b.yaml}\n", "b.yaml", "heading: !pending\nlayout: !pending\n")
	board, err := d.Child("a", "whiteboard")
	if err != nil {
		t.Fatal(err)
	}
	steps := []func() error{
		func() error { _, err := d.Session().Dispatch(t.Context(), lesson.SetTitle{Title: "T"}); return err },
		func() error { _, err := board.Dispatch(t.Context(), whiteboard.SetHeading{Heading: "H"}); return err },
		func() error { _, err := board.Dispatch(t.Context(), whiteboard.SetLayout{Layout: "L"}); return err },
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatal(err)
		}
		if err := d.Save(""); err != nil {
			t.Fatalf("save %d: %v", i, err)
		}
	}
}
