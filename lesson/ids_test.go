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
