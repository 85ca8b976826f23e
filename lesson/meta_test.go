package lesson_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/lessontest"
	"github.com/lessongen/lessongen/internal/sessiontest"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/session"
)

// metaSrc carries every new metadata field, in block and flow style,
// with comments, and each kind of pending spot: a value, a list, a list
// placeholder, a section's outcome and minutes.
const metaSrc = `version: 1
metadata:
  title: Why did the Romans leave Britain?
  duration_minutes: 30
  outcome: !pending "an I can statement"   # the lesson's one outcome
  key_questions:
    - Why did the Roman army leave?
    - !pending "one more question a pupil would ask"
  licence: CC BY 4.0
  attribution: {text: "Adapted from Oak National Academy", url: "https://example.org/oak"}
  sections:
    - {name: "Why did they leave?", outcome: I can give two reasons., duration_minutes: 15}
    - name: What changed?
      outcome: !pending
      duration_minutes: !pending "what is left"
slides:
  - {id: why, title: Why, section: "Why did they leave?", duration_minutes: 15}
  - {id: after, title: After, section: "What changed?", duration_minutes: 15}
`

func TestMetaLoadsAndRoundTrips(t *testing.T) {
	d := load(t, metaSrc)
	m := plan(d).Metadata
	if !m.Outcome.Pending || m.Outcome.Hint != "an I can statement" {
		t.Errorf("outcome = %+v", m.Outcome)
	}
	if got := lesson.Texts(m.KeyQuestions.Value); len(got) != 1 || got[0] != "Why did the Roman army leave?" {
		t.Errorf("key questions = %q", got)
	}
	if m.Licence.Value != "CC BY 4.0" || m.Attribution.Value.URL != "https://example.org/oak" || m.Attribution.Value.Text != "Adapted from Oak National Academy" {
		t.Errorf("licence %q, attribution %+v", m.Licence.Value, m.Attribution.Value)
	}
	secs := m.Sections.Value
	if len(secs) != 2 || secs[0].Name != "Why did they leave?" || secs[0].DurationMinutes.Value != 15 || !secs[1].Outcome.Pending || secs[1].DurationMinutes.Hint != "what is left" {
		t.Errorf("sections = %+v", secs)
	}
	var paths []string
	for _, p := range plan(d).Pending() {
		paths = append(paths, p.Path)
	}
	want := "metadata.outcome metadata.key_questions[1] metadata.sections[What changed?].outcome metadata.sections[What changed?].duration_minutes"
	if got := strings.Join(paths, " "); got != want {
		t.Errorf("pending = %s\nwant %s", got, want)
	}
	if files, err := d.Render(""); err != nil || len(files) != 0 {
		t.Fatalf("an unchanged lesson writes %d files (err %v)", len(files), err)
	}
	files, err := d.Render(filepath.Join(t.TempDir(), "copy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(files[len(files)-1].Data); got != metaSrc {
		t.Errorf("copy differs:\n%s", got)
	}
}

// Filling every pending spot through the new tools changes those spots
// only; every other byte stays, and the saved lesson loads again.
func TestMetaToolsFillOnlyPendingSpots(t *testing.T) {
	d := load(t, metaSrc)
	s := d.Session()
	apply(t, d, s, lesson.SetOutcome{Outcome: " I can explain why the Romans left Britain. "})
	apply(t, d, s, lesson.SetKeyQuestions{PendingID: "key_questions-1", Questions: lesson.Items("What did the Romans leave behind?")})
	res := apply(t, d, s, lesson.FillSection{Name: "what changed", Outcome: ptr("I can name two things that changed."), DurationMinutes: ptr(15)})
	wantOutputs(t, res, lesson.Set{Field: "sections[What changed?]", Value: lesson.SectionArg{Name: "What changed?", Outcome: "I can name two things that changed.", DurationMinutes: 15}})
	want := strings.NewReplacer(
		`outcome: !pending "an I can statement"`, "outcome: I can explain why the Romans left Britain.",
		`- !pending "one more question a pupil would ask"`, "- What did the Romans leave behind?",
		"outcome: !pending\n", "outcome: I can name two things that changed.\n",
		`duration_minutes: !pending "what is left"`, "duration_minutes: 15",
	).Replace(metaSrc)
	if got := rendered(t, d)[d.Path]; got != want {
		t.Errorf("saved:\n%s\nwant:\n%s", got, want)
	}
	if p := plan(d).Pending(); len(p) != 0 {
		t.Errorf("still pending: %+v", p)
	}
	if got := plan(reload(t, d)).Metadata.Sections.Value[1].Outcome.Value; got != "I can name two things that changed." {
		t.Errorf("reloaded outcome %q", got)
	}
}

func TestMetaToolsReject(t *testing.T) {
	pendingAll := "version: 1\nmetadata:\n  title: T\n  duration_minutes: 30\n  licence: !pending\n  attribution: !pending\n  sections: !pending\nslides:\n  - {id: a, title: A, section: Start, duration_minutes: 30}\n"
	tests := []struct {
		name string
		src  string
		in   session.Intent
		kind session.ErrorKind
		path string
		hint string
	}{
		{"an authored outcome", strings.Replace(metaSrc, `!pending "an I can statement"`, "I can.", 1), lesson.SetOutcome{Outcome: "x"}, session.KindPrecondition, "outcome", "the author wrote it"},
		{"an authored section outcome", metaSrc, lesson.FillSection{Name: "Why did they leave?", Outcome: ptr("x")}, session.KindPrecondition, "outcome", "the author wrote it"},
		{"an unknown section", metaSrc, lesson.FillSection{Name: "What changd?", Outcome: ptr("x")}, session.KindNotFound, "name", `"Why did they leave?", "What changed?"`},
		{"a licence off the list", pendingAll, lesson.SetLicence{Licence: "CC-BY-4.1"}, session.KindInvalidArgs, "licence", "SPDX id"},
		{"a bad link", pendingAll, lesson.SetAttribution{Text: "Oak", URL: "oak.org"}, session.KindInvalidArgs, "url", "omit url"},
		{"sections leaving a slide's out", pendingAll, lesson.SetSections{Sections: []lesson.SectionArg{{Name: "Begin", Outcome: "o", DurationMinutes: 30}}}, session.KindPrecondition, "sections", `"Start"`},
		{"a section named twice", pendingAll, lesson.SetSections{Sections: []lesson.SectionArg{{Name: "Start", Outcome: "o", DurationMinutes: 10}, {Name: "start", Outcome: "o", DurationMinutes: 20}}}, session.KindInvalidArgs, "sections[1].name", "its own name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := load(t, tt.src)
			sessiontest.Rejected(t, d.Session(), tt.in, tt.kind, tt.path, tt.hint, observe(t, d))
		})
	}
}

