//go:build !unix

package atomicfile

import "os"

// keepOwner does nothing here: ownership is not POSIX-style.
func keepOwner(*os.File, os.FileInfo) {}

// canWrite opens the file for writing, which changes nothing without
// O_TRUNC, to ask the system whether this process may write it.
func canWrite(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	return f.Close()
}
