package compose

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/lessongen/lessongen/internal/atomicfile"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// ConflictSuffix names the file beside an author's file that holds the
// run's version when the author's edit made during the run and the run's
// own changes cannot both be kept.
const ConflictSuffix = ".lessongen-conflict"

// FileConflict is a file the author changed during a run in a way the
// run's changes could not be merged into. The author's version stays as it
// is; the run's is in RunCopy.
type FileConflict struct {
	Path    string
	RunCopy string
	// Reason says what clashed, for a person.
	Reason string
}

func (c FileConflict) String() string {
	return fmt.Sprintf("%s %s; your version is kept, this run's is in %s", c.Path, c.Reason, c.RunCopy)
}

// Saver writes a document during a run — every checkpoint and the final
// save — without overwriting what someone else saved to those files in the
// meantime. Before each write it compares the file on disk (by content
// hash) with what it last loaded or wrote there. If the author changed it,
// the author's version is merged with what the run changed since its last
// write (a three-way merge, see yamlsrc.Merge3), and from then on every
// write of that file merges, so the edit is kept to the end. Where both
// changed the same spot, or the merge would not be a valid file, the
// author's file is left alone and the run's version goes beside it
// (ConflictSuffix); later writes update only that copy.
//
// Why not replay the run's intents onto the author's version: once a
// checkpoint has written generated content, the author edits a file that
// holds it, and re-applying the intents would add it twice; the run's
// in-memory document, which still knows what it generated, stays the one
// the run works on, and only the bytes are merged.
type Saver struct {
	doc *Document

	mu        sync.Mutex
	files     map[string]*baseline
	conflicts []*FileConflict
	merged    []string
	// attached holds each child's version at the last save that wrote
	// its attachments (see attach).
	attached map[session.Key]uint64
	// lessonSeen is the lesson file as LessonEdited last found it
	// unchanged, so the next call reads it again only if it was touched.
	lessonSeen fileStamp
	loadedSum  *[sha256.Size]byte // the lesson's hash as loaded
}

// baseline is what the run knows about one file it writes.
type baseline struct {
	// sum is the hash of the bytes on disk after the run's last write (or
	// as loaded); any other content there is someone else's edit.
	sum [sha256.Size]byte
	// ours is the run's own rendering at that write: the merge base.
	ours []byte
	// merged is set once the disk holds edits the run's rendering lacks;
	// every later write must merge to keep them.
	merged   bool
	conflict *FileConflict
	// kind is the child kind the file holds, "" for the lesson.
	kind string
}

// NewSaver returns a Saver for d.
func NewSaver(d *Document) *Saver {
	return &Saver{doc: d, files: map[string]*baseline{}}
}

// Conflicts lists the files whose author's edits could not be merged, in
// the order they were found.
func (s *Saver) Conflicts() []FileConflict {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]FileConflict, len(s.conflicts))
	for i, c := range s.conflicts {
		out[i] = *c
	}
	return out
}

// Merged lists the files that were edited during the run and now hold
// both the author's edits and the run's changes.
func (s *Saver) Merged() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.merged)
}

// Save writes the document to out ("" = in place), child files before
// the lesson, and returns the files it wrote: merged where the author edited
// them, a conflict copy where that could not be merged.
func (s *Saver) Save(out string) ([]OutFile, error) {
	return s.saveWith(out, s.doc.Render)
}

// SaveChildren is Save without the lesson file: it writes the children
// kept in their own files, so a checkpoint can save a finished node's file
// without rewriting the lesson (see orchestrate.Options.CheckpointInterval).
func (s *Saver) SaveChildren(out string) ([]OutFile, error) {
	return s.saveWith(out, s.doc.RenderChildren)
}

// saveWith writes the attachments, then the files render gives: a YAML
// file never names a picture not yet on disk.
func (s *Saver) saveWith(out string, render func(string) ([]OutFile, error)) ([]OutFile, error) {
	attached, err := s.attach(out)
	if err != nil {
		return attached, err
	}
	written, err := s.save(render(out))
	return append(attached, written...), err
}

func (s *Saver) save(files []OutFile, err error) ([]OutFile, error) {
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var written []OutFile
	for _, f := range files {
		w, err := s.write(f)
		if err != nil {
			return written, err
		}
		if w != nil {
			written = append(written, *w)
		}
	}
	return written, nil
}

