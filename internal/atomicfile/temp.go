package atomicfile

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"time"
)

// A temporary file is named after its target and the process writing it,
// ".lesson.yaml.tmp-PID-RANDOM", so a later run can tell its own leftovers
// from anything else and whether their writer is still alive.
const tempInfix = ".tmp-"

// staleGrace is how old a leftover of a dead writer must be before it is
// removed: a write takes milliseconds, and a writer in another PID
// namespace (a container sharing the folder) looks dead from here.
// abandonedAfter is the age past which a leftover is removed even if its
// PID is in use, since PIDs are reused.
const (
	staleGrace     = time.Minute
	abandonedAfter = time.Hour
)

// tempRE matches our temporary files: the current form with the writer's
// PID, and the older ".NAME.tmp-RANDOM" form with none. Group 1 is NAME.
var tempRE = regexp.MustCompile(`^\.(.+)\.tmp-(?:([0-9]+)-)?[0-9]+$`)

func createTemp(target string) (*os.File, error) {
	pattern := "." + filepath.Base(target) + tempInfix + strconv.Itoa(os.Getpid()) + "-*"
	return os.CreateTemp(filepath.Dir(target), pattern)
}

// stale reports whether name, found in a folder with modification time
// mod, is a leftover of ours that no writer can still be using.
func stale(name string, mod, now time.Time) bool {
	m := tempRE.FindStringSubmatch(name)
	if m == nil {
		return false
	}
	age := now.Sub(mod)
	if age > abandonedAfter {
		return true
	}
	if m[2] == "" || age < staleGrace {
		return false
	}
	pid, err := strconv.Atoi(m[2])
	return err == nil && !processAlive(pid)
}

// CleanStale removes the stale temporary files (see stale) that earlier
// writes to paths left, and returns the ones removed. Only regular files
// named after one of paths' targets are considered; a file that cannot be
// removed is left alone, as it harms nothing.
func CleanStale(paths ...string) []string {
	now := time.Now()
	var removed []string
	dirs, names := targetDirs(paths)
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			m := tempRE.FindStringSubmatch(e.Name())
			if !e.Type().IsRegular() || m == nil || !names[dir][m[1]] {
				continue
			}
			fi, err := e.Info()
			if err != nil || !stale(e.Name(), fi.ModTime(), now) {
				continue
			}
			p := filepath.Join(dir, e.Name())
			if os.Remove(p) == nil {
				removed = append(removed, p)
			}
		}
	}
	return removed
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
func Planted(paths ...string) []string {
	var out []string
	dirs, names := targetDirs(paths)
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			m := tempRE.FindStringSubmatch(e.Name())
			if m != nil && names[dir][m[1]] && !e.Type().IsRegular() {
				out = append(out, filepath.Join(dir, e.Name()))
			}
		}
	}
	return out
}
