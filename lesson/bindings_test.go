package lesson_test

import (
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/session"
)

func bindings(t *testing.T, d *compose.Document, id string) (map[string]string, error) {
	t.Helper()
	var m map[string]string
	var err error
	d.View(func(p *lesson.Plan) { m, err = p.Bindings(id) })
	return m, err
}

func wantHeading(t *testing.T, d *compose.Document, id, want string) {
	t.Helper()
	m, err := bindings(t, d, id)
	if err != nil || m["heading"] != want {
		t.Errorf("heading of %s = %q (%v), want %q", id, m["heading"], err, want)
	}
}

func TestBindingsResolve(t *testing.T) {
	d := loadFractions(t)
	wantHeading(t, d, "intro", "Adding fractions — Why fractions?")
	if m, err := bindings(t, d, "wrap"); m != nil || err != nil {
		t.Errorf("a slide without props: %v, %v", m, err)
	}
	if _, err := bindings(t, d, "nope"); err == nil {
		t.Error("bindings of an unknown slide succeeded")
	}
}

func TestBindingsFollowChanges(t *testing.T) {
	d := load(t, strings.Replace(fractionsSrc, "title: Adding fractions", "title: !pending", 1), "boards/recap.yaml", recapSrc)
	s := d.Session()
	if _, err := bindings(t, d, "intro"); !errors.Is(err, lesson.ErrBindingPending) { // cached now
		t.Fatalf("err = %v, want ErrBindingPending", err)
	}

	dispatch(t, s, lesson.SetTitle{Title: "Adding fractions"})
	wantHeading(t, d, "intro", "Adding fractions — Why fractions?")
	dispatch(t, s, lesson.SetTitle{Title: "Fractions"})
	wantHeading(t, d, "intro", "Fractions — Why fractions?")
	dispatch(t, s, session.Undo{})
	wantHeading(t, d, "intro", "Adding fractions — Why fractions?")
	dispatch(t, s, session.Redo{})
	wantHeading(t, d, "intro", "Fractions — Why fractions?")

	// A slide's own change re-evaluates its bindings.
	dispatch(t, s, practice("Practice one"))
	dispatch(t, s, lesson.SetSlideProps{ID: "practice-one", Props: map[string]string{"heading": "{{ .slide.title }} ({{ .slide.number }}/{{ .slide.count }})"}})
	wantHeading(t, d, "practice-one", "Practice one (2/4)")
	dispatch(t, s, lesson.UpdateSlide{ID: "practice-one", Title: ptr("Practice")})
	wantHeading(t, d, "practice-one", "Practice (2/4)")
	dispatch(t, s, session.Undo{})
	wantHeading(t, d, "practice-one", "Practice one (2/4)")

	// Order changes renumber every slide.
	dispatch(t, s, lesson.MoveSlide{ID: "practice-one", Position: 4})
	wantHeading(t, d, "practice-one", "Practice one (4/4)")
	dispatch(t, s, lesson.AddSlide{Title: "Opener", DurationMinutes: 2, Briefs: map[string]string{"whiteboard": "w"}, Position: 1})
	wantHeading(t, d, "practice-one", "Practice one (5/5)")

	// Replacing the props replaces the cached result.
	dispatch(t, s, lesson.SetSlideProps{ID: "practice-one", Props: map[string]string{"layout": "{{ upper .slide.section }}"}})
	if m, err := bindings(t, d, "practice-one"); err != nil || !reflect.DeepEqual(m, map[string]string{"layout": "EXPLORE"}) {
		t.Errorf("bindings = %v, %v", m, err)
	}
}

