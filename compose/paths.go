package compose

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/lock"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// This file holds the rules about which files a document reads and
// writes: child files (whiteboards, quizzes) stay inside the lesson's folder once symlinks
// are followed, and no output of a save may land on an input.

// checkChildFile checks a child's file at load (slide path's ref, the
// child key): it must be a regular file inside the lesson's folder,
// symlinks followed, and no other child's. A file that does not exist yet
// is fine where a save could create it (see resolveWrite): the child is
// then pending as a whole. files maps each resolved file to the node that
// first named it.
func (d *Document) checkChildFile(key session.Key, ref lesson.ChildRef, r *yamlsrc.Reporter, path string, files map[string]*yaml.Node) {
	// lessongen writes these names itself, beside the files it guards or
	// merges; a child kept under one would be taken for its own file.
	if lock.IsLockName(ref.File) || strings.HasSuffix(ref.File, ConflictSuffix) {
		r.At(ref.FileNode, "%s.%s.file %q is named as lessongen names its lock and conflict files (.NAME.lock, NAME%s); give the child another name", path, ref.Kind, ref.File, ConflictSuffix)
		return
	}
	real, exists, err := d.resolveWrite(ref.File, ref.Kind)
	seen := real
	if err != nil {
		seen = filepath.Clean(ref.File) // best effort, for the duplicate check
	}
	if first, dup := files[seen]; dup {
		r.At(ref.FileNode, "%s.%s.file %q is already used by another child (line %d); give each child its own file", path, ref.Kind, ref.File, first.Line)
		return
	}
	files[seen] = ref.FileNode
	var bf childFileError
	switch {
	case err == nil && !exists:
		d.missing[key] = ref.File
	case err == nil:
	case errors.As(err, &bf):
		r.At(ref.FileNode, "%s.%s.file %q %s", path, ref.Kind, ref.File, bf)
	default:
		r.At(ref.FileNode, "%s.%s.file %q: %v", path, ref.Kind, ref.File, unwrapPath(err))
	}
}

// childFileError says why a child's file that exists cannot be one.
type childFileError string

func (e childFileError) Error() string { return string(e) }

// childFull is where child file rel is, as the lesson names it.
func (d *Document) childFull(rel string) string {
	return filepath.Join(filepath.Dir(d.Path), rel)
}

// resolveChild returns the real path of child file rel (of kind), every
// symlink followed, or why it cannot be read as one. Reading goes through
// this each time, so a link changed after load is caught too.
func (d *Document) resolveChild(rel, kind string) (string, error) {
	base, err := d.folder()
	if err != nil {
		return "", err
	}
	// Stat the lesson afresh: after a save its old inode may be reused.
	lesson := d.lessonInfo
	if lesson == nil {
		lesson, _ = os.Stat(d.Path)
	}
	real, fi, err := resolveUnder(base, rel, d.realDirs)
	switch {
	case err != nil:
		return "", err
	case fi.IsDir():
		return "", childFileError("is a folder; name the " + kind + "'s .yaml file inside it")
	case !fi.Mode().IsRegular():
		return "", childFileError("is not a regular file; name a " + kind + " .yaml file")
	case lesson != nil && os.SameFile(fi, lesson):
		return "", childFileError("is the lesson file itself; give the " + kind + " its own file")
	}
	if rel, err := filepath.Rel(base, real); err != nil || !filepath.IsLocal(rel) {
		return "", childFileError(fmt.Sprintf("leads outside the lesson's folder (a symlink to %s); copy the %s into the folder, or link to a file inside it", real, kind))
	}
	return real, nil
}

// resolveWrite is resolveChild for a file a save may create: one that
// does not exist resolves to where it would be made (exists is false), as
// long as that is inside the lesson's folder.
func (d *Document) resolveWrite(rel, kind string) (real string, exists bool, err error) {
	real, err = d.resolveChild(rel, kind)
	if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
		return real, err == nil, err
	}
	base, err := d.folder()
	if err != nil {
		return "", false, err
	}
	real, err = resolveNew(base, rel, kind)
	return real, false, err
}

