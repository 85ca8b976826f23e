// Package lock keeps two lessongen runs from writing the same files: before
// a run writes anything it takes an advisory lock on every file it may
// write, as a lock file beside each (".lesson.yaml.lock").
//
// The lock is flock(2) on the lock file, not the file's mere existence: the
// kernel drops it when its holder dies, even by kill -9, so a lock is never
// held by a dead process and taking over a leftover needs no guess about
// whether a pid is still alive (pids are reused, and a pid says nothing
// about another host). The file's content only names the holder for the
// message a second run prints. A lock file left behind by a killed run is
// reported (Stale) and taken over.
package lock

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Holder says who holds a lock.
type Holder struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Started time.Time `json:"started"`
}

// Self describes this process, started now.
func Self() Holder {
	host, _ := os.Hostname()
	return Holder{PID: os.Getpid(), Host: host, Started: time.Now().UTC().Truncate(time.Second)}
}

func (h Holder) String() string {
	if h.PID == 0 {
		return "a run that is just starting"
	}
	return fmt.Sprintf("pid %d on %s, started %s", h.PID, h.Host, h.Started.Format(time.RFC3339))
}

// HeldError means another run holds the lock on File.
type HeldError struct {
	File   string // the file the run wanted to write
	Lock   string // its lock file
	Holder Holder
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("%s is in use by another lessongen run (%s); wait for it to finish or stop it (lock file %s)", e.File, e.Holder, e.Lock)
}

// Stale is a lock file left by a run that ended without releasing it
// (killed, or the machine went down); Acquire took it over.
type Stale struct {
	Lock   string
	Holder Holder
}

func (s Stale) String() string {
	return fmt.Sprintf("%s was left by a run that is no longer running (%s); taking it over", s.Lock, s.Holder)
}

// Set is the locks one run holds.
type Set struct {
	files []*os.File
	// made are the folders Acquire created for lock files, removed again
	// on Release when the run left them empty.
	made []string
}

// Path returns the lock file for path: beside the file it guards, after
// symlinks are resolved, so two spellings of one file (slides/../b.yaml, a
// symlink) share one lock.
func Path(path string) string {
	real := resolve(path)
	return filepath.Join(filepath.Dir(real), "."+filepath.Base(real)+".lock")
}

// IsLockName reports whether a file's name is that of a lock file, as Path
// names them, so no lesson file can take one's place.
func IsLockName(path string) bool {
	base := filepath.Base(path)
	return len(base) > len(".x.lock") && strings.HasPrefix(base, ".") && strings.HasSuffix(base, ".lock")
}

// resolve follows symlinks in path, or in its folder for a file that does
// not exist yet.
func resolve(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = filepath.Clean(path)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	if d, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(d, filepath.Base(abs))
	}
	return abs
}

// Acquire locks every file in write, and every file in read that it can,
// for self, without waiting: if another run holds any of them it releases
// what it took and returns a *HeldError. A file in read is one the run
// only reads (the input of generate -o elsewhere): locking it keeps a second
// run from paying for the same work, but a folder the run cannot write to
// (a read-only checkout) is no reason to refuse, so it is skipped there.
// Acquire reports the lock files it took over from runs that died holding
// them.
func Acquire(write, read []string, self Holder) (*Set, []Stale, error) {
	s := &Set{}
	var stale []Stale
	seen := map[string]bool{}
	for i, p := range slices.Concat(write, read) {
		lp := Path(p)
		if seen[lp] {
			continue
		}
		seen[lp] = true
		reading := i >= len(write)
		f, left, made, err := acquire(p, lp, self, !reading)
		s.made = append(s.made, made...)
		if reading && (cannotWrite(err) || errors.Is(err, fs.ErrNotExist)) {
			continue // a folder the run never writes to is not made for a lock
		}
		if err != nil {
			s.Release()
			return nil, nil, err
		}
		s.files = append(s.files, f)
		if left != nil {
			stale = append(stale, Stale{Lock: lp, Holder: *left})
		}
	}
	return s, stale, nil
}