// write writes one file the run rendered, minding the author's edits. It
// returns what it wrote, if anything.
func (s *Saver) write(f OutFile) (*OutFile, error) {
	key := filepath.Clean(f.Path)
	bl := s.files[key]
	if bl == nil {
		if loaded, kind, ok := s.doc.loaded(key); ok {
			bl = &baseline{sum: sha256.Sum256(loaded), ours: loaded, kind: kind}
			s.files[key] = bl
		}
	}
	if bl == nil {
		if kind, ok := s.doc.created(key); ok {
			return s.create(f, key, kind)
		}
		// A file the run did not load (an -o output): the run owns it from
		// its first write on.
		if err := atomicfile.Write(f.Path, f.Data, 0o644); err != nil {
			return nil, err
		}
		s.files[key] = &baseline{sum: sha256.Sum256(f.Data), ours: f.Data}
		return &f, nil
	}
	if bl.conflict != nil {
		return s.writeCopy(f, bl.conflict)
	}
	// An author who saves while this runs makes the check before the rename
	// fail; then read and merge again.
	for range 3 {
		disk, err := os.ReadFile(f.Path)
		if errors.Is(err, fs.ErrNotExist) {
			return s.conflict(f, bl, "was deleted during the run")
		}
		if err != nil {
			return nil, fmt.Errorf("check %s before writing: %w", f.Path, err)
		}
		sum := sha256.Sum256(disk)
		data, reformatted := f.Data, f.Reformatted
		edited := sum != bl.sum || bl.merged
		if !edited && bytes.Equal(f.Data, bl.ours) {
			// The disk still holds exactly this rendering (an earlier
			// checkpoint wrote it): no write, so a checkpoint costs only the
			// files changed since the last. It is still reported, as the
			// run's change to that file.
			return &f, nil
		}
		if edited {
			var clash string
			data, clash, err = s.doc.merge(f.Path, bl.ours, f.Data, disk, bl.kind)
			reformatted = false
			switch {
			case err != nil:
				return nil, err
			case clash != "":
				return s.conflict(f, bl, clash)
			case bytes.Equal(data, disk):
				// Already holds the result (an earlier write merged it).
				bl.sum, bl.ours, bl.merged = sum, f.Data, true
				return &OutFile{Path: f.Path, Data: disk}, nil
			}
		}
		err = atomicfile.WriteIf(f.Path, data, 0o644, func() error {
			if beforeCheck != nil {
				beforeCheck(f.Path)
			}
			return unchanged(f.Path, sum)
		})
		if errors.Is(err, errChanged) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if edited && !bl.merged {
			s.merged = append(s.merged, f.Path)
		}
		bl.sum, bl.ours, bl.merged = sha256.Sum256(data), f.Data, edited
		return &OutFile{Path: f.Path, Data: data, Reformatted: reformatted}, nil
	}
	return s.conflict(f, bl, "kept changing while this run tried to merge it")
}

// create writes, the first time, a child's file that did not exist when
// the run loaded the lesson. If the author has made it since, it is
// theirs: the very bytes the run would write are taken as written; anything
// else is a conflict, as there is no common version to merge from.
func (s *Saver) create(f OutFile, key, kind string) (*OutFile, error) {
	bl := &baseline{kind: kind}
	s.files[key] = bl
	for range 3 {
		disk, err := os.ReadFile(f.Path)
		switch {
		case err == nil && bytes.Equal(disk, f.Data):
			bl.sum, bl.ours = sha256.Sum256(disk), f.Data
			return &f, nil
		case err == nil:
			return s.conflict(f, bl, "was created during the run, so there is no common version to merge")
		case !errors.Is(err, fs.ErrNotExist):
			delete(s.files, key)
			return nil, fmt.Errorf("check %s before writing: %w", f.Path, err)
		}
		err = atomicfile.WriteIf(f.Path, f.Data, 0o644, func() error { return absent(f.Path) })
		if errors.Is(err, errChanged) {
			continue // made just now: look at it
		}
		if err != nil {
			delete(s.files, key)
			return nil, err
		}
		bl.sum, bl.ours = sha256.Sum256(f.Data), f.Data
		return &f, nil
	}
	return s.conflict(f, bl, "kept changing while this run tried to create it")
}

// absent fails with errChanged once something exists at path.
func absent(path string) error {
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		return errChanged
	}
	return nil
}

var errChanged = errors.New("changed on disk meanwhile")

// beforeCheck, set by tests, runs just before a write's last check that
// the file on disk is still the one merged: an author's save there is the
// latest one the check must catch.
var beforeCheck func(path string)

