package cmd

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/lock"
)

// lockRun takes the run's advisory lock on every file it may write — the
// lesson and its children's files, or their copies under -o — and, where
// it can, on the input it only reads, so a second generate or fill on any
// of them stops before its first model request (exit 2). A dry run writes
// nothing, so it locks as a reader: no folder is made for its locks (a
// child file the run would create may have none yet). A lock left by a
// killed run is taken over with a note on errOut.
func lockRun(doc *compose.Document, out string, dryRun bool, errOut io.Writer) (release func(), err error) {
	children := doc.ChildFiles()
	files := func(lessonPath string) []string {
		paths := []string{lessonPath}
		for _, f := range children {
			paths = append(paths, filepath.Join(filepath.Dir(lessonPath), f))
		}
		return paths
	}
	var write, read []string
	switch {
	case dryRun:
		read = files(doc.Path)
		if out != "" {
			read = append(read, files(out)...)
		}
	case out == "":
		write = files(doc.Path)
	case out == "-": // stdout: nothing is written
		read = files(doc.Path)
	default:
		write, read = files(out), files(doc.Path)
	}
	return acquire(write, read, errOut)
}

// acquire takes the locks (lock.Acquire): another run's is the user's to
// wait for (exit 2), and a killed run's is taken over with a note.
func acquire(write, read []string, errOut io.Writer) (release func(), err error) {
	set, stale, err := lock.Acquire(write, read, lock.Self())
	var held *lock.HeldError
	var lerr *lock.Error
	switch {
	case errors.As(err, &held), errors.As(err, &lerr):
		return nil, &usageError{err}
	case err != nil:
		return nil, err
	}
	for _, s := range stale {
		fmt.Fprintf(errOut, "lessongen: note: %s\n", s)
	}
	return set.Release, nil
}
