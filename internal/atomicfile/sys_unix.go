//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// keepOwner gives the new file the old one's owner and group, so a run as
// another user (root in CI) does not take the author's file over. Only
// what the system permits happens; a refusal leaves the writer's own.
func keepOwner(f *os.File, old os.FileInfo) {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok || (int(st.Uid) == os.Geteuid() && int(st.Gid) == os.Getegid()) {
		return
	}
	if f.Chown(int(st.Uid), int(st.Gid)) != nil {
		_ = f.Chown(-1, int(st.Gid)) // the group alone, if we are in it
	}
}

// canWrite asks the system whether this process may write the file,
// without opening it (an open for writing wakes file watchers).
func canWrite(path string) error {
	const wOK = 0x2 // W_OK
	return syscall.Access(path, wOK)
}
