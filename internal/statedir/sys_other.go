//go:build !unix

package statedir

import "os"

// canWrite opens the file for appending, which changes nothing.
func canWrite(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	return f.Close()
}

// openNonblock is added to every open: it changes nothing for a plain
// file, and makes opening a named pipe return at once.
const openNonblock = 0
