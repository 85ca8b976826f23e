package course

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lessongen/lessongen/session"
)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const courseYAML = `# The spring unit.
version: 1
course:
  title: Fractions
  subject: maths   # the department's name for it
  outcomes: !pending "4 outcomes"
lessons:
  - {file: lessons/01-halves.yaml}
  - !pending "subtracting fractions"
`

// Saving a course writes the lesson its node subagent named as a new
// file, never over an existing one, names it in the course file and
// keeps every other byte the author wrote.
func TestSaveNamesNewLessonFile(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"course.yaml":            courseYAML,
		"lessons/01-halves.yaml": "version: 1\nmetadata: {title: Halves}\nslides: []\n",
		// Someone else's file where the new one would go.
		"lessons/02-take-away.yaml": "version: 1\nmetadata: {title: Another lesson}\nslides: []\n",
	})
	f, err := Load(filepath.Join(dir, "course.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sess := session.New("course", f.Course)
	ctx := context.Background()
	for _, in := range []session.Intent{SetOutcomes{Outcomes: []string{"Subtract fractions"}}, AddLesson{PendingID: "lesson2", Title: "Take away!", Brief: "subtracting"}} {
		if _, err := sess.Dispatch(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	written, err := f.Save()
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != 2 || filepath.Base(written[0]) != "02-take-away-2.yaml" {
		t.Fatalf("wrote %v, want the new lesson as 02-take-away-2.yaml and the course", written)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "course.yaml"))
	want := strings.Replace(strings.Replace(courseYAML, ` !pending "4 outcomes"`, "\n    - Subtract fractions", 1),
		`!pending "subtracting fractions"`, "{file: lessons/02-take-away-2.yaml}", 1)
	if string(got) != want {
		t.Errorf("course file:\n%s\nwant:\n%s", got, want)
	}
	other, _ := os.ReadFile(filepath.Join(dir, "lessons/02-take-away.yaml"))
	if !strings.Contains(string(other), "Another lesson") {
		t.Errorf("an existing file was overwritten:\n%s", other)
	}
	s, err := ReadSummary(written[0], "lessons/02-take-away-2.yaml")
	if err != nil || s.Title != "Take away!" || !s.Pending {
		t.Errorf("new lesson summary %+v (%v): want its title and its metadata pending", s, err)
	}
}

// A lesson file an interrupted run wrote before it could name it in the
// course (same name, same title) is taken, not written again beside it.
func TestNewLessonFileTakesItsOwnLeftover(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"course.yaml": courseYAML,
		"lessons/01-halves.yaml": "version: 1\nmetadata: {title: Halves}\nslides: []\n"})
	f, err := Load(filepath.Join(dir, "course.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	f.Course.Lessons[1].Title = "Take away"
	for range 2 {
		rel, err := f.NewLessonFile(1)
		if err != nil || rel != "lessons/02-take-away.yaml" {
			t.Fatalf("got %q, %v", rel, err)
		}
	}
}

// What lesson n is told of the lessons before it stays within
// MaxPriorBytes however many there are, each one's vocabulary first.
func TestAboveIsBounded(t *testing.T) {
	var all []Summary
	for i := range 60 {
		all = append(all, Summary{Title: "Lesson", Vocabulary: []Term{{Term: "term" + string(rune('a'+i%26)), Definition: "a definition"}},
			Objectives: []string{strings.Repeat("a long objective ", 40)}})
	}
	c := &Course{}
	for _, n := range []int{1, 5, 59} {
		above := Above(c, all, n)
		prior := above[len(above)-1]
		if len(prior) > MaxPriorBytes+n*40+200 {
			t.Errorf("lesson %d: %d bytes about earlier lessons, over the bound %d", n+1, len(prior), MaxPriorBytes)
		}
		if !strings.Contains(prior, "vocabulary: terma = a definition") {
			t.Errorf("lesson %d: the first lesson's vocabulary was cut:\n%.300s", n+1, prior)
		}
	}
	if got := Above(c, all, 0); len(got) != 2 {
		t.Errorf("the first lesson is told of %d levels, want the course and its outline", len(got))
	}
}

func TestSelectAndWaits(t *testing.T) {
	all := []Summary{{File: "lessons/01-a.yaml", Title: "A"}, {File: "lessons/02-b.yaml", Title: "B", Pending: true}, {File: "lessons/03-c.yaml", Title: "C"}, {File: "lessons/04-d.yaml", Title: "D", Pending: true}, {File: "lessons/05-e.yaml", Title: "E"}}
	sel, err := Select("3, 02-b, a", all)
	if err != nil || !slices.Equal(sel, []int{0, 1, 2}) {
		t.Fatalf("Select = %v, %v", sel, err)
	}
	if _, err := Select("6", all); err == nil {
		t.Error("a position past the end was taken")
	}
	w := Waits(all, []int{0, 1, 2, 3, 4})
	if len(w[0]) != 0 || len(w[1]) != 0 || !slices.Equal(w[2], []int{1}) || !slices.Equal(w[3], []int{1}) || !slices.Equal(w[4], []int{3}) {
		t.Errorf("Waits = %v: lessons 3 and 4 wait for lesson 2, lesson 5 for lesson 4 (which waited for 2)", w)
	}
	// Lesson 2 not run: nothing it would write to wait for.
	if w := Waits(all, []int{0, 2}); len(w[2]) != 0 {
		t.Errorf("Waits without lesson 2 = %v", w)
	}
}

// Schedule starts a lesson once those it waits for are ready, not
// before and without waiting for them to end.
func TestScheduleWaitsForReady(t *testing.T) {
	var readied atomic.Bool
	ran := make(chan struct{})
	done := make(chan map[int]error)
	go func() {
		done <- Schedule(context.Background(), []int{0, 1, 2}, map[int][]int{2: {0}}, func(_ context.Context, i int, ready func()) error {
			switch i {
			case 0:
				readied.Store(true)
				ready()
				<-ran // lesson 1 goes on until lesson 3 has run
			case 2:
				if !readied.Load() {
					t.Error("lesson 3 started before lesson 1 was ready")
				}
				close(ran)
			}
			return nil
		})
	}()
	select {
	case errs := <-done:
		if len(errs) != 3 {
			t.Errorf("errs %v", errs)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("lesson 3 waited for lesson 1 to end, not to be ready")
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{"Adding fractions: part 2!": "adding-fractions-part-2", "¿?": "lesson", strings.Repeat("word ", 20): "word-word-word-word-word-word-word-word-word"} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsCourse(t *testing.T) {
	if !IsCourse([]byte(courseYAML)) || IsCourse([]byte("version: 1\nmetadata: {title: x}\nslides: []\n")) {
		t.Error("IsCourse tells course and lesson files apart by the course key")
	}
}

// A course's title is the author's: pending, it is an error at its place.
func TestPendingTitleRefused(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"course.yaml": "version: 1\ncourse:\n  title: !pending\nlessons: []\n"})
	_, err := Load(filepath.Join(dir, "course.yaml"))
	if err == nil || !strings.Contains(err.Error(), "course.yaml:3:10: course.title must be written") {
		t.Errorf("got %v", err)
	}
}

// A hard link to a lesson the course names already is that lesson again,
// refused at its line like another spelling of its path; a second,
// different lesson is not.
func TestResolveRefusesALessonNamedTwice(t *testing.T) {
	dir := t.TempDir()
	const lesson = "version: 1\nmetadata: {title: X}\nslides: []\n"
	write(t, dir, map[string]string{
		"course.yaml":    "version: 1\ncourse: {title: T}\nlessons:\n  - {file: lessons/x.yaml}\n  - {file: lessons/y.yaml}\n  - {file: lessons/hard.yaml}\n",
		"lessons/x.yaml": lesson,
		"lessons/y.yaml": lesson,
	})
	if err := os.Link(filepath.Join(dir, "lessons/x.yaml"), filepath.Join(dir, "lessons/hard.yaml")); err != nil {
		t.Skip(err)
	}
	f, err := Load(filepath.Join(dir, "course.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	_, problems := f.Resolve()
	if len(problems) != 1 || problems[0].Line != 6 || !strings.Contains(problems[0].Message, "is the file line 4 names already") {
		t.Fatalf("problems %v; want one, at line 6", problems)
	}
}
