// Package regfile opens the files a person names on the command line or in
// a config (--replay, --record, --events, the config file, templates) and
// refuses any that is not a regular file. Opening a named pipe waits for
// its other end, and reading a device may never end: a run told
// `--replay fifo` must say so and stop, not hang past a SIGTERM.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular means a path names a named pipe, a device, a socket or a
// folder.
var ErrNotRegular = errors.New("not a regular file")

// MaxReadBytes bounds ReadFile: the files read this way are settings,
// prompts and recordings, never near this size.
const MaxReadBytes = 256 << 20

// Open opens path for reading. The open never waits (a named pipe is
// opened without its writer) and the file opened is checked, not the path
// again, so nothing swapped in between can block a read.
func Open(path string) (*os.File, error) {
	return checked(os.OpenFile(path, os.O_RDONLY|nonBlock, 0))
}

// ReadFile reads a regular file of at most MaxReadBytes.
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, over, err := ReadAtMost(f, MaxReadBytes)
	if err == nil && over {
		err = fmt.Errorf("%s: more than %d MB", path, MaxReadBytes>>20)
	}
	return data, err
}

// ReadAtMost reads r to its end unless it holds more than max bytes: then
// over is true and data is cut. One byte past max is read, so a file
// that grows while it is read is caught too.
func ReadAtMost(r io.Reader, max int64) (data []byte, over bool, err error) {
	data, err = io.ReadAll(io.LimitReader(r, max+1))
	return data, int64(len(data)) > max, err
}

// Create creates or truncates path for writing (append, with appendOnly).
// An existing path that is not a regular file is refused before anything
// is written to it or truncated.
func Create(path string, appendOnly bool) (*os.File, error) {
	if err := Check(path); err != nil {
		return nil, err
	}
	flag := os.O_WRONLY | os.O_CREATE | nonBlock
	if appendOnly {
		flag |= os.O_APPEND
	}
	f, err := os.OpenFile(path, flag, 0o644)
	if err != nil {
		return nil, err
	}
	if err := check(f); err != nil {
		f.Close()
		return nil, err
	}
	if !appendOnly {
		if err := f.Truncate(0); err != nil {
			f.Close()
			return nil, err
		}
	}
	return f, nil
}

// Check refuses a path that exists and is not a regular file; a path that
// does not exist passes.
func Check(path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return kindErr(path, fi.Mode())
}

func check(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	return kindErr(f.Name(), fi.Mode())
}

func kindErr(path string, m fs.FileMode) error {
	if m.IsRegular() {
		return nil
	}
	kind := "not a regular file"
	switch {
	case m.IsDir():
		kind = "a folder"
	case m&fs.ModeNamedPipe != 0:
		kind = "a named pipe"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		kind = "a device"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	}
	return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w: it is %s", ErrNotRegular, kind)}
}

// OpenIn opens name inside root as Open does: a name that leaves root, by
// `..` or by a symlink pointing out, is refused by os.Root, and what is
// opened is never waited on and must be a regular file.
func OpenIn(root *os.Root, name string) (*os.File, error) {
	return checked(root.OpenFile(name, os.O_RDONLY|nonBlock, 0))
}

// checked is the file an open returned if it is a regular file; anything
// else is closed and refused.
func checked(f *os.File, err error) (*os.File, error) {
	if err != nil {
		return nil, err
	}
	if err := check(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
