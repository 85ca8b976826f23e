// Package statedir is where lessongen keeps what it knows about a lesson
// besides the lesson itself (saved conversations, notes for the author),
// and the one way to write there.
//
// Each lesson file has its own state folder beside it,
// .lessongen/<lesson file name>/, so two lessons in one folder never share
// state and a lesson written elsewhere (-o) takes its state with it.
//
// Nothing written there may leave the folder through a link: a state
// folder comes with a repository (git stores symlinks), so a planted
// notes.jsonl -> ~/.bashrc must not be appended to. Every write opens the
// file under an os.Root of the state folder (no escape, whatever the
// links) after checking that no part of its path inside the folder is a
// link (no following a link that stays inside either: nothing of ours is
// ever a link there). Check refuses such a folder before a run starts.
package statedir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/lessongen/lessongen/internal/atomicfile"
)

// Name is the folder, beside the lesson, that holds every lesson's state
// (and the schemas init writes, in Name/schema).
const Name = ".lessongen"

// Reserved are the names directly under Name that are not a lesson's
// folder: init's schemas and .gitignore, and the layout before one folder
// per lesson.
var Reserved = []string{"schema", ".gitignore", oldHistory, oldNotes}

// The entries of a state folder.
const (
	HistoryLog = "history.jsonl"
	NotesFile  = "notes.jsonl"
	// BatchesFile lists the batches in flight (--batch), so a rerun
	// waits on a batch it paid for instead of sending it again.
	BatchesFile = "batches.json"
	// HistoryDir held the conversations before HistoryLog did, a file
	// per node and level; they are still read.
	HistoryDir = "history"
)

// The old layout, one state folder shared by every lesson beside it.
const (
	oldHistory = HistoryDir
	oldNotes   = NotesFile
)

// For returns the state folder of lessonFile: .lessongen/<file name>
// beside it. It names the file as given (a link to a lesson elsewhere has
// its own state beside the link).
func For(lessonFile string) string {
	return filepath.Join(filepath.Dir(lessonFile), Name, filepath.Base(lessonFile))
}

// CheckName refuses a lesson file whose name would make its state folder
// one of the reserved entries of .lessongen.
func CheckName(lessonFile string) error {
	base := filepath.Base(lessonFile)
	for _, r := range Reserved {
		if base == r {
			return fmt.Errorf("a lesson file named %q would keep its state in %s, which lessongen uses for something else; rename the file or set --state-dir", base, filepath.Join(Name, base))
		}
	}
	return nil
}

// LinkError means a path a write would go through is a symlink (or not a
// plain file or folder), so the write could land anywhere.
type LinkError struct {
	Path string
	What string // "a symlink", "a named pipe", ...
}

func (e *LinkError) Error() string {
	why := "lessongen writes only plain files and folders there and never through a link, so the run could write outside the folder"
	if e.What != "a symlink" {
		why = "lessongen reads and writes only plain files and folders there, and opening " + e.What + " could hold the run for ever or write elsewhere"
	}
	return fmt.Sprintf("%s is %s; %s; remove it (or move it away) and run again", e.Path, e.What, why)
}

