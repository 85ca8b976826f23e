package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Writing through a symlink replaces the file it points to; the link stays.
func TestWriteThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real", "b.yaml")
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "b.yaml")
	if err := os.Symlink("real/b.yaml", link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v, %v", fi.Mode(), err)
	}
	if data, _ := os.ReadFile(target); string(data) != "new" {
		t.Errorf("target holds %q, want the new content", data)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("target mode %v, want its own 0600", fi.Mode().Perm())
	}
	if names := entries(t, dir); strings.Join(names, ",") != "b.yaml,real" {
		t.Errorf("link folder holds %v", names)
	}
	if names := entries(t, filepath.Dir(target)); len(names) != 1 {
		t.Errorf("temporary files left beside the target: %v", names)
	}
}

func TestWriteThroughDanglingSymlinkFails(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "b.yaml")
	if err := os.Symlink("missing/b.yaml", link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, []byte("new"), 0o644); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Fatalf("err = %v, want one about the symlink", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); err == nil {
		t.Error("a folder was created for the dangling link")
	}
}

func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.yaml")
	ro := filepath.Join(dir, "ro.yaml")
	blocker := filepath.Join(dir, "blocker")
	for _, p := range []string{ok, ro, blocker} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(ro, 0o444); err != nil {
		t.Fatal(err)
	}
	if err := CheckWritable(ok, filepath.Join(dir, "new", "deeper", "x.yaml")); err != nil {
		t.Errorf("writable targets refused: %v", err)
	}
	if err := CheckWritable(ok, ro); !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), ro) {
		t.Errorf("read-only file: err = %v, want ErrReadOnly naming it", err)
	}
	if err := CheckWritable(filepath.Join(blocker, "x.yaml")); err == nil || !strings.Contains(err.Error(), "blocker is a file, not a folder") {
		t.Errorf("file in place of a folder: err = %v", err)
	}
	if names := entries(t, dir); strings.Join(names, ",") != "blocker,ok.yaml,ro.yaml" {
		t.Errorf("the check left files behind: %v", names)
	}
}

// A folder without write permission is refused; root ignores the bits,
// so this part runs only as another user.
func TestCheckWritableReadOnlyFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: permission bits do not stop writes (TestCheckWritable covers what root cannot do)")
	}
	dir := filepath.Join(t.TempDir(), "locked")
	if err := os.Mkdir(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	if err := CheckWritable(filepath.Join(dir, "x.yaml")); err == nil || !strings.Contains(err.Error(), "cannot create files in") {
		t.Errorf("err = %v, want one about the folder", err)
	}
}

func TestSweep(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "lesson.yaml")
	ancient := time.Now().Add(-2 * time.Hour)
	files := []struct {
		name  string
		mtime time.Time
		gone  bool
	}{
		{".lesson.yaml.tmp-999999999-123", ancient, true},                       // a dead writer's
		{fmt.Sprintf(".lesson.yaml.tmp-%d-124", os.Getpid()), time.Now(), true}, // fresh, a live PID: the lock says no writer
		{".lesson.yaml.tmp-987655", time.Now(), true},                           // older form
		{".other.yaml.tmp-999999999-127", ancient, false},                       // not a target of this run
		{"lesson.yaml.tmp-1-1", ancient, false},                                 // not our pattern
		{".lesson.yaml.tmp-999999999-12x", ancient, false},                      // not our pattern
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, f.mtime, f.mtime); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "lesson.yaml"), filepath.Join(dir, ".lesson.yaml.tmp-1-2")); err != nil {
		t.Fatal(err)
	}
	if got := Planted(target); len(got) != 1 || filepath.Base(got[0]) != ".lesson.yaml.tmp-1-2" {
		t.Errorf("Planted = %v, want the link", got)
	}
	removed := Sweep(target)
	for _, f := range files {
		_, err := os.Stat(filepath.Join(dir, f.name))
		if gone := errors.Is(err, os.ErrNotExist); gone != f.gone {
			t.Errorf("%s: removed=%v, want %v", f.name, gone, f.gone)
		}
	}
	if len(removed) != 3 {
		t.Errorf("removed %v, want 3 paths", removed)
	}
	if _, err := os.Lstat(filepath.Join(dir, ".lesson.yaml.tmp-1-2")); err != nil {
		t.Error("Sweep removed a link it did not make")
	}
}

// A temporary file of a write in flight is named so Sweep finds it.
func TestTempNameCarriesPID(t *testing.T) {
	dir := t.TempDir()
	f, err := createTemp(filepath.Join(dir, "lesson.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	name := filepath.Base(f.Name())
	m := tempRE.FindStringSubmatch(name)
	if m == nil || m[1] != "lesson.yaml" || m[2] != fmt.Sprint(os.Getpid()) {
		t.Fatalf("temporary name %q does not carry the target and PID", name)
	}
}