func TestBindingsPendingUntilGenerated(t *testing.T) {
	src := `version: 1
metadata:
  title: Fractions
  subject: !pending
  objectives:
  prerequisites: [halves, quarters]
slides:
  - id: a
    title: A
    props:
      heading: "{{ .lesson.subject }}: {{ .slide.title }}"
      layout: "{{ join \", \" .lesson.objectives }}"
    whiteboard: !pending
  - id: b
    title: B
    props:
      layout: "needs {{ join \" and \" .lesson.prerequisites }}"
    whiteboard: !pending
`
	d := load(t, src)
	s := d.Session()
	m, err := bindings(t, d, "a")
	if !errors.Is(err, lesson.ErrBindingPending) {
		t.Fatalf("err = %v, want ErrBindingPending", err)
	}
	if len(m) != 0 {
		t.Errorf("pending bindings resolved to %v", m)
	}
	if m, err := bindings(t, d, "b"); err != nil || m["layout"] != "needs halves and quarters" {
		t.Errorf("b: %v, %v", m, err)
	}

	dispatch(t, s, lesson.SetSubject{Subject: "math"})
	m, err = bindings(t, d, "a")
	if !errors.Is(err, lesson.ErrBindingPending) || m["heading"] != "math: A" {
		t.Errorf("after the subject: %v, %v; want the heading resolved and the layout still pending", m, err)
	}
	dispatch(t, s, lesson.SetObjectives{Objectives: lesson.Items("add", "compare")})
	m, err = bindings(t, d, "a")
	if err != nil || !reflect.DeepEqual(m, map[string]string{"heading": "math: A", "layout": "add, compare"}) {
		t.Errorf("after the objectives: %v, %v", m, err)
	}
}

func TestBadBindingsAreLoadErrors(t *testing.T) {
	src := `version: 1
metadata:
  title: Fractions
slides:
  - id: a
    title: A
    props:
      heading: "{{ .lesson.title"
    whiteboard: !pending
  - id: b
    title: B
    props:
      heading: "{{ .lesson.titel }}"
    whiteboard: !pending
  - id: c
    title: C
    props:
      colour: red
    whiteboard: !pending
  - id: d
    title: D
    props:
      layout: "{{ .slide.nope }}"
`
	dir := writeFiles(t, map[string]string{"lesson.yaml": src})
	_, err := compose.Load(dir+"/lesson.yaml", testRegistry())
	var ps yamlsrc.Problems
	if !errors.As(err, &ps) {
		t.Fatalf("err = %v, want Problems", err)
	}
	want := []struct {
		line, col int
		msg       string
	}{
		{8, 7, `slide "a" (1).props.heading: template does not parse: template line 1: unclosed action`},
		{13, 7, `props.heading of slide "b": names "titel", which is not a lesson or slide value`},
		{18, 7, `slide "c" (3).props.colour: no child of a slide has a property "colour"; bindable: heading, layout (whiteboard)`},
		{23, 7, `props.layout of slide "d": names "nope"`},
	}
	for _, w := range want {
		found := false
		for _, p := range ps {
			if p.Line == w.line && p.Col == w.col && strings.Contains(p.Message, w.msg) && strings.HasSuffix(p.File, "lesson.yaml") {
				found = true
			}
		}
		if !found {
			t.Errorf("no problem at %d:%d containing %q", w.line, w.col, w.msg)
		}
	}
	if len(ps) != len(want) {
		t.Errorf("%d problems, want %d:\n%v", len(ps), len(want), ps)
	}
}

func TestShadowedBindingWarns(t *testing.T) {
	d := load(t, `version: 1
metadata:
  title: T
slides:
  - id: a
    title: A
    props:
      heading: "{{ .slide.title }}"
    whiteboard:
      heading: Written
`)
	if len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0].Message, "slide \"a\" (1).props.heading is ignored: the whiteboard already sets heading") || d.Warnings[0].Line != 8 {
		t.Errorf("warnings = %v", d.Warnings)
	}
}

// Bindings are read under the session's read lock, possibly from several
// goroutines at once (plan and run both do). Run with -race.
func TestBindingsConcurrentReaders(t *testing.T) {
	d := loadFractions(t)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				m, err := bindings(t, d, "intro")
				if err != nil || m["heading"] == "" {
					t.Errorf("bindings = %v, %v", m, err)
					return
				}
			}
		})
	}
	wg.Go(func() {
		for range 20 {
			dispatch(t, d.Session(), lesson.SetSubject{Subject: "math"})
			dispatch(t, d.Session(), session.Undo{})
		}
	})
	wg.Wait()
}
