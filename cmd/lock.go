package cmd

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/lessongen/lessongen/internal/lock"
	"github.com/lessongen/lessongen/lesson"
)

// lockRun takes the run's advisory lock on every file it may write — the
// lesson, its whiteboard files, and the same under -o — so a second
// generate or fill on any of them stops before its first model request. A
// lock left by a killed run is taken over with a note on errOut.
func lockRun(doc *lesson.Document, out string, errOut io.Writer) (release func(), err error) {
	paths := []string{doc.Path}
	boards := doc.BoardFiles()
	for _, f := range boards {
		paths = append(paths, filepath.Join(filepath.Dir(doc.Path), f))
	}
	if out != "" && out != "-" {
		paths = append(paths, out)
		for _, f := range boards {
			paths = append(paths, filepath.Join(filepath.Dir(out), f))
		}
	}
	set, stale, err := lock.Acquire(paths, lock.Self())
	var held *lock.HeldError
	switch {
	case errors.As(err, &held):
		return nil, &usageError{err}
	case err != nil:
		return nil, err
	}
	for _, s := range stale {
		fmt.Fprintf(errOut, "lessongen: note: %s\n", s)
	}
	return set.Release, nil
}
