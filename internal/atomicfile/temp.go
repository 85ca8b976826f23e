package atomicfile

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

// A temporary file is named after its target and the process writing it,
// ".lesson.yaml.tmp-PID-RANDOM", so a later run can tell its own leftovers
// from anything else (and a person, which process left one).
const tempInfix = ".tmp-"

// tempRE matches our temporary files: the current form with the writer's
// PID, and the older ".NAME.tmp-RANDOM" form with none. Group 1 is NAME.
var tempRE = regexp.MustCompile(`^\.(.+)\.tmp-(?:([0-9]+)-)?[0-9]+$`)

func createTemp(target string) (*os.File, error) {
	pattern := "." + filepath.Base(target) + tempInfix + strconv.Itoa(os.Getpid()) + "-*"
	return os.CreateTemp(filepath.Dir(target), pattern)
}

// Sweep removes the temporary files that earlier writes to paths left (a
// run killed between writing one and renaming it), and returns the ones
// removed. The caller holds the run's lock on every path: as every write
// of ours to them happens under that lock, no writer can be using one, so
// none is kept for its age or its PID. Only regular files named after one
// of paths' targets are removed; one that cannot be removed is left
// alone, as it harms nothing.
func Sweep(paths ...string) []string {
	var removed []string
	for _, p := range Leftovers(paths...) {
		if os.Remove(p) == nil {
			removed = append(removed, p)
		}
	}
	return removed
}

// Leftovers lists the temporary files Sweep would remove, changing
// nothing (a run with nothing to do looks before it takes a lock).
func Leftovers(paths ...string) []string { return tempNamed(paths, true) }

// tempNamed lists the entries beside paths' targets named as the
// temporary files of writes to them are: the plain files (regular) or
// everything else.
func tempNamed(paths []string, regular bool) []string {
	var out []string
	dirs, names := targetDirs(paths)
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			m := tempRE.FindStringSubmatch(e.Name())
			if m != nil && names[dir][m[1]] && e.Type().IsRegular() == regular {
				out = append(out, filepath.Join(dir, e.Name()))
			}
		}
	}
	return out
}

// targetDirs returns, once each, the folders that writes to paths create
// their temporary files in, and the names of the targets in each.
func targetDirs(paths []string) ([]string, map[string]map[string]bool) {
	var dirs []string
	names := map[string]map[string]bool{}
	for _, p := range paths {
		target, err := Resolve(p)
		if err != nil {
			continue
		}
		dir := filepath.Dir(target)
		if names[dir] == nil {
			names[dir] = map[string]bool{}
			dirs = append(dirs, dir)
		}
		names[dir][filepath.Base(target)] = true
	}
	return dirs, names
}

// Planted returns the entries beside paths' targets that are named as
// the temporary files of writes to them are but are not plain files
// (a symlink): lessongen never makes one, so one is planted.
func Planted(paths ...string) []string { return tempNamed(paths, false) }