// acquire takes one lock file, making its folder if it is missing and
// mkdir says so (the folders it made are returned). It retries when the file it locked was
// removed by its releasing holder in between (the inode check), so that two
// runs can never each hold a lock on a different inode of one path.
func acquire(file, lp string, self Holder, mkdir bool) (f *os.File, left *Holder, made []string, err error) {
	for range 10 {
		if fi, err := os.Lstat(lp); err == nil && !fi.Mode().IsRegular() {
			// Planted: lessongen makes only plain lock files.
			return nil, nil, made, &Error{File: file, Lock: lp, Err: ErrNotPlain}
		}
		f, err = os.OpenFile(lp, os.O_RDWR|os.O_CREATE|noFollow, 0o644)
		if errors.Is(err, fs.ErrNotExist) && mkdir {
			// An output folder the run will create anyway (-o new/out.yaml,
			// or the folder of a child file the run creates).
			made = append(made, missingDirs(filepath.Dir(lp))...)
			if err = os.MkdirAll(filepath.Dir(lp), 0o755); err == nil {
				f, err = os.OpenFile(lp, os.O_RDWR|os.O_CREATE|noFollow, 0o644)
			}
		}
		if err != nil {
			return nil, nil, made, &Error{File: file, Lock: lp, Err: unwrapPath(err)}
		}
		ok, err := TryLock(f)
		if err != nil {
			f.Close()
			return nil, nil, made, fmt.Errorf("lock %s: %w", file, err)
		}
		if !ok {
			h, _ := readHolder(f)
			f.Close()
			return nil, nil, made, &HeldError{File: file, Lock: lp, Holder: h}
		}
		if !sameFile(f, lp) {
			f.Close() // released and removed meanwhile: lock the new file
			continue
		}
		left = nil
		if h, err := readHolder(f); err == nil {
			left = &h
		}
		if err := writeHolder(f, self); err != nil {
			os.Remove(lp)
			f.Close()
			return nil, nil, made, fmt.Errorf("lock %s: %w", file, err)
		}
		return f, left, made, nil
	}
	return nil, nil, made, fmt.Errorf("lock %s: the lock file %s keeps changing; is another run starting and stopping?", file, lp)
}

// missingDirs lists the folders MkdirAll(dir) would make, deepest first.
func missingDirs(dir string) []string {
	var out []string
	for {
		if _, err := os.Lstat(dir); err == nil {
			return out
		}
		out = append(out, dir)
		parent := filepath.Dir(dir)
		if parent == dir {
			return out
		}
		dir = parent
	}
}

func sameFile(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// Error means a lock file could not be created or written: the run could
// not write its results there either.
type Error struct {
	File string
	Lock string
	Err  error
}

// ErrNotPlain means a lock file's name is taken by a symlink or another
// file that is not a plain file.
var ErrNotPlain = errors.New("it is a symlink or not a plain file")

func (e *Error) Error() string {
	if errors.Is(e.Err, ErrNotPlain) || errors.Is(e.Err, syscall.ELOOP) {
		return fmt.Sprintf("cannot lock %s: its lock file %s is a symlink or not a plain file; lessongen never writes through a link, which could make it write outside the lesson's folder; remove %s and run again", e.File, e.Lock, e.Lock)
	}
	return fmt.Sprintf("cannot lock %s: cannot create %s: %v; lessongen writes its results and a lock file there, so it needs write access to that folder", e.File, e.Lock, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

var errNoHolder = errors.New("no holder recorded")

func readHolder(f *os.File) (Holder, error) {
	var h Holder
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return h, err
	}
	data, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil {
		return h, err
	}
	if len(data) == 0 {
		return h, errNoHolder
	}
	if err := json.Unmarshal(data, &h); err != nil {
		return Holder{}, err
	}
	return h, nil
}

func writeHolder(f *os.File, h Holder) error {
	data, err := json.Marshal(h)
	if err != nil {
		return err
	}
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err = f.WriteAt(append(data, '\n'), 0)
	return err
}

// Release removes every lock file and unlocks it. The file is removed while
// still locked, so no other run can have locked it by then; a run that
// opened it before the removal finds it replaced and retries (see acquire).
func (s *Set) Release() {
	if s == nil {
		return
	}
	for _, f := range slices.Backward(s.files) {
		os.Remove(f.Name())
		f.Close() // closing drops the flock
	}
	// Deepest first, so a parent is empty by the time it is tried.
	slices.SortFunc(s.made, func(a, b string) int { return len(b) - len(a) })
	for _, dir := range s.made {
		os.Remove(dir) // only if empty: the run wrote nothing there
	}
	s.files, s.made = nil, nil
}

// cannotWrite reports whether err says the folder is not writable.
func cannotWrite(err error) bool {
	return errors.Is(err, fs.ErrPermission) || readOnlyFS(err)
}
