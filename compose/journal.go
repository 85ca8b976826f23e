package compose

import (
	"crypto/sha256"
	"encoding/hex"
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
// wrote it in place; "" once the file holds what the run's document lacks
// (an author's edit merged in) or is in conflict: a journal of the run's
// nodes no longer stands for that file plus its entries.
func (s *Saver) LessonSum() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	bl := s.files[filepath.Clean(s.doc.Path)]
	switch {
	case bl == nil:
		return s.doc.Sum()
	case bl.merged || bl.conflict != nil:
		return ""
	}
	return sumOf(bl.sum)
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
