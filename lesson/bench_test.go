package lesson_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

// benchLesson writes a lesson of n slides, each with a pending notes field,
// a binding and an inline whiteboard of a few elements and a placeholder.
func benchLesson(n int) string {
	var b strings.Builder
	b.WriteString("# A generated lesson for benchmarks.\nversion: 1\nmetadata:\n  title: !pending \"a title\"\n  subject: biology\n  objectives:\nslides:\n")
	for i := range n {
		fmt.Fprintf(&b, `  - id: s%d
    title: Slide %d
    section: Explore
    duration_minutes: 5
    notes: !pending "notes for slide %d"
    props:
      layout: "{{ .slide.number }} of {{ .slide.count }}"
    whiteboard:
      heading: Board %d
      elements:
        - {id: a, type: text, text: "Point A", x: 10, y: 10, w: 300, h: 40}
        - {id: b, type: shape, shape: rect, x: 400, y: 10, w: 200, h: 100, label: B}
        - {id: c, type: arrow, from: a, to: b}
        - id: d
          type: equation
          x: 10
          y: 200
          w: 600
          h: 80
          latex: E = mc^2
        - !pending "two more elements"

`, i, i, i, i)
	}
	return b.String()
}

// benchLessonNoIDs is benchLesson written without ids: every slide and
// element goes by a derived one.
func benchLessonNoIDs(n int) string {
	return strings.NewReplacer(
		"{id: a, ", "{", "{id: b, ", "{",
		"{id: c, type: arrow, from: a, to: b}", "{type: arrow, from: text1, to: shape2}",
		"- id: d\n          type:", "- type:",
	).Replace(regexp.MustCompile(`(?m)^  - id: s\d+\n    title:`).ReplaceAllString(benchLesson(n), "  - title:"))
}

func loadBench(b *testing.B, n int) *compose.Document {
	b.Helper()
	path := filepath.Join(b.TempDir(), "lesson.yaml")
	if err := os.WriteFile(path, []byte(benchLesson(n)), 0o644); err != nil {
		b.Fatal(err)
	}
	d, err := compose.Load(path, testRegistry())
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// BenchmarkDispatch measures one change and its undo. The cost should not
// depend on how many slides the lesson has.
func BenchmarkDispatch(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{20, 2000} {
		d := loadBench(b, n)
		s := d.Session()
		mid := fmt.Sprintf("s%d", n/2)
		if _, err := s.WarmChild(board(mid)); err != nil {
			b.Fatal(err)
		}
		// Each case does one change and undoes it, so state does not grow.
		cases := []struct {
			name string
			do   func() error
		}{
			{"whiteboard-add-text", func() error {
				if _, err := s.DispatchChild(ctx, board(mid), whiteboard.AddText{Box: whiteboard.Box{X: 700, Y: 300, W: 200, H: 50}, Text: "More"}); err != nil {
					return err
				}
				_, err := s.DispatchChild(ctx, board(mid), session.Undo{})
				return err
			}},
			{"update-slide-notes", func() error {
				if _, err := s.Dispatch(ctx, lesson.UpdateSlide{ID: mid, Notes: ptr("Some notes.")}); err != nil {
					return err
				}
				_, err := s.Dispatch(ctx, session.Undo{})
				return err
			}},
			{"set-title", func() error {
				if _, err := s.Dispatch(ctx, lesson.SetTitle{Title: "A title"}); err != nil {
					return err
				}
				_, err := s.Dispatch(ctx, session.Undo{})
				return err
			}},
		}
		for _, c := range cases {
			b.Run(fmt.Sprintf("%s/slides=%d", c.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := c.do(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkLoadSave2000 measures loading a 2000-slide lesson and rendering
// it for a save, unchanged and with one change.
func BenchmarkLoadSave2000(b *testing.B) {
	path := filepath.Join(b.TempDir(), "lesson.yaml")
	data := []byte(benchLesson(2000))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	// unchanged loads the file and renders it for a save: nothing to write.
	unchanged := func(path string, data []byte) func(*testing.B) {
		return func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				d, err := compose.Load(path, testRegistry())
				if err != nil {
					b.Fatal(err)
				}
				files, err := d.Render("")
				if err != nil || len(files) != 0 {
					b.Fatalf("render: %d files, %v", len(files), err)
				}
			}
		}
	}
	b.Run("unchanged", unchanged(path, data))
	noIDs := filepath.Join(b.TempDir(), "noids.yaml")
	noIDsData := []byte(benchLessonNoIDs(2000))
	if err := os.WriteFile(noIDs, noIDsData, 0o644); err != nil {
		b.Fatal(err)
	}
	b.Run("unchanged-no-ids", unchanged(noIDs, noIDsData))
	b.Run("one-change", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			d, err := compose.Load(path, testRegistry())
			if err != nil {
				b.Fatal(err)
			}
			if _, err := d.Session().Dispatch(context.Background(), lesson.UpdateSlide{ID: "s1000", Notes: ptr("Changed.")}); err != nil {
				b.Fatal(err)
			}
			files, err := d.Render("")
			if err != nil || len(files) != 1 {
				b.Fatalf("render: %d files, %v", len(files), err)
			}
		}
	})
}

// BenchmarkSaverCheckpoint2000 measures one checkpoint of a 2,000-slide
// lesson with one change: on a file nobody touched (hash, write), and on a
// file the author edited meanwhile (hash, three-way merge, splice into the
// author's bytes, load-check, write).
func BenchmarkSaverCheckpoint2000(b *testing.B) {
	path := filepath.Join(b.TempDir(), "lesson.yaml")
	data := []byte(benchLesson(2000))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	d, err := compose.Load(path, testRegistry())
	if err != nil {
		b.Fatal(err)
	}
	if _, err := d.Session().Dispatch(context.Background(), lesson.UpdateSlide{ID: "s1000", Notes: ptr("Changed.")}); err != nil {
		b.Fatal(err)
	}
	edited := []byte(strings.Replace(string(data), "    title: Slide 10\n", "    title: Slide ten   # the author, mid-run\n", 1))
	for _, c := range []struct {
		name   string
		onDisk []byte
	}{{"unedited", data}, {"edited", edited}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if err := os.WriteFile(path, c.onDisk, 0o644); err != nil {
					b.Fatal(err)
				}
				s := compose.NewSaver(d)
				files, err := s.Save("")
				if err != nil || len(files) != 1 || len(s.Conflicts()) != 0 {
					b.Fatalf("save: %v, %v, conflicts %v", files, err, s.Conflicts())
				}
			}
		})
	}
}

