//go:build unix

package lock

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSecondAcquireIsRefusedAndNamesHolder(t *testing.T) {
	dir := t.TempDir()
	lesson := filepath.Join(dir, "lesson.yaml")
	write(t, lesson, "x")
	first := Holder{PID: 4242, Host: "build-7", Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	s, stale, err := Acquire([]string{lesson}, nil, first)
	if err != nil || len(stale) != 0 {
		t.Fatalf("first acquire: %v %v", stale, err)
	}
	_, _, err = Acquire([]string{lesson}, nil, Self())
	var held *HeldError
	if !errors.As(err, &held) {
		t.Fatalf("second acquire: got %v, want a HeldError", err)
	}
	if held.Holder != first {
		t.Errorf("holder %+v, want %+v", held.Holder, first)
	}
	for _, want := range []string{"lesson.yaml", "pid 4242", "build-7", "2026-01-02T03:04:05Z"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not name %q", err, want)
		}
	}
	s.Release()
	if _, err := os.Stat(Path(lesson)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file left after release: %v", err)
	}
	s2, _, err := Acquire([]string{lesson}, nil, Self())
	if err != nil {
		t.Fatalf("acquire after release: %v", err)
	}
	s2.Release()
}

// A child file named through another path (a symlink, ..) shares the lock.
func TestOtherSpellingOfAFileSharesItsLock(t *testing.T) {
	dir := t.TempDir()
	board := filepath.Join(dir, "slides", "b1.yaml")
	write(t, board, "x")
	if err := os.Symlink(filepath.Join(dir, "slides"), filepath.Join(dir, "alias")); err != nil {
		t.Fatal(err)
	}
	s, _, err := Acquire([]string{filepath.Join(dir, "a.yaml"), board}, nil, Self())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Release()
	for _, other := range []string{filepath.Join(dir, "alias", "b1.yaml"), filepath.Join(dir, "slides", "..", "slides", "b1.yaml")} {
		_, _, err := Acquire([]string{filepath.Join(dir, "b.yaml"), other}, nil, Self())
		var held *HeldError
		if !errors.As(err, &held) {
			t.Errorf("%s: got %v, want a HeldError", other, err)
		}
	}
	// The refused run released the lock it had taken on b.yaml.
	s2, _, err := Acquire([]string{filepath.Join(dir, "b.yaml")}, nil, Self())
	if err != nil {
		t.Fatalf("b.yaml stayed locked after a refused acquire: %v", err)
	}
	s2.Release()
}

// A lock file whose holder died (kill -9: the kernel dropped the flock, the
// file stayed) is reported and taken over.
func TestStaleLockIsReportedAndTakenOver(t *testing.T) {
	dir := t.TempDir()
	lesson := filepath.Join(dir, "lesson.yaml")
	write(t, lesson, "x")
	dead := Holder{PID: 999999, Host: "h", Started: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	data, _ := json.Marshal(dead)
	write(t, Path(lesson), string(data))
	self := Self()
	s, stale, err := Acquire([]string{lesson}, nil, self)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Release()
	if len(stale) != 1 || stale[0].Holder != dead || stale[0].Lock != Path(lesson) {
		t.Fatalf("stale = %+v, want the dead holder", stale)
	}
	if !strings.Contains(stale[0].String(), "pid 999999") {
		t.Errorf("stale message %q does not name the pid", stale[0])
	}
	got, err := os.ReadFile(Path(lesson))
	if err != nil || !strings.Contains(string(got), `"pid":`) || strings.Contains(string(got), "999999") {
		t.Errorf("lock file after takeover = %q, %v; want this run as holder", got, err)
	}
}

func TestLockPathIsHiddenBesideTheFile(t *testing.T) {
	dir := t.TempDir()
	got := Path(filepath.Join(dir, "slides", "new.yaml"))
	want := filepath.Join(dir, "slides", ".new.yaml.lock")
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		want = filepath.Join(r, "slides", ".new.yaml.lock")
	}
	if got != want {
		t.Errorf("Path = %s, want %s", got, want)
	}
}

// A file the run only reads, in a folder it cannot write to, is no reason
// to refuse; a file it writes there is, with the folder named.
func TestReadOnlyFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes to read-only folders")
	}
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro")
	lesson := filepath.Join(ro, "lesson.yaml")
	write(t, lesson, "x")
	if err := os.Chmod(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(ro, 0o755)
	out := filepath.Join(dir, "out", "lesson.yaml")
	s, _, err := Acquire([]string{out}, []string{lesson}, Self())
	if err != nil {
		t.Fatalf("read-only input: %v", err)
	}
	s.Release()
	_, _, err = Acquire([]string{lesson}, nil, Self())
	var lerr *Error
	if !errors.As(err, &lerr) || !strings.Contains(err.Error(), "needs write access") {
		t.Errorf("read-only output: got %v, want a lock.Error", err)
	}
}

// A file the run will create in a folder that does not exist yet gets its
// lock there (the folder is made), and the folder goes again on release
// when the run wrote nothing in it. A file only read makes no folder.
func TestLockInAMissingFolder(t *testing.T) {
	dir := t.TempDir()
	lesson := filepath.Join(dir, "lesson.yaml")
	write(t, lesson, "x")
	created := filepath.Join(dir, "slides", "new", "summary.yaml")
	kept := filepath.Join(dir, "kept", "b.yaml")
	readOnly := filepath.Join(dir, "input", "b.yaml")
	s, _, err := Acquire([]string{lesson, created, kept}, []string{readOnly}, Self())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(Path(created)); err != nil {
		t.Errorf("no lock beside the new file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "input")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a folder was made for a file only read: %v", err)
	}
	write(t, kept, "the run's")
	s.Release()
	if _, err := os.Stat(filepath.Join(dir, "slides")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the empty folders made for the lock are left: %v", err)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("a folder the run wrote in is gone: %v", err)
	}
}
