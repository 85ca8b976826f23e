//go:build unix

package statedir

import "syscall"

// canWrite asks the system whether this process may write the file,
// without opening it.
func canWrite(path string) error {
	const wOK = 0x2 // W_OK
	return syscall.Access(path, wOK)
}

// openNonblock is added to every open: it changes nothing for a plain
// file, and makes opening a named pipe return at once.
const openNonblock = syscall.O_NONBLOCK
