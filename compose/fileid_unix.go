//go:build unix

package compose

import (
	"os"
	"syscall"
	"time"
)

// fileID is a file's identity (device and inode), so many files can be
// compared through a map; nil where the system does not give one.
func fileID(fi os.FileInfo) any {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return [2]uint64{uint64(st.Dev), uint64(st.Ino)}
	}
	return nil
}

// changeTime is when the file's inode last changed (ctime): a write, and
// unlike the modification time, not one a program can set back.
func changeTime(fi os.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec))
	}
	return time.Time{}
}
