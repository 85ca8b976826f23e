//go:build unix

package sources

import (
	"io/fs"
	"syscall"
)

// nonblock keeps an open of a FIFO swapped in after Stat from hanging.
const nonblock = syscall.O_NONBLOCK

// links is the number of hard links to the file fi describes.
func links(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
