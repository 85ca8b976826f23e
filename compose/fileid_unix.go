//go:build unix

package compose

import (
	"os"
	"syscall"
)

// fileID is a file's identity (device and inode), so many files can be
// compared through a map; nil where the system does not give one.
func fileID(fi os.FileInfo) any {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return [2]uint64{uint64(st.Dev), uint64(st.Ino)}
	}
	return nil
}