// resolveNew returns where child file rel (of kind), which does not
// exist, would be created under folder base (a real path). The parts of
// rel that exist are followed, symlinks included, and must be folders
// inside base; the first part that does not exist and everything after it
// are made there, so they stay inside too.
func resolveNew(base, rel, kind string) (string, error) {
	p := base
	parts := strings.Split(filepath.Clean(rel), string(filepath.Separator))
	for i, part := range parts {
		next := filepath.Join(p, part)
		fi, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			return filepath.Join(append([]string{next}, parts[i+1:]...)...), nil
		}
		if err != nil {
			return "", err
		}
		shown := filepath.Join(parts[:i+1]...)
		if fi.Mode()&os.ModeSymlink != 0 {
			real, err := filepath.EvalSymlinks(next)
			if err != nil {
				return "", childFileError(fmt.Sprintf("cannot be created: %s is a symlink that leads nowhere (a missing target or a loop); fix the link or the path", shown))
			}
			if r, err := filepath.Rel(base, real); err != nil || !filepath.IsLocal(r) {
				return "", childFileError(fmt.Sprintf("leads outside the lesson's folder (a symlink to %s); name a path inside the folder for the new %s", real, kind))
			}
			if fi, err = os.Stat(real); err != nil {
				return "", err
			}
			next = real
		}
		if i < len(parts)-1 && !fi.IsDir() {
			return "", childFileError(fmt.Sprintf("cannot be created: %s is not a folder", shown))
		}
		p = next
	}
	return p, nil // made meanwhile
}

// resolveUnder resolves rel inside folder base (a real path) and returns
// the file it names. Each part of rel is looked at without following it;
// only when one is a symlink is the whole path resolved, so the usual
// case costs one lstat per part, less the folders in realDirs (folders
// already seen to be no symlinks; nil to look at every one again).
func resolveUnder(base, rel string, realDirs map[string]bool) (string, os.FileInfo, error) {
	p := base
	for _, part := range strings.Split(filepath.Clean(rel), string(filepath.Separator)) {
		p = filepath.Join(p, part)
		if realDirs[p] {
			continue
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return "", nil, err
		}
		if fi.IsDir() && realDirs != nil {
			realDirs[p] = true
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			real, err := filepath.EvalSymlinks(filepath.Join(base, rel))
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				err = childFileError("is a symlink that cannot be followed (a loop, or a folder that cannot be read)")
			}
			if err != nil {
				return "", nil, err
			}
			fi, err = os.Stat(real)
			return real, fi, err
		}
		if p == filepath.Join(base, rel) {
			return p, fi, nil
		}
	}
	return "", nil, errors.New("not a file path")
}

// folder returns the lesson's folder as a real path, found once per
// document.
func (d *Document) folder() (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.base == "" {
		base, err := realPath(filepath.Dir(d.Path))
		if err != nil {
			return "", err
		}
		d.base = base
	}
	return d.base, nil
}

// realPath is p made absolute with every symlink followed. Abs comes
// first so a relative path and the folder it is in resolve alike.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// outPath is the file a save to out writes the lesson to: the lesson's
// own path for "" and for any other name of the lesson file itself (a
// symlink to it, another spelling), so that counts as saving in place.
func (d *Document) outPath(out string) string {
	if out == "" || sameFile(out, d.Path) {
		return d.Path
	}
	return out
}

// Outputs lists every file a save to out may write: each child file's
// destination, then the lesson's. out "" means in place.
func (d *Document) Outputs(out string) []string {
	out = d.outPath(out)
	outDir := filepath.Dir(out)
	var paths []string
	for _, f := range d.ChildFiles() {
		paths = append(paths, filepath.Join(outDir, f))
	}
	return append(paths, out)
}

