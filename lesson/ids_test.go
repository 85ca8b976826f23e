package lesson_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/session"
)

// A slide id made from a long title keeps whole words only.
func TestSlideIDKeepsWholeWords(t *testing.T) {
	d := loadFractions(t)
	s := d.Session()
	for title, want := range map[string]string{
		"Practice: where each stage happens in the chloroplast": "practice-where-each-stage",
		"Photosynthesisandrespirationcomparedsidebyside":        "photosynthesisandrespirationcomparedsidebyside",
	} {
		res := dispatch(t, s, practice(title))
		if got := outputID(t, res); got != want {
			t.Errorf("%q → %q, want %q", title, got, want)
		}
	}
}

// A slide may be added under an id the model chose; a clash names a free one.
func TestSlideChosenID(t *testing.T) {
	d := loadFractions(t)
	s := d.Session()
	in := practice("Warm up")
	in.ID = "warm"
	if got := outputID(t, dispatch(t, s, in)); got != "warm" {
		t.Fatalf("added %q, want the chosen id", got)
	}
	_, err := s.Dispatch(context.Background(), in)
	e, ok := session.AsError(err)
	if !ok || e.Kind != session.KindInvalidArgs || e.Path != "id" || !strings.Contains(e.Hint, `"warm-2" is free`) {
		t.Errorf("clash: %v", err)
	}
}

func outputID(t *testing.T, res session.Result) string {
	t.Helper()
	a, ok := res.Outputs[0].(lesson.SlideAdded)
	if !ok {
		t.Fatalf("output %#v", res.Outputs[0])
	}
	return a.ID
}

const idlessLesson = `version: 1
metadata:
  title: Light
slides:
  - title: "Practice: where each stage happens in the chloroplast"
    notes: !pending
  - title: !pending
  - id: practice-where-each-stage
    title: Taken
`

// A slide written without an id goes by a slug of its title with whole
// words (else slide-N); an explicit id elsewhere in the list wins, and the
// derived one takes a suffix.
func TestDerivedSlideIDs(t *testing.T) {
	d := load(t, idlessLesson)
	got := plan(d).SlideIDs()
	want := []string{"practice-where-each-stage-2", "slide-2", "practice-where-each-stage"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("ids = %q, want %q", got, want)
	}
	if s, err := plan(d).Lookup("slide-2"); err != nil || s.ID != "slide-2" {
		t.Errorf("Lookup(slide-2) = %v, %v", s, err)
	}
}

// Filling a pending field of a slide whose id is derived saves the field
// and no id: the author's other bytes are as they were.
func TestDerivedSlideIDIsNotSaved(t *testing.T) {
	d := load(t, idlessLesson)
	apply(t, d, d.Session(), lesson.UpdateSlide{ID: "practice-where-each-stage-2", Notes: ptr("Sort the cards.")})
	got := rendered(t, d)[d.Path]
	want := strings.Replace(idlessLesson, "notes: !pending", "notes: Sort the cards.", 1)
	if got != want {
		t.Errorf("saved\n%s\nwant\n%s", got, want)
	}
	if again := plan(reload(t, d)).SlideIDs(); again[0] != "practice-where-each-stage-2" {
		t.Errorf("after the save the slide goes by %q", again[0])
	}
}

// A title that starts with a digit derives an id that starts with a letter,
// so `fill --slide 1` still means the first slide, not a slide titled "1".
func TestDerivedSlideIDStartsWithALetter(t *testing.T) {
	d := load(t, "version: 1\nmetadata:\n  title: T\nslides:\n  - title: Intro\n  - title: \"1\"\n  - title: 1969 landing\n")
	got := strings.Join(plan(d).SlideIDs(), " ")
	if got != "intro slide-1 slide-1969-landing" {
		t.Errorf("ids = %q", got)
	}
	if s, err := plan(d).Lookup("1"); err != nil || s.ID != "intro" {
		t.Errorf("Lookup(1) = %v, %v; want the first slide", s, err)
	}
}
