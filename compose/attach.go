package compose

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lessongen/lessongen/internal/atomicfile"
	"github.com/lessongen/lessongen/internal/regfile"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// attachment is one file a child keeps beside its YAML, where a save to
// some output puts it; base is that YAML file's folder.
type attachment struct {
	key     session.Key
	version uint64
	base    string
	file    OutFile
}

// attachments lists the files a save to out writes beside the YAML file
// that holds each child (the child's own file, or the lesson): the
// pictures the hot children's runs brought in (modality.Attacher) and,
// when out is in another folder than the lesson, every picture each child
// names (modality.Pictured), cold children warmed for it, so the copy
// names none that is not there. skip, when set, passes over a child
// already written at this version.
func (d *Document) attachments(out string, skip func(session.Key, uint64) bool) ([]attachment, error) {
	outDir := filepath.Dir(d.outPath(out))
	moved := filepath.Clean(filepath.Dir(d.Path)) != filepath.Clean(outDir)
	own := map[session.Key]string{}
	for _, c := range d.fileChildren() {
		own[c.key] = c.ref.File
	}
	var list []attachment
	for _, key := range d.root.Children() {
		child, hot := d.root.HotChild(key)
		if !hot && (!moved || skip != nil && skip(key, 0)) {
			continue
		}
		if !hot {
			var err error
			if child, err = d.root.WarmChild(key); err != nil {
				// The input's own problem, reported where the child is
				// loaded (the run, validate); its file is copied as it is.
				list = append(list, attachment{key: key})
				continue
			}
		}
		if skip != nil && skip(key, child.Version()) {
			continue
		}
		dir := outDir
		if f, ok := own[key]; ok {
			dir = filepath.Dir(filepath.Join(outDir, f))
		}
		atts, err := childAttachments(key, child, dir, moved)
		if err != nil {
			return nil, err
		}
		list = append(list, atts...)
	}
	return list, nil
}

// childAttachments lists one child's files to write into dir (all its
// pictures when moved), or one empty entry to record its version.
func childAttachments(key session.Key, child *session.Session, dir string, moved bool) ([]attachment, error) {
	var atts []modality.Attachment
	// Read before the view (never inside it: a read lock taken twice
	// deadlocks behind a waiting writer). A change in between makes the
	// version older than what is written: the next save looks again.
	version := child.Version()
	child.View(func(st session.State) {
		if p, ok := st.(modality.Pictured); ok && moved {
			atts = p.Pictures()
		} else if a, ok := st.(modality.Attacher); ok {
			atts = a.Attachments()
		}
	})
	list := []attachment{{key: key, version: version}}
	for i, a := range atts {
		rel := filepath.FromSlash(a.Src)
		if !filepath.IsLocal(rel) {
			return nil, fmt.Errorf("%s of slide %q: %q is not a file inside its folder", key.Kind, key.Placement, a.Src)
		}
		f := attachment{key: key, version: version, base: dir, file: OutFile{Path: filepath.Join(dir, rel), Data: a.Data}}
		if i == 0 {
			list[0] = f
		} else {
			list = append(list, f)
		}
	}
	return list, nil
}

// Attachments returns the files a save to out writes beside the YAML:
// pictures the run brought in.
func (d *Document) Attachments(out string) ([]OutFile, error) {
	list, err := d.attachments(out, nil)
	var files []OutFile
	for _, a := range list {
		if a.file.Path != "" {
			files = append(files, a.file)
		}
	}
	return files, err
}

// attach writes the attachments of the children changed since the last
// save, before the YAML that names them, and returns those it wrote.
func (s *Saver) attach(out string) ([]OutFile, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.attached == nil {
		s.attached = map[session.Key]uint64{}
	}
	list, err := s.doc.attachments(out, func(k session.Key, v uint64) bool {
		done, ok := s.attached[k]
		return ok && done == v
	})
	if err != nil {
		return nil, err
	}
	var written []OutFile
	for _, a := range list {
		if a.file.Path == "" {
			continue
		}
		wrote, err := writeAttachment(a.base, a.file)
		if err != nil {
			return written, err
		}
		if wrote {
			written = append(written, a.file)
		}
	}
	// Only once all are on disk: a failed save tries them all again.
	for _, a := range list {
		s.attached[a.key] = a.version
	}
	return written, nil
}

// writeAttachment writes f, a picture beside the YAML file in base,
// unless the same bytes are there already. It never writes over a
// different file, nor through a link at the file or at any folder between
// base and it: those are the author's, and the save stops with what to do.
func writeAttachment(base string, f OutFile) (wrote bool, err error) {
	if err := realFolders(base, filepath.Dir(f.Path)); err != nil {
		return false, err
	}
	for range 2 {
		fi, err := os.Lstat(f.Path)
		switch {
		case err == nil && fi.Mode().IsRegular():
			same, err := holds(f.Path, f.Data)
			if err != nil || same {
				return false, err
			}
			return false, fmt.Errorf("%s already exists and holds another picture; it is not overwritten: move it aside and run again", f.Path)
		case err == nil:
			return false, fmt.Errorf("%s exists and is not a regular file (a link?); no picture is written through it: remove it and run again", f.Path)
		case !errors.Is(err, fs.ErrNotExist):
			return false, err
		}
		err = atomicfile.WriteIf(f.Path, f.Data, 0o644, func() error { return absent(f.Path) })
		if !errors.Is(err, errChanged) {
			return err == nil, err
		}
	}
	return false, fmt.Errorf("%s kept changing while this run wrote it", f.Path)
}

// holds reports whether the regular file at path holds exactly data.
func holds(path string, data []byte) (bool, error) {
	fh, err := regfile.Open(path)
	if err != nil {
		return false, err
	}
	defer fh.Close()
	disk, over, err := regfile.ReadAtMost(fh, int64(len(data)))
	return err == nil && !over && bytes.Equal(disk, data), err
}

// realFolders fails when a folder from below base down to dir exists and
// is not a folder (a link): a picture is never written through one.
func realFolders(base, dir string) error {
	rel, err := filepath.Rel(base, dir)
	if err != nil || !filepath.IsLocal(rel) {
		return nil // dir is base itself: the YAML's own folder
	}
	at := base
	for part := range strings.SplitSeq(rel, string(filepath.Separator)) {
		at = filepath.Join(at, part)
		fi, err := os.Lstat(at)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err == nil && !fi.IsDir() {
			return fmt.Errorf("%s is not a folder (a link?); no picture is written through it: remove it and run again", at)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
