package lesson_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/session"
)

// calloutsSrc has a slide with the author's callouts around a placeholder,
// and one whose callouts are pending as a whole.
const calloutsSrc = `version: 1
metadata:
  title: The Unix shell
slides:
  - id: rm-safely
    title: Deleting safely
    callouts:                             # the teacher's unless show: slide
      - {kind: instructor, text: "Pause here: ask who has lost a file."}
      - !pending "a caution about rm -r"
      - kind: tip
        text: Type the command, do not paste it.
        show: slide
  - id: wrap-up
    title: Wrap-up
    callouts: !pending "one instructor note on timing"
`

func TestAuthorsCalloutsRoundTrip(t *testing.T) {
	d := load(t, calloutsSrc)
	if got := rendered(t, d)[d.Path]; got != calloutsSrc {
		t.Errorf("saved without a change:\n%s", got)
	}
	var paths []string
	for _, p := range plan(d).Pending() {
		paths = append(paths, p.Path+"="+p.ID)
	}
	if got := strings.Join(paths, " "); got != "slides[wrap-up].callouts= slides[rm-safely].callouts[1]=callouts-1" {
		t.Errorf("pending: %s", got)
	}
}

func TestAddCalloutFillsWhatIsPending(t *testing.T) {
	d := load(t, calloutsSrc)
	s := d.Session()
	apply(t, d, s, lesson.AddCallout{ID: "rm-safely", Kind: "caution", Text: "rm -r deletes a whole folder, with no bin to restore it from."})
	apply(t, d, s, lesson.AddCallout{ID: "wrap-up", Kind: "instructor", Text: "Keep two minutes for questions.", Show: "notes"})
	if ps := plan(d).Pending(); len(ps) != 0 {
		t.Fatalf("still pending: %+v", ps)
	}
	got := rendered(t, d)[d.Path]
	for _, want := range []string{
		"      - kind: caution\n        text: rm -r deletes a whole folder, with no bin to restore it from.\n      - kind: tip",
		"    callouts:\n      - kind: instructor\n        text: Keep two minutes for questions.\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("saved lesson lacks %q:\n%s", want, got)
		}
	}
	keptInOrder(t, calloutsSrc, got, "a caution about rm -r", "one instructor note")
	// Nothing is pending now: the author's callouts stay as written.
	if _, err := s.Dispatch(t.Context(), lesson.AddCallout{ID: "rm-safely", Kind: "tip", Text: "More."}); err == nil {
		t.Error("a callout was added to the author's filled list")
	}
	for _, in := range []lesson.AddCallout{
		{ID: "wrap-up", Kind: "warning", Text: "x"},
		{ID: "wrap-up", Kind: "tip", Text: "  "},
		{ID: "wrap-up", Kind: "tip", Text: "x", Show: "board"},
		{ID: "nowhere", Kind: "tip", Text: "x"},
	} {
		var se *session.Error
		if _, err := s.Dispatch(t.Context(), in); !errors.As(err, &se) {
			t.Errorf("%+v: %v", in, err)
		}
	}
}

func TestBadCalloutsAreReportedWhereTheyAre(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{"kind: instructor", "kind: warning", "lesson.yaml:8:16: slide \"rm-safely\" (1).callouts[0].kind must be one of instructor, callout, caution, tip, got \"warning\""},
		{"        show: slide", "        show: board", "lesson.yaml:12:15: slide \"rm-safely\" (1).callouts[2].show must be slide"},
		{"text: Type the command, do not paste it.", "txt: Type", "lesson.yaml:10:9: slide \"rm-safely\" (1).callouts[2] is missing the required key \"text\""},
	} {
		dir := writeFiles(t, map[string]string{"lesson.yaml": strings.Replace(calloutsSrc, tc.from, tc.to, 1)})
		_, err := compose.Load(filepath.Join(dir, "lesson.yaml"), testRegistry())
		var ps yamlsrc.Problems
		if !errors.As(err, &ps) || !strings.Contains(strings.ReplaceAll(err.Error(), dir+"/", ""), tc.want) {
			t.Errorf("%s → %s: %v, want %q", tc.from, tc.to, err, tc.want)
		}
	}
}

func TestCalloutsAreDrawnForTheTeacherOrOnTheSlide(t *testing.T) {
	d := load(t, calloutsSrc)
	pages := plan(d).Pages()
	head, notes := pages[0].Head, pages[0].Notes
	if !strings.Contains(head, `<aside class="callout callout-tip"><strong>Tip:</strong> Type the command, do not paste it.</aside>`) || strings.Contains(head, "Pause here") {
		t.Errorf("on the slide: %s", head)
	}
	if !strings.Contains(notes, `class="callout callout-instructor"`) || !strings.Contains(notes, "Pause here") || strings.Contains(notes, "Type the command") {
		t.Errorf("the teacher's: %s", notes)
	}
	if !strings.Contains(notes, "pending callouts: a caution about rm -r") {
		t.Errorf("the placeholder is not shown: %s", notes)
	}
	deck := plan(d).SlidePages()
	if len(deck[0].Callouts) != 1 || deck[0].Callouts[0].Runs[1].Text != "Type the command, do not paste it." {
		t.Errorf("deck callouts on the slide: %+v", deck[0].Callouts)
	}
	var inNotes string
	for _, p := range deck[0].Notes {
		for _, r := range p.Runs {
			inNotes += r.Text
		}
	}
	if !strings.Contains(inNotes, "Instructor: Pause here") || strings.Contains(inNotes, "Type the command") {
		t.Errorf("deck notes: %s", inNotes)
	}
}
