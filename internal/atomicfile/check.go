package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// ErrReadOnly means a file that would be replaced has no write permission
// bit set: its owner marked it read-only, and a rename would ignore that.
var ErrReadOnly = errors.New("the file is read-only")

// CheckWritable reports the first of paths that Write could not replace,
// without changing anything: an existing file must be a regular file with
// a write bit that opens for writing, and the folder Write would create
// its temporary file in (or its nearest existing parent, for a folder not
// there yet) must take one. Each folder is tried once, with a temporary
// file named as Write names them, removed at once.
//
// Permission bits do not stop root; the read-only bit check and a folder
// that is not a folder still do.
func CheckWritable(paths ...string) error {
	tried := map[string]bool{}
	for _, p := range paths {
		target, err := Resolve(p)
		if err != nil {
			return err
		}
		if err := checkFile(p, target); err != nil {
			return err
		}
		dir, err := existingDir(filepath.Dir(target))
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		if tried[dir] {
			continue
		}
		tried[dir] = true
		tmp, err := createTemp(filepath.Join(dir, filepath.Base(target)))
		if err != nil {
			return fmt.Errorf("%s: cannot create files in %s: %w", p, dir, unwrapPath(err))
		}
		tmp.Close()
		os.Remove(tmp.Name())
	}
	return nil
}

func checkFile(p, target string) error {
	fi, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return nil // a new file: its folder is checked next
	case err != nil:
		return fmt.Errorf("%s: %w", p, unwrapPath(err))
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s: %s is not a regular file", p, target)
	case fi.Mode().Perm()&0o222 == 0:
		return fmt.Errorf("%s: %w (mode %v)", p, ErrReadOnly, fi.Mode().Perm())
	}
	if err := canWrite(target); err != nil {
		return fmt.Errorf("%s: cannot write: %w", p, unwrapPath(err))
	}
	return nil
}

// existingDir returns dir, or its nearest parent that exists, as long as
// what exists is a folder.
func existingDir(dir string) (string, error) {
	for {
		fi, err := os.Stat(dir)
		switch {
		case err == nil && fi.IsDir():
			return dir, nil
		case err == nil:
			return "", fmt.Errorf("%s is a file, not a folder", dir)
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			return "", unwrapPath(err)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", err
		}
		dir = parent
	}
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