// A model fills whole pending values too: the licence is stored as its
// SPDX id, and a slide added later must name a declared section.
func TestMetaToolsSetWholeValues(t *testing.T) {
	src := "version: 1\nmetadata:\n  title: T\n  duration_minutes: 30\n  licence: !pending\n  attribution: !pending\n  sections: !pending\nslides:\n  - {id: a, title: A, section: Start, duration_minutes: 30}\n"
	d := load(t, src)
	s := d.Session()
	apply(t, d, s, lesson.SetLicence{Licence: "cc by-nc-sa 4.0"})
	apply(t, d, s, lesson.SetAttribution{Text: "OpenStax Statistics", URL: "https://openstax.org/details/books/statistics"})
	apply(t, d, s, lesson.SetSections{Sections: []lesson.SectionArg{{Name: "Start", Outcome: "I can read a histogram.", DurationMinutes: 30}}})
	got := rendered(t, d)[d.Path]
	for _, want := range []string{"licence: CC-BY-NC-SA-4.0\n", "url: https://openstax.org/details/books/statistics", "- name: Start\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("saved lacks %q:\n%s", want, got)
		}
	}
	_, err := s.Dispatch(context.Background(), lesson.AddSlide{Title: "More", Section: "Strat", DurationMinutes: 5, Briefs: map[string]string{"whiteboard": "x"}})
	if e, ok := session.AsError(err); !ok || e.Path != "section" || !strings.Contains(e.Message, `did you mean "Start"?`) {
		t.Errorf("add_slide with an undeclared section: %v", err)
	}
	reload(t, d)
}

// Each problem of the new fields is named at its file:line:col.
func TestMetaErrors(t *testing.T) {
	base := "version: 1\nmetadata:\n  title: T\n"
	tests := []struct{ name, meta, slides, want string }{
		{"a slide's undeclared section", "  sections: [{name: Start, duration_minutes: 10}]\n", "  - {id: a, title: A, section: Strat}\n",
			`lesson.yaml:6:32: slide "a" (1).section "Strat" is not one of metadata.sections ("Start"); did you mean "Start"?`},
		{"a section named twice", "  sections:\n    - {name: A}\n    - {name: A}\n", "",
			`lesson.yaml:6:14: metadata.sections[1].name "A" is used by metadata.sections[0] too`},
		{"a section's unknown key", "  sections: [{name: A, minutes: 5}]\n", "",
			`lesson.yaml:4:24: unknown key "minutes" in metadata.sections[0]`},
		{"a section without a name", "  sections: [{outcome: x}]\n", "",
			`lesson.yaml:4:14: metadata.sections[0] is missing the required key "name"`},
		{"a link that is no link", "  attribution: {text: Oak, url: oak.org}\n", "",
			"lesson.yaml:4:33: metadata.attribution.url must be a web address"},
		{"an attribution list", "  attribution: [Oak]\n", "",
			"lesson.yaml:4:16: metadata.attribution must be text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := base + tt.meta + "slides:\n" + tt.slides
			if tt.slides == "" {
				src += "  []\n"
			}
			dir := lessontest.WriteFiles(t, map[string]string{"lesson.yaml": src})
			_, err := compose.Load(filepath.Join(dir, "lesson.yaml"), testRegistry())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v\nwant %s", err, tt.want)
			}
		})
	}
}

