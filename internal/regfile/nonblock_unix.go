//go:build unix

package regfile

import (
	"io/fs"
	"syscall"
)

// nonBlock opens a named pipe without waiting for its other end, so the
// file can be checked and refused.
const nonBlock = syscall.O_NONBLOCK

// Links is the number of hard links to the file fi describes. A file
// with more than one may be a link to a file outside the folder it is
// read from, which nothing on the file tells apart from a copy.
func Links(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
