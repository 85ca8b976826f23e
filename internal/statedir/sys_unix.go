//go:build unix

package statedir

import (
	"os"
	"syscall"
)

// canWrite asks the system whether this process may write the file,
// without opening it.
func canWrite(path string) error {
	const wOK = 0x2 // W_OK
	return syscall.Access(path, wOK)
}

// syncDir fsyncs folder d, so a rename into it is durable.
func syncDir(d *os.File) error { return d.Sync() }

// nonBlock opens for reading without waiting: a pipe swapped in after
// the check is not waited on (and is then refused as one).
const nonBlock = syscall.O_NONBLOCK