// What names a file's type for a LinkError; "" for a plain file or folder.
func What(fi fs.FileInfo) string {
	switch m := fi.Mode(); {
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	case m.IsRegular(), m.IsDir():
		return ""
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a plain file"
}

// OpenFile opens rel (slash-separated) inside state folder dir with flag
// and perm. With os.O_CREATE the folders on the way are made. No part of
// rel may be a symlink or a special file (a *LinkError), and nothing
// outside dir is reached whatever happens meanwhile (os.Root).
func OpenFile(dir, rel string, flag int, perm os.FileMode) (*os.File, error) {
	root, err := openRoot(dir, flag&os.O_CREATE != 0)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	parent, name, err := descend(root, dir, rel, flag&os.O_CREATE != 0)
	if err != nil {
		return nil, err
	}
	if parent != root {
		defer parent.Close()
	}
	// nonBlock: a named pipe swapped in after the look above must
	// not hold the open (a read would wait for a writer for ever); it is
	// refused just below.
	f, err := parent.OpenFile(name, flag|nonBlock, perm)
	if err != nil {
		return nil, fullPath(err, dir, rel)
	}
	if fi, err := f.Stat(); err == nil && What(fi) != "" {
		f.Close()
		return nil, &LinkError{Path: filepath.Join(dir, rel), What: What(fi)}
	}
	return f, nil
}

// MaxFileBytes bounds what is read of any one file in a state folder, as
// it lies on disk. What lessongen writes there stays far below it (the
// history log is compacted past a megabyte, the journal holds at most a
// lesson's children); a file past it was put there by someone else, and
// reading it whole would only spend memory on it.
const MaxFileBytes = 256 << 20

// MaxLineBytes bounds one line of a JSON Lines file there: a line holds
// one node or one turn, a few kilobytes, where a whole lesson of 2,000
// slides is about 1 MB.
const MaxLineBytes = 16 << 20

// TooBigError means a file in a state folder holds more than lessongen
// reads from one: Limit bytes of the file, of one of its lines (Line), or
// of what it unpacks to (Unpacked, the gzip journal).
type TooBigError struct {
	Path     string
	Limit    int64
	Line     bool
	Unpacked bool
}

func (e *TooBigError) Error() string {
	what := e.Path + " is"
	switch {
	case e.Line:
		what = "a line of " + e.Path + " is"
	case e.Unpacked:
		what = e.Path + " unpacks to"
	}
	limit := fmt.Sprintf("%d bytes", e.Limit)
	if e.Limit >= 1<<20 {
		limit = fmt.Sprintf("%d MB", e.Limit>>20)
	}
	return fmt.Sprintf("%s more than %s, the most lessongen reads there and far more than it writes; it is not a file lessongen wrote: move it away (or delete it) and run again", what, limit)
}

// Open opens rel inside dir for reading under the same rules as OpenFile
// (no link, no pipe: nothing to wait on), refusing a file of more than
// MaxFileBytes (a *TooBigError).
func Open(dir, rel string) (*os.File, error) {
	f, err := OpenFile(dir, rel, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil {
		f.Close()
		return nil, err
	} else if fi.Size() > MaxFileBytes {
		f.Close()
		return nil, &TooBigError{Path: filepath.Join(dir, filepath.FromSlash(rel)), Limit: MaxFileBytes}
	}
	return f, nil
}

// ReadFile reads rel inside dir as Open opens it: at most MaxFileBytes,
// even of a file that grows while it is read.
func ReadFile(dir, rel string) ([]byte, error) {
	return ReadFileMax(dir, rel, MaxFileBytes)
}

// ReadFileMax is ReadFile that reads at most limit bytes (at most
// MaxFileBytes): a larger file is a *TooBigError, found before it is
// parsed or held in memory whole.
func ReadFileMax(dir, rel string, limit int64) ([]byte, error) {
	limit = min(limit, MaxFileBytes)
	f, err := Open(dir, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		return nil, &TooBigError{Path: filepath.Join(dir, filepath.FromSlash(rel)), Limit: limit}
	}
	return data, err
}

// Rename renames old to new, both inside dir, under the same rules.
func Rename(dir, old, new string) error {
	root, err := openRoot(dir, false)
	if err != nil {
		return err
	}
	defer root.Close()
	if err := walk(root, dir, old, false); err != nil {
		return err
	}
	if err := walk(root, dir, new, true); err != nil {
		return err
	}
	return root.Rename(filepath.FromSlash(old), filepath.FromSlash(new))
}

// Remove removes rel inside dir under the same rules: a link on the way
// or at rel is refused (a *LinkError), never followed.
func Remove(dir, rel string) error {
	root, err := openRoot(dir, false)
	if err != nil {
		return err
	}
	defer root.Close()
	parent, name, err := descend(root, dir, rel, false)
	if err != nil {
		return err
	}
	if parent != root {
		defer parent.Close()
	}
	return fullPath(parent.Remove(name), dir, rel)
}

// openRoot opens dir as a root, making it first when mkdir says so. dir
// itself must not be a link: the default one sits in the lesson's
// repository.
func openRoot(dir string, mkdir bool) (*os.Root, error) {
	if fi, err := os.Lstat(dir); err == nil && What(fi) != "" {
		return nil, &LinkError{Path: dir, What: What(fi)}
	} else if errors.Is(err, fs.ErrNotExist) && mkdir {
		if err := mkdirNoLinks(dir); err != nil {
			return nil, err
		}
	}
	return os.OpenRoot(dir)
}

// mkdirNoLinks makes dir and its missing parents, refusing the parent
// that is .lessongen when it is a link.
func mkdirNoLinks(dir string) error {
	parent := filepath.Dir(dir)
	if filepath.Base(parent) == Name {
		if fi, err := os.Lstat(parent); err == nil && What(fi) != "" {
			return &LinkError{Path: parent, What: What(fi)}
		}
	}
	return os.MkdirAll(dir, 0o755)
}

// walk checks each folder on the way to rel inside root (dir names it
// for messages), making missing ones when mkdir says so, and the last part
// if it exists.
func walk(root *os.Root, dir, rel string, mkdir bool) error {
	parent, _, err := descend(root, dir, rel, mkdir)
	if err == nil && parent != root {
		parent.Close()
	}
	return err
}

// descend is walk that also returns the folder holding rel's last part,
// opened as a root (root itself for a part directly in it; the caller
// closes any other), and that part's name. It goes down one folder at a
// time, so each part is looked at once: looking up every prefix from root
// cost a history file five folders deep about twice the system calls.
func descend(root *os.Root, dir, rel string, mkdir bool) (*os.Root, string, error) {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(filepath.FromSlash(rel))), "/")
	cur := root
	// An error names the part it happened at, not the file beyond it.
	fail := func(err error, p string) (*os.Root, string, error) {
		if cur != root {
			cur.Close()
		}
		return nil, "", fullPath(err, dir, p)
	}
	for i, name := range parts {
		p := filepath.Join(parts[:i+1]...)
		fi, err := cur.Lstat(name)
		last := i == len(parts)-1
		switch {
		case errors.Is(err, fs.ErrNotExist) && last:
			return cur, name, nil
		case errors.Is(err, fs.ErrNotExist) && mkdir:
			if err := cur.Mkdir(name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return fail(err, p)
			}
		case err != nil:
			return fail(err, p)
		case What(fi) != "":
			return fail(&LinkError{Path: filepath.Join(dir, p), What: What(fi)}, p)
		case !last && !fi.IsDir():
			return fail(fmt.Errorf("%s is a file, where lessongen keeps a folder; move it away", filepath.Join(dir, p)), p)
		}
		if last {
			return cur, name, nil
		}
		next, err := cur.OpenRoot(name)
		if err != nil {
			return fail(err, p)
		}
		if cur != root {
			cur.Close()
		}
		cur = next
	}
	return cur, parts[len(parts)-1], nil
}

