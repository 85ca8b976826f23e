//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A file written by another user (root, in CI) keeps its owner and group.
func TestWriteKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can give a file to another user")
	}
	path := filepath.Join(t.TempDir(), "owned.yaml")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, 65534, 65534); err != nil {
		t.Skipf("chown: %v", err)
	}
	if err := Write(path, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || st.Uid != 65534 || st.Gid != 65534 {
		t.Errorf("owner %v after write, want 65534:65534", fi.Sys())
	}
}