// unchanged fails with errChanged unless path still holds the content
// whose hash is sum.
func unchanged(path string, sum [sha256.Size]byte) error {
	disk, err := os.ReadFile(path)
	if err != nil || sha256.Sum256(disk) != sum {
		return errChanged
	}
	return nil
}

// conflict records that f's author edit cannot be merged and writes the
// run's version beside it.
func (s *Saver) conflict(f OutFile, bl *baseline, reason string) (*OutFile, error) {
	bl.conflict = &FileConflict{Path: f.Path, RunCopy: f.Path + ConflictSuffix, Reason: reason}
	s.conflicts = append(s.conflicts, bl.conflict)
	return s.writeCopy(f, bl.conflict)
}

func (s *Saver) writeCopy(f OutFile, c *FileConflict) (*OutFile, error) {
	// Replace, not Write: a link planted at the copy's name is replaced,
	// never written through (the preflight refuses one; this is for a link
	// made during the run).
	if err := atomicfile.Replace(c.RunCopy, f.Data, 0o644); err != nil {
		return nil, err
	}
	return &OutFile{Path: c.RunCopy, Data: f.Data}, nil
}

// merge merges the author's version on disk (theirs) with the run's
// rendering (ours), both descended from base, the run's rendering at its
// last write. clash says why they cannot be merged; data is then nil.
func (d *Document) merge(path string, base, ours, theirs []byte, kind string) (data []byte, clash string, err error) {
	b, err := yamlsrc.Parse(path, base)
	if err != nil {
		return nil, "", fmt.Errorf("merge %s: the run's last version: %w", path, err)
	}
	o, err := yamlsrc.Parse(path, ours)
	if err != nil {
		return nil, "", fmt.Errorf("merge %s: the run's version: %w", path, err)
	}
	t, err := yamlsrc.Parse(path, theirs)
	if err != nil {
		return nil, "was changed during the run and is not valid YAML now: " + firstLine(err), nil
	}
	tree, conflicts := yamlsrc.Merge3(b.Root, o.Root, t.Root)
	if len(conflicts) > 0 {
		spots := make([]string, len(conflicts))
		for i, c := range conflicts {
			spots[i] = c.String()
			if c.Line > 0 {
				spots[i] += fmt.Sprintf(" (line %d)", c.Line)
			}
		}
		return nil, "was changed both by you and by this run at " + strings.Join(spots, ", "), nil
	}
	// Rendering the file fresh would drop the author's comments and layout:
	// better to leave their file alone.
	data, err = t.Patch(tree)
	if errors.Is(err, yamlsrc.ErrUnsafePatch) {
		return nil, "could not be merged without rewriting its layout and comments", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("merge %s: %w", path, err)
	}
	if err := d.checkMerged(path, data, kind); err != nil {
		return nil, "could not be merged into a valid file: " + firstLine(err), nil
	}
	return data, "", nil
}

// checkMerged loads merged bytes as the lesson or a child file of kind
// would be loaded, so a merge never writes a file the next run would refuse.
func (d *Document) checkMerged(path string, data []byte, kind string) error {
	src, err := yamlsrc.Parse(path, data)
	if err != nil {
		return err
	}
	r := &yamlsrc.Reporter{File: path}
	if kind == "" {
		check := newDocument(d.Path, d.reg, src)
		check.base = d.base
		check.decode(src.Root, r)
	} else if desc, ok := d.reg.Child(kind); ok {
		if _, pending := yamlsrc.Pending(src.Root); !pending && checkChildRoot(src.Root, r, desc) {
			desc.Codec.Decode(src.Root, r, kind)
		}
	}
	r.Problems.Sort()
	return r.Problems.Err()
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// created returns the kind of the child whose file, path in place, did not
// exist when the document was loaded.
func (d *Document) created(path string) (kind string, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for key, rel := range d.missing {
		if filepath.Clean(d.childFull(rel)) == path {
			return key.Kind, true
		}
	}
	return "", false
}

// loaded returns the bytes path held when the document read it, and the
// kind of child it holds ("" for the lesson itself).
func (d *Document) loaded(path string) (data []byte, kind string, ok bool) {
	if path == filepath.Clean(d.Path) {
		return d.src.Data, "", true
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for key, src := range d.files {
		if filepath.Clean(src.File) == path {
			return src.Data, key.Kind, true
		}
	}
	return nil, "", false
}
