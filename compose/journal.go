package compose

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

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
// gone). A checkpoint asks it every interval: the file is read and
// hashed only when its size, modification time or identity changed
// since it was last found unchanged, so a lesson of 2,000 slides costs a
// stat, not a read and two hashes of it (a fifth of a run's CPU).
func (s *Saver) LessonEdited() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	var sum [sha256.Size]byte
	if bl := s.files[filepath.Clean(s.doc.Path)]; bl != nil {
		sum = bl.sum
	} else {
		if s.loadedSum == nil {
			loaded := sha256.Sum256(s.doc.src.Data) // taken once
			s.loadedSum = &loaded
		}
		sum = *s.loadedSum
	}
	fi, err := os.Stat(s.doc.Path)
	if err != nil {
		return true
	}
	now := stampOf(fi, sum)
	if now == s.lessonSeen && !now.racy() {
		return false
	}
	disk, err := os.ReadFile(s.doc.Path)
	if err != nil || sha256.Sum256(disk) != sum {
		return true
	}
	s.lessonSeen = now
	return false
}

// fileStamp is what a stat says of a file's content without reading it,
// with the hash it was found to hold.
type fileStamp struct {
	size        int64
	mod, change int64 // Unix nanoseconds
	id          any
	sum         [sha256.Size]byte
}

func stampOf(fi os.FileInfo, sum [sha256.Size]byte) fileStamp {
	return fileStamp{size: fi.Size(), mod: fi.ModTime().UnixNano(), change: changeTime(fi).UnixNano(), id: fileID(fi), sum: sum}
}

// racy reports a stamp too recent to vouch for the content: a write in
// the same tick of the file system's clock could leave its times as they
// were (git's "racily clean" files).
func (f fileStamp) racy() bool {
	recent := time.Now().Add(-100 * time.Millisecond).UnixNano()
	return f.mod > recent || f.change > recent
}