// Check refuses, before a run writes anything, a state folder that a
// write could leave or could not write: dir (and the .lessongen above it,
// for the default layout) or anything inside that is a symlink or a
// special file (a *LinkError), or a file or folder there the run cannot
// write. A folder not made yet is fine where it can be made.
func Check(dir string) error {
	for _, p := range []string{filepath.Dir(dir), dir} {
		if p == filepath.Dir(dir) && filepath.Base(p) != Name {
			continue // a --state-dir: its parent is the user's
		}
		if fi, err := os.Lstat(p); err == nil && What(fi) != "" {
			return &LinkError{Path: p, What: What(fi)}
		}
	}
	// What the run writes must be of its kind where it exists.
	for p, dirWanted := range map[string]bool{dir: true, filepath.Join(dir, HistoryLog): false,
		filepath.Join(dir, NotesFile): false, filepath.Join(dir, BatchesFile): false} {
		if fi, err := os.Lstat(p); err == nil && What(fi) == "" && fi.IsDir() != dirWanted {
			what := map[bool]string{true: "a folder", false: "a file"}
			return fmt.Errorf("%s is %s, where lessongen keeps %s; move it away", p, what[fi.IsDir()], what[dirWanted])
		}
	}
	probed := false
	err := walkPlain(dir, func(p string, fi fs.FileInfo) error {
		if p == dir {
			probed = true
			return probe(dir)
		}
		return checkWritable(p, fi)
	})
	if err != nil || probed {
		return err
	}
	// Not made yet: where it would be made must take it.
	parent, err := nearest(dir)
	if err != nil {
		return err
	}
	return probe(parent)
}

// CheckFile reports whether WriteFile(dir, rel) could replace rel, as
// Check does for the whole folder but for rel alone, so it is cheap and
// meets no other writer's temporary files: no link or special file on the
// way or at rel (a *LinkError), no folder at rel, and rel's folder takes a
// new file (tried, then removed). The folders on the way are made, as the
// write would make them.
func CheckFile(dir, rel string) error {
	root, err := openRoot(dir, true)
	if err != nil {
		return err
	}
	defer root.Close()
	parent, name, err := descend(root, dir, rel, true)
	if err != nil {
		return err
	}
	if parent != root {
		defer parent.Close()
	}
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if fi, err := parent.Lstat(name); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a folder, where lessongen keeps a file; move it away", p)
	}
	probe := fmt.Sprintf("%s.probe-%d-%d", name, os.Getpid(), probes.Add(1))
	f, err := parent.OpenFile(probe, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("cannot create files in %s: %w", filepath.Dir(p), unwrapPath(err))
	}
	f.Close()
	return parent.Remove(probe)
}