// A licence off the SPDX list is a warning, not an error; one on it is
// neither, spelt as people write it.
func TestLicenceWarning(t *testing.T) {
	for _, tt := range []struct{ licence, want string }{
		{"CC BY 4.0", ""},
		{"MIT", ""},
		{"CC-BY-NC-SA-4.0", ""},
		{"Apache-2.0 OR MIT", ""},
		{"CC-BY-4.1", `did you mean "CC-BY-4.0"?`},
		{"All rights reserved", "is not an SPDX licence id"},
	} {
		src := "version: 1\nmetadata:\n  title: T\n  licence: " + tt.licence + "\nslides: []\n"
		s, err := yamlsrc.Parse("lesson.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		r := &yamlsrc.Reporter{File: "lesson.yaml"}
		lesson.Decode(s.Root, r, nil, nil)
		if err := r.Problems.Err(); err != nil {
			t.Errorf("%s: an error: %v", tt.licence, err)
		}
		var got []string
		for _, w := range r.Problems.Warnings() {
			got = append(got, w.String())
		}
		switch {
		case tt.want == "" && len(got) > 0:
			t.Errorf("%s: warnings %q", tt.licence, got)
		case tt.want != "" && (len(got) != 1 || !strings.Contains(got[0], tt.want) || !strings.HasPrefix(got[0], "lesson.yaml:4:12: warning")):
			t.Errorf("%s: warnings %q, want one at 4:12 containing %q", tt.licence, got, tt.want)
		}
	}
}

// Sections' minutes add up to their slides' and to the lesson's: a
// disagreement is a warning at the minutes, and a defect a subagent hears.
func TestSectionMinutesAddUp(t *testing.T) {
	head := "version: 1\nmetadata:\n  title: T\n  duration_minutes: 30\n  sections:\n    - {name: A, duration_minutes: 10}\n    - {name: B, duration_minutes: %s}\nslides:\n"
	tests := []struct{ name, b, slides, want string }{
		{"agree", "20", "  - {id: x, title: X, section: A, duration_minutes: 10}\n  - {id: y, title: Y, section: B, duration_minutes: 20}\n", ""},
		{"a section's slides over", "20", "  - {id: x, title: X, section: A, duration_minutes: 15}\n  - {id: y, title: Y, section: B, duration_minutes: 20}\n",
			`lesson.yaml:6:35: warning: metadata.sections[0].duration_minutes: the slides of section "A" take 15 minutes, 5 more than the section's 10`},
		{"sections short of the lesson", "10", "  - {id: x, title: X, section: A, duration_minutes: 10}\n  - {id: y, title: Y, section: B, duration_minutes: 10}\n",
			"warning: metadata.sections: the sections take 20 minutes, 10 fewer than the lesson's 30"},
		{"a slide still pending", "20", "  - {id: x, title: X, section: A, duration_minutes: 10}\n  - !pending more\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.Replace(head, "%s", tt.b, 1) + tt.slides
			s, err := yamlsrc.Parse("lesson.yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			r := &yamlsrc.Reporter{File: "lesson.yaml"}
			p := lesson.Decode(s.Root, r, nil, nil)
			var got []string
			for _, w := range r.Problems.Warnings() {
				if !strings.Contains(w.String(), "metadata.duration_minutes: the slides take") {
					got = append(got, w.String())
				}
			}
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("warnings %q", got)
			case tt.want != "" && (len(got) != 1 || !strings.Contains(got[0], tt.want)):
				t.Errorf("warnings %q, want one containing %q", got, tt.want)
			}
			if tt.want != "" && len(p.Defects()) == 0 {
				t.Errorf("no defect for the subagent")
			}
		})
	}
}

// An attribution written as text alone, and sections in block style with
// comments, come back byte for byte.
func TestMetaBareShapesRoundTrip(t *testing.T) {
	src := "version: 1\nmetadata:\n  title: T\n  licence: MIT   # the Oak repository's\n  attribution: Adapted from Oak National Academy\n  sections:\n    # first cycle\n    - name: Start\n      duration_minutes: 5   # short\n  key_questions: []\nslides: []\n"
	d := load(t, src)
	if a := plan(d).Metadata.Attribution.Value; a.Text != "Adapted from Oak National Academy" || a.URL != "" {
		t.Errorf("attribution = %+v", a)
	}
	files, err := d.Render(filepath.Join(t.TempDir(), "copy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(files[len(files)-1].Data); got != src {
		t.Errorf("copy differs:\n%s", got)
	}
}

func BenchmarkLicenceID(b *testing.B) {
	for b.Loop() {
		lesson.LicenceID("CC BY-NC-SA 4.0")
	}
}
