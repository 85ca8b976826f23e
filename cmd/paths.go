package cmd

import (
	"fmt"
	"path/filepath"

	"github.com/lessongen/lessongen/internal/atomicfile"
	"github.com/lessongen/lessongen/lesson"
)

// checkPaths does, before any model request, every check on the files a
// run writes, so a run that could not save stops while nothing is spent:
// no output may land on an input (-o, the events file), and every file a
// save may write must be writable. It also removes temporary files that
// earlier, killed runs left where this one writes. Saving to stdout and a
// dry run write no lesson file.
func checkPaths(doc *lesson.Document, opts *generateOptions, events string, dryRun bool) error {
	if opts.out != "" && opts.out != "-" {
		// One spelling from here on, so the checks and the writes agree.
		opts.out = filepath.Clean(opts.out)
		if err := doc.CheckOutput(opts.out); err != nil {
			return &usageError{fmt.Errorf("-o %s: %w", opts.out, err)}
		}
	}
	if events != "" && events != "-" {
		if err := doc.CheckSideFile(events, opts.out); err != nil {
			return usagef("--events %v", err)
		}
	}
	if opts.out == "-" || dryRun {
		return nil
	}
	paths := doc.Outputs(opts.out)
	if err := atomicfile.CheckWritable(paths...); err != nil {
		return usagef("cannot save the lesson: %v\nfix: make it writable, or save elsewhere with -o", err)
	}
	for _, p := range atomicfile.CleanStale(paths...) {
		fmt.Fprintf(opts.io.ErrOut, "lessongen: removed %s, a temporary file an interrupted run left behind\n", p)
	}
	return nil
}
