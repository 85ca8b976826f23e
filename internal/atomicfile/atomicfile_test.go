package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteNewFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "new.yaml")
	if err := Write(path, []byte("a: 1\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != "a: 1\n" {
		t.Fatalf("read back %q, %v", data, err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the requested 0640", fi.Mode().Perm())
	}
	if names := entries(t, filepath.Dir(path)); len(names) != 1 {
		t.Errorf("directory holds %v, want only the file", names)
	}
}

func TestWriteKeepsExistingPermissions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.yaml")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o600); err != nil { // umask may have narrowed it
		t.Fatal(err)
	}
	if err := Write(path, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v after write, want the file's own 0600", fi.Mode().Perm())
	}
	if data, _ := os.ReadFile(path); string(data) != "new" {
		t.Errorf("content %q", data)
	}
	if names := entries(t, filepath.Dir(path)); len(names) != 1 {
		t.Errorf("temporary files left: %v", names)
	}
}

// When the final rename fails the target is untouched and the temporary
// file is removed.
func TestFailedWriteLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.MkdirAll(filepath.Join(target, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Write(target, []byte("x"), 0o644); err == nil {
		t.Fatal("writing over a non-empty directory succeeded")
	}
	if names := entries(t, dir); len(names) != 1 || names[0] != "target" {
		t.Errorf("directory holds %v, want only the untouched target", names)
	}
	if names := entries(t, target); len(names) != 1 || names[0] != "inside" {
		t.Errorf("target changed: %v", names)
	}
}

func TestWriteIfCheckFailsLeavesFileAlone(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.yaml")
	if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stop := errors.New("changed meanwhile")
	if err := WriteIf(path, []byte("new\n"), 0o644, func() error { return stop }); !errors.Is(err, stop) {
		t.Fatalf("WriteIf = %v, want the check's error", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "old\n" {
		t.Errorf("file = %q, want it untouched", data)
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("left behind: %v", names)
	}
	if err := WriteIf(path, []byte("new\n"), 0o644, func() error { return nil }); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "new\n" {
		t.Errorf("file = %q after a passing check", data)
	}
}
