package compose_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lessongen/lessongen/compose"
)

// bigLesson writes a finished lesson of n slides.
func bigLesson(t testing.TB, n int) string {
	t.Helper()
	var s strings.Builder
	s.WriteString("version: 1\nmetadata:\n  title: Big\n  subject: biology\nslides:\n")
	for i := range n {
		fmt.Fprintf(&s, "  - id: s%d\n    title: Slide %d\n    notes: Talk about slide %d.\n    whiteboard:\n      heading: Board %d\n      elements:\n        - {id: a, type: text, text: \"Point A\", x: 40, y: 140, w: 300, h: 40}\n", i, i, i, i)
	}
	path := filepath.Join(t.TempDir(), "lesson.yaml")
	if err := os.WriteFile(path, []byte(s.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// Old enough that a stat vouches for it (see compose.fileStamp.racy).
	old := time.Now().Add(-time.Minute)
	os.Chtimes(path, old, old)
	return path
}

// TestLessonEditedSeesEdits: the stat that spares LessonEdited a read
// never hides an edit: one of the same size, one with the modification
// time set back, one replacing the file, and one right after a check.
func TestLessonEditedSeesEdits(t *testing.T) {
	path := bigLesson(t, 3)
	doc, err := compose.Load(path, testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	s := compose.NewSaver(doc)
	if s.LessonEdited() || s.LessonEdited() {
		t.Fatal("an untouched lesson reads as edited")
	}
	data, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	same := strings.Replace(string(data), "Slide 1", "Slide X", 1) // same size
	f, _ := os.OpenFile(path, os.O_WRONLY, 0)
	f.WriteAt([]byte(same), 0)
	f.Close()
	os.Chtimes(path, fi.ModTime(), fi.ModTime())
	if !s.LessonEdited() {
		t.Error("an edit of the same size, its time set back, was not seen")
	}
	os.WriteFile(path, data, 0o644)
	if s.LessonEdited() {
		t.Error("the lesson put back reads as edited")
	}
	os.WriteFile(path, []byte(same), 0o644) // right after a check
	if !s.LessonEdited() {
		t.Error("an edit right after a check was not seen")
	}
}

// BenchmarkLessonEdited is a checkpoint's question, once an interval, of
// a 2,000-slide lesson nobody edited.
//
//	go test ./compose -run '^$' -bench LessonEdited
func BenchmarkLessonEdited(b *testing.B) {
	path := bigLesson(b, 2000)
	doc, err := compose.Load(path, testRegistry())
	if err != nil {
		b.Fatal(err)
	}
	s := compose.NewSaver(doc)
	for b.Loop() {
		if s.LessonEdited() {
			b.Fatal("edited")
		}
	}
}
