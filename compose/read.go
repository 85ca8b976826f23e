package compose

import (
	"errors"
	"fmt"
	"os"

	"github.com/lessongen/lessongen/internal/regfile"
)

// MaxFileBytes bounds a lesson or child file. The largest lessons measured
// (2,000 slides) are about 1 MB; a file 64 times that is a mistake, and
// reading it whole would only spend memory on it.
const MaxFileBytes = 64 << 20

// ErrNotRegular means a path names something other than a regular file: a
// FIFO or device would block or never end, a folder has no content.
var ErrNotRegular = errors.New("is not a regular file")

// readFile reads a regular file of at most MaxFileBytes. It checks the file
// it opened (not the path again), so a FIFO cannot make a load hang.
func readFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%w (%s)", ErrNotRegular, fileKind(fi.Mode()))
	}
	if fi.Size() > MaxFileBytes {
		return nil, fmt.Errorf("is %d MB; a lesson file may be at most %d MB", fi.Size()>>20, MaxFileBytes>>20)
	}
	data, over, err := regfile.ReadAtMost(f, MaxFileBytes)
	if err != nil {
		return nil, err
	}
	if over {
		return nil, fmt.Errorf("grew past %d MB while being read", MaxFileBytes>>20)
	}
	return data, nil
}

func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeDevice != 0, m&os.ModeCharDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}
