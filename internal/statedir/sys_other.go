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

// syncDir does nothing: a folder cannot be fsynced here (Windows refuses
// to open one for it).
func syncDir(*os.File) error { return nil }

const nonBlock = 0
