package compose

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lessongen/lessongen/lesson"
)

// What a run's journal (orchestrate.Journal) needs of a lesson: which
// children live in the lesson file itself, and the hash of that file as
// the run last loaded or wrote it.

// Sum is the hash of the lesson file's bytes as loaded.
func (d *Document) Sum() string { return sumOf(sha256.Sum256(d.src.Data)) }

func sumOf(sum [sha256.Size]byte) string { return "sha256:" + hex.EncodeToString(sum[:]) }

// FilesSum is one hash over a lesson file and the child files it names
// (rels, relative to it, as Document.ChildFiles lists them): what a file
// was made from, or what a run left at its output. A file that cannot be
// read counts as absent; only equality of two sums means anything.
func FilesSum(lesson string, rels []string) string {
	h := sha256.New()
	for i, name := range append([]string{""}, rels...) {
		p := lesson
		if i > 0 {
			p = filepath.Join(filepath.Dir(lesson), name)
		}
		data, err := readFile(p)
		if err != nil {
			fmt.Fprintf(h, "%q absent\n", name)
			continue
		}
		fmt.Fprintf(h, "%q %d\n", name, len(data))
		h.Write(data)
	}
	return sumOf([sha256.Size]byte(h.Sum(nil)))
}

// Inline reports whether slide id's child of kind is written in the
// lesson file itself, not in a file of its own.
func (d *Document) Inline(id, kind string) (inline bool) {
	d.View(func(p *lesson.Plan) {
		for _, s := range p.Slides.Value {
			if s.ID != id {
				continue
			}
			ref, ok := s.Children.Get(kind)
			inline = ok && ref.File == ""
			return
		}
	})
	return inline
}

// LessonSum is the hash of the lesson file as this run last loaded or
// wrote it at out ("" in place): with -o, the input's until the run first
// writes the output, then the output's; "" once the file holds what the
// run's document lacks (an author's edit merged in) or is in conflict: a
// journal of the run's nodes no longer stands for that file plus its
// entries.
func (s *Saver) LessonSum(out string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	bl := s.files[filepath.Clean(s.doc.outPath(out))]
	switch {
	case bl == nil:
		return s.doc.Sum()
	case bl.merged || bl.conflict != nil:
		return ""
	}
	return sumOf(bl.sum)
}

// LessonWritten reports whether the lesson file at out ("" in place) holds
// what this run loaded or wrote there: in place always, at another file
// once the run has written it.
func (s *Saver) LessonWritten(out string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	path := filepath.Clean(s.doc.outPath(out))
	return path == filepath.Clean(s.doc.Path) || s.files[path] != nil
}

// LessonEdited reports whether the lesson file on disk differs from what
// this run last loaded or wrote there (an author's edit, or the file is
// gone).
func (s *Saver) LessonEdited() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	sum := sha256.Sum256(s.doc.src.Data)
	if bl := s.files[filepath.Clean(s.doc.Path)]; bl != nil {
		sum = bl.sum
	}
	disk, err := os.ReadFile(s.doc.Path)
	return err != nil || sha256.Sum256(disk) != sum
}
