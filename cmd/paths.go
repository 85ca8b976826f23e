package cmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/atomicfile"
	"github.com/lessongen/lessongen/internal/regfile"
	"github.com/lessongen/lessongen/modality"
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
// nothing is spent. Only the children of slides with a
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
	return nil
}

// sweep removes the temporary files that killed runs left where this run
// writes (a kill between writing one and its rename). The caller holds
// the lock on every output, so no run of ours is writing them.
func sweep(doc *compose.Document, out string, errOut io.Writer) {
	for _, p := range atomicfile.Sweep(doc.Outputs(out)...) {
		fmt.Fprintf(errOut, "lessongen: removed %s, a temporary file an interrupted run left behind\n", p)
	}
}

// sweepOnly is sweep for a run that writes nothing (nothing is pending):
// it takes the lock only when there is a leftover, and leaves it when
// another run holds the lock (that run may be writing it).
func sweepOnly(doc *compose.Document, errOut io.Writer) {
	if len(atomicfile.Leftovers(doc.Outputs("")...)) == 0 {
		return
	}
	release, err := lockRun(doc, "", false, io.Discard)
	if err != nil {
		return
	}
	defer release()
	sweep(doc, "", errOut)
}

// checkOwnNames refuses, before any model request, a run whose saves
// could be steered out of the lesson's folder by a link: a link (or any
// file that is not a plain one) where a save puts a conflict copy or a
// temporary file, and a lesson file (or -o output) that is a link to a
// file outside its own folder. Lock files are checked as they are taken
// (internal/lock), state folders by internal/statedir.
func checkOwnNames(doc *compose.Document, out string, pictures bool) error {
	outputs := doc.Outputs(out)
	if err := checkPicturesFolder(outputs, pictures); err != nil {
		return err
	}
	for _, p := range outputs {
		c := p + compose.ConflictSuffix
		if fi, err := os.Lstat(c); err == nil && !fi.Mode().IsRegular() {
			return usagef("%s, where this run would put its version if your edits conflict, is a symlink or not a plain file; lessongen never writes through a link, which could make it write outside the lesson's folder; remove it and run again", c)
		}
	}
	if planted := atomicfile.Planted(outputs...); len(planted) > 0 {
		return usagef("%s is named as lessongen names its temporary files but is a symlink or not a plain file; lessongen never makes one: remove it and run again", planted[0])
	}
	lessonOut := outputs[len(outputs)-1]
	if fi, err := os.Lstat(lessonOut); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		target, terr := filepath.EvalSymlinks(lessonOut)
		dir, derr := filepath.EvalSymlinks(filepath.Dir(lessonOut))
		if terr == nil && derr == nil {
			if rel, err := filepath.Rel(dir, target); err != nil || !filepath.IsLocal(rel) {
				return usagef("%s is a symlink to %s, outside its folder; lessongen writes a lesson through a link only to a file inside the link's folder: run on %s itself, or save elsewhere with -o", lessonOut, target, target)
			}
		}
	}
	return nil
}

// checkPicturesFolder refuses, in a run that may bring pictures in
// (--sources, --images), a link or file where it would save them: the
// save would refuse it after the run had spent its requests.
func checkPicturesFolder(outputs []string, pictures bool) error {
	for _, p := range outputs {
		pics := filepath.Join(filepath.Dir(p), modality.PicturesFolder)
		if fi, err := os.Lstat(pics); pictures && err == nil && !fi.IsDir() {
			return usagef("%s, where this run saves the pictures it places or has drawn, is a symlink or not a folder; lessongen never writes pictures through a link: remove it, or run without --sources and --images", pics)
		}
	}
	return nil
}