// SaveTargets lists the files a run's saves to out may write when only
// the children of the slides in changing can change (nil: any). In place,
// the child files of any other slide are skipped unless the slide has
// bindings, which may fill them: an unchanged file is never rewritten, so
// it may even be read-only. Elsewhere every child file is copied.
func (d *Document) SaveTargets(out string, changing map[string]bool) []string {
	out = d.outPath(out)
	if out != d.Path || changing == nil {
		return d.Outputs(out)
	}
	var paths []string
	d.View(func(p *lesson.Plan) {
		for _, s := range p.Slides.Value {
			for _, ref := range s.Children {
				if ref.File != "" && (changing[s.ID] || len(s.Props) > 0) {
					paths = append(paths, d.childFull(ref.File))
				}
			}
		}
	})
	return append(paths, d.Path)
}

// fileRole names one of the document's input files for a message.
type fileRole struct {
	path string
	role string
}

func (d *Document) inputs() []fileRole {
	in := []fileRole{{d.Path, "the lesson file"}}
	d.View(func(p *lesson.Plan) {
		for _, s := range p.Slides.Value {
			for _, ref := range s.Children {
				if ref.File != "" {
					in = append(in, fileRole{d.childFull(ref.File), fmt.Sprintf("the %s file of slide %q", ref.Kind, s.ID)})
				}
			}
		}
	})
	return in
}

// ErrSharedOutput means an output path would make a save overwrite one of
// the input's files (the lesson or a child's file).
var ErrSharedOutput = errors.New("the output would overwrite the input's whiteboard files")

// CheckOutput refuses an output path whose save would write over any of
// the document's input files, whatever the spelling: .., symlinks and
// absolute paths are compared as the files they name. Naming the lesson
// itself saves in place, which is allowed. A save beside the lesson is
// refused when children live in their own files, as those would be
// written over in place; so are two outputs that are one file.
func (d *Document) CheckOutput(out string) error {
	out = d.outPath(out)
	if out == d.Path {
		return nil
	}
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a folder; name the output file, e.g. %s", out, filepath.Join(out, filepath.Base(d.Path)))
	}
	inputs := d.inputs()
	set := newFileSet()
	for i, in := range inputs {
		set.add(in.path, i)
	}
	if j, hit := set.find(out); hit {
		return fmt.Errorf("%w: %s is %s (%s); choose an output path that is not one of the lesson's files", ErrSharedOutput, out, inputs[j].role, inputs[j].path)
	}
	children := d.fileChildren()
	files := d.ChildFiles()
	if len(files) > 0 && sameFile(filepath.Dir(out), filepath.Dir(d.Path)) {
		return fmt.Errorf("%w (%s): write to another folder, or in place without -o", ErrSharedOutput, strings.Join(files, ", "))
	}
	outputs := d.Outputs(out)
	for i, o := range outputs[:len(files)] {
		if j, hit := set.find(o); hit {
			return fmt.Errorf("%w: the copy of %s file %s would go to %s, which is %s (%s); write to another folder", ErrSharedOutput, children[i].key.Kind, files[i], o, inputs[j].role, inputs[j].path)
		}
	}
	if base, err := realPath(filepath.Dir(out)); err == nil {
		// The copies must stay inside the output's folder, as the
		// children stay inside the lesson's: a linked folder there must
		// not carry them out. Other trouble (a file where a folder should
		// be) is the writability probe's to name.
		for i, f := range files {
			var where childFileError
			if _, err := resolveNew(base, f, string(children[i].key.Kind)); errors.As(err, &where) {
				return fmt.Errorf("the copy of %s file %s in the output's folder: %w", children[i].key.Kind, f, err)
			}
		}
	}
	written := newFileSet()
	for i, o := range outputs {
		if j, hit := written.find(o); hit {
			return fmt.Errorf("the output %s and %s file %s would both be written to %s; choose another output path", out, children[j].key.Kind, files[j], o)
		}
		written.add(o, i)
	}
	return nil
}

// checkOutputOnce is CheckOutput, skipped for the output it last passed:
// a run saves to one output many times, and the check stats every file.
func (d *Document) checkOutputOnce(out string) error {
	d.mu.Lock()
	done := d.checkedOut == out
	d.mu.Unlock()
	if done {
		return nil
	}
	if err := d.CheckOutput(out); err != nil {
		return err
	}
	d.mu.Lock()
	d.checkedOut = out
	d.mu.Unlock()
	return nil
}

