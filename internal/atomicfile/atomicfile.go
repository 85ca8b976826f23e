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
// if it exists; a new file gets perm.
func Write(path string, data []byte, perm os.FileMode) error {
	return WriteIf(path, data, perm, nil)
}

// WriteIf is Write with a last check: once the new content is safely on
// disk beside path, check runs just before the rename, and an error from it
// cancels the write (the temporary file is removed, path is untouched). A
// caller that must not overwrite someone else's change checks there, so the
// window for an unseen change is the rename itself, not the whole write.
func WriteIf(path string, data []byte, perm os.FileMode, check func() error) (err error) {
	dir := filepath.Dir(path)
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create directory for %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
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
	if err = tmp.Sync(); err != nil {
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
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