// BenchmarkSaverCheckpointUnchanged2000 measures a checkpoint of a
// 2,000-slide lesson with nothing new since the last one: it must not
// rewrite the file (render, read and hash only).
func BenchmarkSaverCheckpointUnchanged2000(b *testing.B) {
	path := filepath.Join(b.TempDir(), "lesson.yaml")
	if err := os.WriteFile(path, []byte(benchLesson(2000)), 0o644); err != nil {
		b.Fatal(err)
	}
	d, err := compose.Load(path, testRegistry())
	if err != nil {
		b.Fatal(err)
	}
	if _, err := d.Session().Dispatch(context.Background(), lesson.UpdateSlide{ID: "s1000", Notes: ptr("Changed.")}); err != nil {
		b.Fatal(err)
	}
	s := compose.NewSaver(d)
	if _, err := s.Save(""); err != nil {
		b.Fatal(err)
	}
	before, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Save(""); err != nil {
			b.Fatal(err)
		}
	}
	if after, err := os.Stat(path); err != nil || !os.SameFile(before, after) {
		b.Fatalf("an unchanged checkpoint rewrote the lesson (%v)", err)
	}
}

// BenchmarkApprovalDiff2000 measures what --approve ask does before it
// asks about one change in a 2,000-slide lesson: preview the change,
// render the lesson file before and after it (compose.Stage, the save
// path twice) and diff the two.
func BenchmarkApprovalDiff2000(b *testing.B) {
	path := filepath.Join(b.TempDir(), "lesson.yaml")
	data := []byte(benchLesson(2000))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	d, err := compose.Load(path, testRegistry())
	if err != nil {
		b.Fatal(err)
	}
	sess := d.Session()
	in := lesson.UpdateSlide{ID: "s1000", Notes: ptr("Changed.")}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		var stage func() (compose.FileChange, error)
		if _, err := sess.Preview(in, func(st session.State) { stage = d.Stage(sess, st) }); err != nil {
			b.Fatal(err)
		}
		fc, err := stage()
		if err != nil {
			b.Fatal(err)
		}
		if len(diff.Diff("a", fc.Before, "b", fc.After)) == 0 {
			b.Fatal("no diff")
		}
	}
}