// probes numbers CheckFile's probe files, so two at once never collide.
var probes atomic.Int64

// walkPlain calls fn for root and everything below it, refusing a link,
// a pipe or a device on the way with a *LinkError (nothing lessongen
// makes in a state folder is one). A root that does not exist is empty.
func walkPlain(root string, fn func(p string, fi fs.FileInfo) error) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == root {
			return fs.SkipAll
		}
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if w := What(fi); w != "" {
			return &LinkError{Path: p, What: w}
		}
		return fn(p, fi)
	})
}

// probe creates and removes a file in folder dir, as a write would.
func probe(dir string) error {
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return fmt.Errorf("cannot create files in %s: %w", dir, unwrapPath(err))
	}
	f.Close()
	return os.Remove(f.Name())
}

// checkWritable reports whether the run could write p (described by fi),
// a file or folder inside the state folder.
func checkWritable(p string, fi fs.FileInfo) error {
	if fi.IsDir() {
		// Asking is enough (and cheap for thousands).
		if err := canWrite(p); err != nil {
			return fmt.Errorf("cannot create files in %s: %w", p, unwrapPath(err))
		}
		return nil
	}
	if fi.Mode().Perm()&0o222 == 0 {
		// Root could write it; its owner said not to.
		return fmt.Errorf("cannot write %s: the file is read-only (mode %v)", p, fi.Mode().Perm())
	}
	if err := canWrite(p); err != nil {
		return fmt.Errorf("cannot write %s: %w", p, unwrapPath(err))
	}
	return nil
}

// nearest returns the nearest existing parent of p.
func nearest(p string) (string, error) {
	for {
		parent := filepath.Dir(p)
		if parent == p {
			return "", fmt.Errorf("%s: no existing parent folder", p)
		}
		p = parent
		if _, err := os.Stat(p); err == nil {
			return p, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
	}
}

// fullPath names dir/rel in err, a *fs.PathError from a folder opened on
// the way that knows only the last part's name.
func fullPath(err error, dir, rel string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && !filepath.IsAbs(pe.Path) {
		pe.Path = filepath.Join(dir, filepath.FromSlash(rel))
	}
	return err
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// WriteFile replaces rel inside dir with data, atomically (a temporary
// file beside it, then a rename), under the same rules as OpenFile: a
// link or special file at rel is refused, never followed or replaced.
func WriteFile(dir, rel string, data []byte, perm os.FileMode) error {
	tmp := tmpName(rel, os.Getpid())
	f, err := OpenFile(dir, tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if serr := atomicfile.Sync(f, filepath.Join(dir, rel)); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = Rename(dir, tmp, rel)
	}
	if err != nil {
		if root, rerr := os.OpenRoot(dir); rerr == nil {
			root.Remove(filepath.FromSlash(tmp))
			root.Close()
		}
	}
	return err
}

// tmpSep joins a file's name and a process id in the name of the
// temporary file that process writes it through (tmpName).
const tmpSep = ".tmp-"

func tmpName(rel string, pid int) string { return fmt.Sprintf("%s%s%d", rel, tmpSep, pid) }

// RemoveLeftovers removes what a WriteFile of name (a file directly in
// dir) left when its process was killed before the rename: plain files
// named as its temporary files are, but for this process's. The caller
// holds what orders the writes of name (the history log's lock), so no
// live process is writing one. Links and anything else are left alone.
func RemoveLeftovers(dir, name string) error {
	root, err := openRoot(dir, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer root.Close()
	d, err := root.Open(".")
	if err != nil {
		return err
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return err
	}
	own := tmpName(name, os.Getpid())
	for _, n := range names {
		pid, ok := strings.CutPrefix(n, name+tmpSep)
		if !ok || n == own || pid == "" || strings.Trim(pid, "0123456789") != "" {
			continue
		}
		if fi, err := root.Lstat(n); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if err := root.Remove(n); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// SyncDir makes what was renamed into dir durable: without it a crash
// may bring back the entry from before the rename, and with it lose what
// was appended to the new file since.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return syncDir(d)
}
