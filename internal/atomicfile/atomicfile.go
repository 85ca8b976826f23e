// Package atomicfile writes files so that a reader (or a crash) sees either
// the old content or the new, never a mix: write a temporary file in the same
// directory, sync it, then rename it over the target.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write replaces path with data atomically. The file keeps its permissions
// (and, where the system allows, its owner and group) if it exists; a new
// file gets perm. When path is a symlink, the file it
// points to is replaced and the link stays a link.
func Write(path string, data []byte, perm os.FileMode) error {
	return WriteIf(path, data, perm, nil)
}

// WriteIf is Write with a last check: once the new content is safely on
// disk beside path, check runs just before the rename, and an error from it
// cancels the write (the temporary file is removed, path is untouched). A
// caller that must not overwrite someone else's change checks there, so the
// window for an unseen change is the rename itself, not the whole write.
func WriteIf(path string, data []byte, perm os.FileMode, check func() error) (err error) {
	target, err := Resolve(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return write(path, target, data, perm, check)
}

// Replace is Write for a file lessongen owns (a conflict copy): a symlink
// at path is replaced by the file, not followed, so its target is never
// written.
func Replace(path string, data []byte, perm os.FileMode) error {
	return write(path, filepath.Clean(path), data, perm, nil)
}

func write(path, target string, data []byte, perm os.FileMode, check func() error) (err error) {
	dir := filepath.Dir(target)
	old, statErr := os.Lstat(target)
	if statErr == nil && old.Mode().IsRegular() {
		perm = old.Mode().Perm()
	} else {
		statErr = os.ErrNotExist
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create directory for %s: %w", path, err)
	}
	tmp, err := createTemp(target)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if statErr == nil {
		keepOwner(tmp, old)
	}
	if err = Sync(tmp, target); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if check != nil {
		if err = check(); err != nil {
			return err
		}
	}
	if err = os.Rename(tmp.Name(), target); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// Resolve returns the file a write to path replaces: path itself, or the
// file a symlink at path points to (through any chain of links).
func Resolve(path string) (string, error) {
	path = filepath.Clean(path) // so the folder of the temporary file is the target's
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return path, nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fmt.Errorf("%s is a symlink that cannot be followed to a file (a dangling link or a loop): %w", path, unwrapPath(err))
	}
	return target, nil
}