// CheckSideFile refuses a file the run writes besides the document (an
// events file) when it is one of the document's inputs or of the outputs
// of a save to out ("-": none).
func (d *Document) CheckSideFile(path, out string) error {
	inputs, ins, outs := d.inputs(), newFileSet(), newFileSet()
	for i, in := range inputs {
		ins.add(in.path, i)
	}
	if j, hit := ins.find(path); hit {
		return fmt.Errorf("%s is %s (%s); choose another path", path, inputs[j].role, inputs[j].path)
	}
	if out == "-" { // the lesson goes to stdout: no file is written
		return nil
	}
	outputs := d.Outputs(out)
	for i, o := range outputs {
		outs.add(o, i)
	}
	if j, hit := outs.find(path); hit {
		return fmt.Errorf("%s is where this run saves (%s); choose another path", path, outputs[j])
	}
	return nil
}

// sameFile reports whether a and b name one existing file.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// fileSet finds which of a set of paths names the same file as another
// path: by identity for files that exist (links, .., other spellings),
// by cleaned path for files that do not yet.
type fileSet struct {
	byID   map[any]int
	infos  []os.FileInfo // for systems without a file id
	idx    []int
	byPath map[string]int
}

func newFileSet() *fileSet {
	return &fileSet{byID: map[any]int{}, byPath: map[string]int{}}
}

func (s *fileSet) add(p string, i int) {
	if abs, err := filepath.Abs(p); err == nil {
		s.byPath[abs] = i
	}
	fi, err := os.Stat(p)
	if err != nil {
		return
	}
	if id := fileID(fi); id != nil {
		s.byID[id] = i
		return
	}
	s.infos, s.idx = append(s.infos, fi), append(s.idx, i)
}

func (s *fileSet) find(p string) (int, bool) {
	if abs, err := filepath.Abs(p); err == nil {
		if i, ok := s.byPath[abs]; ok {
			return i, true
		}
	}
	fi, err := os.Stat(p)
	if err != nil {
		return 0, false
	}
	if id := fileID(fi); id != nil {
		i, ok := s.byID[id]
		return i, ok
	}
	for k, other := range s.infos {
		if os.SameFile(fi, other) {
			return s.idx[k], true
		}
	}
	return 0, false
}

// checkChildTarget refuses to write a child's file in place when it no
// longer resolves inside the lesson's folder: a link swapped during the
// run must not steer the write (which follows links, and makes missing
// folders) out.
func (d *Document) checkChildTarget(key session.Key, rel string) error {
	if _, _, err := d.resolveWrite(rel, key.Kind); err != nil {
		return fmt.Errorf("save %s of slide %q: %s %w", key.Kind, key.Placement, d.childFull(rel), err)
	}
	return nil
}

// readChild reads child file rel (of kind) through resolveChild's checks.
func (d *Document) readChild(rel, kind string) ([]byte, error) {
	real, err := d.resolveChild(rel, kind)
	var bf childFileError
	if errors.As(err, &bf) {
		return nil, fmt.Errorf("%s %w", d.childFull(rel), err)
	}
	if err != nil {
		return nil, err
	}
	data, err := readFile(real)
	if err != nil {
		return nil, fmt.Errorf("%s %w", d.childFull(rel), unwrapPath(err))
	}
	return data, nil
}

// checkChildRoot refuses a child's file (of kind) whose top level is not a
// mapping without quoting it: a file named by mistake (or on purpose) may
// hold anything, and its content has no place in an error.
func checkChildRoot(root *yaml.Node, r *yamlsrc.Reporter, desc *modality.Descriptor) bool {
	if root.Kind == yaml.MappingNode {
		return true
	}
	kind := "text"
	switch root.Kind {
	case yaml.SequenceNode:
		kind = "a list"
	case yaml.AliasNode:
		kind = "an alias"
	}
	keys := yamlsrc.Keys(desc.Codec.Todo(""))
	r.At(root, "not a %s file: its top level is %s, where a %s is a mapping of %s", desc.Name, kind, desc.Name, joinAnd(keys))
	return false
}

// joinAnd joins "a", "b", "c" as "a, b and c".
func joinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
