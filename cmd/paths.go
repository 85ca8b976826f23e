package cmd

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/atomicfile"
	"github.com/lessongen/lessongen/internal/regfile"
	"github.com/lessongen/lessongen/orchestrate"
)

// checkPaths refuses, before any model request, a run whose outputs would
// land on an input: -o in any spelling, and the events file.
func checkPaths(doc *compose.Document, opts *generateOptions, events string) error {
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
		if err := regfile.Check(events); err != nil {
			return usagef("--events: %v\nfix: name a file, or - for stderr", err)
		}
	}
	return nil
}

// prepareSave checks, before any model request, that every file the run's
// saves may write can be written, so a run that could not save stops while
// nothing is spent; then it removes temporary files that earlier, killed
// runs left where this one writes. Only the children of slides with a
// child step can change (see compose.Document.SaveTargets).
func prepareSave(doc *compose.Document, opts *generateOptions, steps []orchestrate.Step) error {
	changing := map[string]bool{}
	for _, st := range steps {
		if st.Slide != "" && strings.HasPrefix(st.Node, orchestrate.ChildNode(st.Slide, "")) {
			changing[st.Slide] = true
		}
	}
	if err := atomicfile.CheckWritable(doc.SaveTargets(opts.out, changing)...); err != nil {
		return usagef("cannot save the lesson: %v\nfix: make it writable, or save elsewhere with -o", err)
	}
	for _, p := range atomicfile.CleanStale(doc.Outputs(opts.out)...) {
		fmt.Fprintf(opts.io.ErrOut, "lessongen: removed %s, a temporary file an interrupted run left behind\n", p)
	}
	return nil
}
