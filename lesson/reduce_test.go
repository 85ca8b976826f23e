package lesson_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/clip"

	"github.com/lessongen/lessongen/internal/sessiontest"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/session"
)

// A lesson without placeholders, for adds by position.
const plainSrc = `version: 1
metadata:
  title: Plain
slides:
  - id: a
    title: A
  - id: b
    title: B
`

func TestIntentsReduce(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		setup []session.Intent
		in    session.Intent
		check func(t *testing.T, p *lesson.Plan, res session.Result, saved string)
	}{
		{
			name: "SetTitle trims and fills a pending title",
			src:  "version: 1\nmetadata:\n  title: !pending \"short\"   # keep\nslides: []\n",
			in:   lesson.SetTitle{Title: " Adding unlike fractions "},
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				wantOutputs(t, res, lesson.Set{Field: "title", Value: "Adding unlike fractions"})
				if !strings.Contains(saved, "  title: Adding unlike fractions   # keep\n") {
					t.Errorf("saved:\n%s", saved)
				}
			},
		},
		{
			name:  "SetSubject again after generation",
			setup: []session.Intent{lesson.SetSubject{Subject: "maths"}},
			in:    lesson.SetSubject{Subject: "math"},
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				if v := p.Metadata.Subject.Value; v != "math" {
					t.Errorf("subject = %q", v)
				}
			},
		},
		{
			name: "SetSubject fills a tagged pending value",
			in:   lesson.SetSubject{Subject: "math"},
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				if v, ok := p.Metadata.Subject.Get(); !ok || v != "math" {
					t.Errorf("subject = %+v", p.Metadata.Subject)
				}
				if !strings.Contains(saved, "  subject: math\n") {
					t.Errorf("saved:\n%s", saved)
				}
			},
		},
		{
			name: "SetGrade fills a null value",
			in:   lesson.SetGrade{Grade: "4"},
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				if !strings.Contains(saved, "  grade: \"4\"\n") {
					t.Errorf("a numeric-looking grade must stay text when saved:\n%s", saved)
				}
			},
		},
		{
			name: "SetDuration",
			in:   lesson.SetDuration{Minutes: 45},
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				wantOutputs(t, res, lesson.Set{Field: "duration_minutes", Value: 45})
				if !strings.Contains(saved, "  duration_minutes: 45\n") {
					t.Errorf("saved:\n%s", saved)
				}
			},
		},
		{
			name: "SetLanguage",
			in:   lesson.SetLanguage{Language: "en"},
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				if p.Metadata.Language.Value != "en" {
					t.Errorf("language = %+v", p.Metadata.Language)
				}
			},
		},
		{
			name: "SetObjectives drops blank items",
			in:   lesson.SetObjectives{Objectives: lesson.Items(" Add fractions with like denominators ", "  ", "Explain why denominators stay")},
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				want := lesson.Items("Add fractions with like denominators", "Explain why denominators stay")
				wantOutputs(t, res, lesson.Set{Field: "objectives", Value: want})
				if !strings.Contains(saved, "  objectives:   # two or three\n    - Add fractions with like denominators\n    - Explain why denominators stay\n") {
					t.Errorf("saved:\n%s", saved)
				}
			},
		},
		{
			name: "SetVocabulary trims terms",
			in:   lesson.SetVocabulary{Terms: []lesson.Term{{Term: " numerator ", Definition: "the top number "}}},
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				if got := p.Metadata.Vocabulary.Value; !reflect.DeepEqual(got, []lesson.Term{{Term: "numerator", Definition: "the top number"}}) {
					t.Errorf("vocabulary = %+v", got)
				}
			},
		},
		{
			name: "SetPrerequisites",
			in:   lesson.SetPrerequisites{Prerequisites: []string{"What a fraction is"}},
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				if !slices.Equal(p.Metadata.Prerequisites.Value, []string{"What a fraction is"}) {
					t.Errorf("prerequisites = %+v", p.Metadata.Prerequisites)
				}
			},
		},
		{
			name: "SetStandards",
			in:   lesson.SetStandards{Standards: []string{"4.NF.B.3"}},
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				if !strings.Contains(saved, "  standards:\n    - 4.NF.B.3\n") {
					t.Errorf("saved:\n%s", saved)
				}
			},
		},
		{
			name: "AddSlide fills the named placeholder",
			in: func() session.Intent {
				in := practice("Practice one")
				in.PendingID = "p1"
				return in
			}(),
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				wantOutputs(t, res, lesson.SlideAdded{ID: "practice-one", Position: 2, PendingID: "p1"})
				if ids := p.SlideIDs(); !slices.Equal(ids, []string{"intro", "practice-one", "wrap", "recap"}) {
					t.Errorf("slides = %v", ids)
				}
				s, _ := p.Slide("practice-one")
				wb, _ := s.Children.Get("whiteboard")
				if s.Title.Value != "Practice one" || s.Section.Value != "Explore" || s.DurationMinutes.Value != 10 || s.Notes.Value != "Work in pairs." ||
					!wb.Pending || wb.Hint != "three fraction bars" {
					t.Errorf("added %+v", s)
				}
				// The new slide goes in before the placeholder, which stays
				// until the node is closed.
				if !strings.Contains(saved, "  - id: practice-one\n") || strings.Index(saved, "id: practice-one") > strings.Index(saved, `!pending "two practice slides"`) {
					t.Errorf("saved:\n%s", saved)
				}
			},
		},
		{
			name: "AddSlide without pending_id fills the only placeholder",
			in:   practice("Practice one"),
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				wantOutputs(t, res, lesson.SlideAdded{ID: "practice-one", Position: 2, PendingID: "p1"})
			},
		},
		{
			name: "AddSlide at a position",
			src:  plainSrc,
			in: func() session.Intent {
				in := practice("First")
				in.Position = 1
				return in
			}(),
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				wantOutputs(t, res, lesson.SlideAdded{ID: "first", Position: 1})
				if ids := p.SlideIDs(); !slices.Equal(ids, []string{"first", "a", "b"}) {
					t.Errorf("slides = %v", ids)
				}
			},
		},
		{
			name: "AddSlide at the end",
			src:  plainSrc,
			in:   practice("Last"),
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				wantOutputs(t, res, lesson.SlideAdded{ID: "last", Position: 3})
				if !strings.HasSuffix(saved, "    title: B\n  - id: last\n    title: Last\n    section: Explore\n    duration_minutes: 10\n    notes: Work in pairs.\n    whiteboard: !pending \"three fraction bars\"\n") {
					t.Errorf("saved:\n%s", saved)
				}
			},
		},
		{
			name: "AddSlide into a whole pending list",
			src:  "version: 1\nmetadata:\n  title: T\nslides: !pending \"five slides\"\n",
			in:   practice("Opening"),
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				wantOutputs(t, res, lesson.SlideAdded{ID: "opening", Position: 1, PendingID: "p1"})
				if !strings.HasSuffix(saved, "slides:\n  - id: opening\n    title: Opening\n    section: Explore\n    duration_minutes: 10\n    notes: Work in pairs.\n    generated_for: five slides\n    whiteboard: !pending \"three fraction bars\"\n  - !pending \"five slides\"\n") {
					t.Errorf("saved:\n%s", saved)
				}
			},
		},
		{
			name: "UpdateSlide fills an authored slide's pending notes",
			in:   lesson.UpdateSlide{ID: "intro", Notes: ptr("Ask: how do you share 3 pizzas among 8?")},
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				wantOutputs(t, res, lesson.SlideChanged{ID: "intro", Fields: []string{"notes"}})
				if !strings.Contains(saved, "    notes: 'Ask: how do you share 3 pizzas among 8?'\n") {
					t.Errorf("saved:\n%s", saved)
				}
			},
		},
		{
			name: "UpdateSlide fills an authored slide's pending section",
			in:   lesson.UpdateSlide{ID: "wrap", Section: ptr("Evaluate")},
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				if s, _ := p.Slide("wrap"); s.Section.Value != "Evaluate" {
					t.Errorf("section = %+v", s.Section)
				}
			},
		},
		{
			name:  "UpdateSlide changes a generated slide",
			setup: []session.Intent{practice("Practice one")},
			in:    lesson.UpdateSlide{ID: "practice-one", Title: ptr("Practice: like denominators"), DurationMinutes: ptr(12)},
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				wantOutputs(t, res, lesson.SlideChanged{ID: "practice-one", Fields: []string{"title", "duration_minutes"}})
				// The id stays; only the title changes.
				if s, ok := p.Slide("practice-one"); !ok || s.Title.Value != "Practice: like denominators" || s.DurationMinutes.Value != 12 {
					t.Errorf("slide = %+v", s)
				}
			},
		},
		{
			name:  "MoveSlide",
			setup: []session.Intent{practice("Practice one")},
			in:    lesson.MoveSlide{ID: "practice-one", Position: 4},
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				wantOutputs(t, res, lesson.SlideMoved{ID: "practice-one", Position: 4})
				if ids := p.SlideIDs(); !slices.Equal(ids, []string{"intro", "wrap", "recap", "practice-one"}) {
					t.Errorf("slides = %v", ids)
				}
				if pos, n := p.Position("practice-one"); pos != 4 || n != 4 {
					t.Errorf("position %d of %d", pos, n)
				}
			},
		},
		{
			name:  "MoveSlide to the front",
			setup: []session.Intent{practice("Practice one")},
			in:    lesson.MoveSlide{ID: "practice-one", Position: 1},
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				if ids := p.SlideIDs(); !slices.Equal(ids, []string{"practice-one", "intro", "wrap", "recap"}) {
					t.Errorf("slides = %v", ids)
				}
			},
		},
		{
			name:  "RemoveSlide",
			setup: []session.Intent{practice("Practice one"), practice("Practice two")},
			in:    lesson.RemoveSlide{ID: "practice-one"},
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				wantOutputs(t, res, lesson.SlideRemoved{ID: "practice-one"})
				if ids := p.SlideIDs(); !slices.Equal(ids, []string{"intro", "practice-two", "wrap", "recap"}) {
					t.Errorf("slides = %v", ids)
				}
				if _, ok := p.Slide("practice-one"); ok {
					t.Error("removed slide still indexed")
				}
			},
		},
		{
			name: "SetSlideProps",
			in:   lesson.SetSlideProps{ID: "intro", Props: map[string]string{"layout": "{{ .slide.section }} layout"}},
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				got, err := p.Bindings("intro")
				if err != nil || !reflect.DeepEqual(got, map[string]string{"layout": "Engage layout"}) {
					t.Errorf("bindings = %v, %v", got, err)
				}
				if !strings.Contains(saved, "    props:\n      layout: '{{ .slide.section }} layout'\n") {
					t.Errorf("saved:\n%s", saved)
				}
			},
		},
		{
			name:  "ClosePlaceholders",
			setup: []session.Intent{practice("Practice one")},
			in:    lesson.ClosePlaceholders{},
			check: func(t *testing.T, p *lesson.Plan, res session.Result, saved string) {
				wantOutputs(t, res, lesson.Closed{Placeholders: []string{"p1"}})
				if strings.Contains(saved, "two practice slides") || strings.Contains(p.Outline(), "placeholder") {
					t.Errorf("placeholder not closed:\n%s\n%s", saved, p.Outline())
				}
				// The comment above the placeholder stays.
				if !strings.Contains(saved, "# generated practice goes here") {
					t.Errorf("saved:\n%s", saved)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d *compose.Document
			if tt.src == "" {
				d = loadFractions(t)
			} else {
				d = load(t, tt.src)
			}
			s := d.Session()
			for _, in := range tt.setup {
				dispatch(t, s, in)
			}
			res := apply(t, d, s, tt.in)
			tt.check(t, plan(d), res, rendered(t, d)[d.Path])
			reload(t, d)
		})
	}
}

type foreign struct{}

func (foreign) Spec() session.Spec { return session.Spec{} }

func TestIntentsReject(t *testing.T) {
	setup := []session.Intent{practice("Practice one")} // a generated slide
	tests := []struct {
		name string
		in   session.Intent
		kind session.ErrorKind
		path string
		hint string
	}{
		{"authored title", lesson.SetTitle{Title: "New"}, session.KindPrecondition, "title", "the author wrote it"},
		{"empty subject", lesson.SetSubject{Subject: " "}, session.KindInvalidArgs, "subject", "non-empty"},
		{"empty grade", lesson.SetGrade{}, session.KindInvalidArgs, "grade", "non-empty"},
		{"empty language", lesson.SetLanguage{}, session.KindInvalidArgs, "language", "non-empty"},
		{"short lesson", lesson.SetDuration{Minutes: 4}, session.KindInvalidArgs, "minutes", "between 5 and 600"},
		{"long lesson", lesson.SetDuration{Minutes: 601}, session.KindInvalidArgs, "minutes", "between 5 and 600"},
		{"no objectives", lesson.SetObjectives{Objectives: lesson.Items(" ", "")}, session.KindInvalidArgs, "objectives", "between 1 and 8"},
		{"too many objectives", lesson.SetObjectives{Objectives: lesson.Items(strings.Split("a b c d e f g h i", " ")...)}, session.KindInvalidArgs, "objectives", "between 1 and 8"},
		{"too many prerequisites", lesson.SetPrerequisites{Prerequisites: strings.Split("a b c d e f g h i j k", " ")}, session.KindInvalidArgs, "prerequisites", "between 1 and 10"},
		{"no standards", lesson.SetStandards{}, session.KindInvalidArgs, "standards", "between 1 and 10"},
		{"no terms", lesson.SetVocabulary{}, session.KindInvalidArgs, "terms", "between 1 and 20"},
		{"incomplete term", lesson.SetVocabulary{Terms: []lesson.Term{{Term: "a", Definition: "b"}, {Term: "c"}}}, session.KindInvalidArgs, "terms[1]", "a word and a definition"},
		{"slide without title", lesson.AddSlide{Briefs: map[string]string{"whiteboard": "w"}, DurationMinutes: 5}, session.KindInvalidArgs, "title", "give the slide a title"},
		{"slide without whiteboard brief", lesson.AddSlide{Title: "t", DurationMinutes: 5}, session.KindInvalidArgs, "whiteboard", "what the whiteboard should show"},
		{"slide without duration", lesson.AddSlide{Title: "t", Briefs: map[string]string{"whiteboard": "w"}}, session.KindInvalidArgs, "duration_minutes", "between 1 and 120"},
		{"slide at an unknown placeholder", lesson.AddSlide{Title: "t", Briefs: map[string]string{"whiteboard": "w"}, DurationMinutes: 5, PendingID: "p9"}, session.KindNotFound, "pending_id", "open placeholders: p1"},
		{"update unknown", lesson.UpdateSlide{ID: "nope", Notes: ptr("x")}, session.KindNotFound, "id", "slide ids: intro, practice-one, wrap, recap"},
		{"update authored title", lesson.UpdateSlide{ID: "intro", Title: ptr("x")}, session.KindPrecondition, "title", "only the author's pending fields"},
		{"update authored duration", lesson.UpdateSlide{ID: "intro", DurationMinutes: ptr(3)}, session.KindPrecondition, "duration_minutes", "only the author's pending fields"},
		// The pending notes would be filled, the written title is refused: neither changes.
		{"update half authored", lesson.UpdateSlide{ID: "intro", Notes: ptr("ok"), Section: ptr("x")}, session.KindPrecondition, "section", "only the author's pending fields"},
		{"update to empty", lesson.UpdateSlide{ID: "practice-one", Notes: ptr(" ")}, session.KindInvalidArgs, "notes", "non-empty"},
		{"update duration out of range", lesson.UpdateSlide{ID: "practice-one", Title: ptr("ok"), DurationMinutes: ptr(121)}, session.KindInvalidArgs, "duration_minutes", "between 1 and 120"},
		{"update nothing", lesson.UpdateSlide{ID: "practice-one"}, session.KindInvalidArgs, "", "set at least one"},
		{"move authored", lesson.MoveSlide{ID: "intro", Position: 2}, session.KindPrecondition, "id", "the author's slides stay as written"},
		{"move past the end", lesson.MoveSlide{ID: "practice-one", Position: 5}, session.KindInvalidArgs, "position", "between 1 and 4"},
		{"move to zero", lesson.MoveSlide{ID: "practice-one", Position: 0}, session.KindInvalidArgs, "position", "between 1 and 4"},
		{"move unknown", lesson.MoveSlide{ID: "nope", Position: 1}, session.KindNotFound, "id", "slide ids:"},
		{"remove authored", lesson.RemoveSlide{ID: "wrap"}, session.KindPrecondition, "id", "add new slides instead"},
		{"remove unknown", lesson.RemoveSlide{ID: "nope"}, session.KindNotFound, "id", "slide ids:"},
		{"props of an unknown slide", lesson.SetSlideProps{ID: "nope"}, session.KindNotFound, "id", "slide ids:"},
		{"props that do not parse", lesson.SetSlideProps{ID: "intro", Props: map[string]string{"heading": "{{ .lesson.title"}}, session.KindInvalidArgs, "props", "Go templates"},
		{"props of no property", lesson.SetSlideProps{ID: "intro", Props: map[string]string{"colour": "red"}}, session.KindInvalidArgs, "props", "Go templates"},
		{"foreign intent", foreign{}, session.KindInvalidArgs, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := loadFractions(t)
			s := d.Session()
			for _, in := range setup {
				dispatch(t, s, in)
			}
			sessiontest.Rejected(t, s, tt.in, tt.kind, tt.path, tt.hint, observe(t, d))
		})
	}
}

func TestUnprotectedPlanEditsAuthoredSlides(t *testing.T) {
	d := loadFractions(t)
	plan(d).Protect = false
	s := d.Session()
	apply(t, d, s, lesson.UpdateSlide{ID: "intro", Title: ptr("Sharing pizza")})
	apply(t, d, s, lesson.MoveSlide{ID: "intro", Position: 3})
	apply(t, d, s, lesson.RemoveSlide{ID: "wrap"})
	if ids := plan(d).SlideIDs(); !slices.Equal(ids, []string{"recap", "intro"}) {
		t.Errorf("slides = %v", ids)
	}
}

func TestSlideIDsFromTitles(t *testing.T) {
	d := load(t, plainSrc)
	s := d.Session()
	tests := []struct{ title, want string }{
		{"Light reactions", "light-reactions"},
		{"Light reactions", "light-reactions-2"},
		{"  Light   Reactions!! ", "light-reactions-3"},
		{"The Calvin cycle: where sugar is made", "the-calvin-cycle-where-sugar-is"},
		{"¿¡", "slide"},
		{"?", "slide-2"},
		{"A", "a-2"}, // "a" is an authored slide's id
		{"Café au lait", "caf-au-lait"},
	}
	for _, tt := range tests {
		res := dispatch(t, s, lesson.AddSlide{Title: tt.title, DurationMinutes: 1, Briefs: map[string]string{"whiteboard": "w"}})
		if got := res.Outputs[0].(lesson.SlideAdded).ID; got != tt.want {
			t.Errorf("title %q: id %q, want %q", tt.title, got, tt.want)
		}
	}
	// Every generated id is a valid one: the saved file loads again.
	reload(t, d)
}

func TestLookup(t *testing.T) {
	d := loadFractions(t)
	p := plan(d)
	tests := []struct {
		ref, want, err string
	}{
		{ref: "wrap", want: "wrap"},
		{ref: "1", want: "intro"},
		// The placeholder between intro and wrap is not a slide.
		{ref: "2", want: "wrap"},
		{ref: "3", want: "recap"},
		{ref: "0", err: "no slide at position 0; the lesson has 3 slides"},
		{ref: "4", err: "no slide at position 4; the lesson has 3 slides"},
		{ref: "02", err: `no slide "02"; slides are intro, wrap, recap`},
		{ref: "nope", err: `no slide "nope"; slides are intro, wrap, recap`},
	}
	for _, tt := range tests {
		s, err := p.Lookup(tt.ref)
		switch {
		case tt.err != "":
			if err == nil || err.Error() != tt.err {
				t.Errorf("Lookup(%q) error = %v, want %q", tt.ref, err, tt.err)
			}
		case err != nil:
			t.Errorf("Lookup(%q): %v", tt.ref, err)
		case s.ID != tt.want:
			t.Errorf("Lookup(%q) = %s, want %s", tt.ref, s.ID, tt.want)
		}
	}
	// An id that looks like a number is an id first.
	d = load(t, "version: 1\nmetadata:\n  title: T\nslides:\n  - {id: a, title: A}\n  - {id: \"1\", title: One}\n")
	if s, err := plan(d).Lookup("1"); err != nil || s.ID != "1" {
		t.Errorf("Lookup(\"1\") = %v, %v; want the slide with id 1", s, err)
	}
}

func TestReadOnlyIntentsReport(t *testing.T) {
	d := loadFractions(t)
	s := d.Session()
	p := plan(d)
	res := dispatch(t, s, lesson.DescribeLesson{})
	wantOutputs(t, res, p.Describe()+"\n"+p.Outline())
	res = dispatch(t, s, lesson.ListPending{})
	wantOutputs(t, res, p.Pending())
	if s.Version() != 0 {
		t.Errorf("read-only intents committed")
	}
}

func TestPending(t *testing.T) {
	d := loadFractions(t)
	var got []string
	for _, p := range plan(d).Pending() {
		got = append(got, string(p.Level)+" "+p.Path+" "+p.Hint+" "+p.ID)
	}
	want := []string{
		"metadata metadata.subject  ",
		"metadata metadata.grade  ",
		"metadata metadata.duration_minutes about 45 ",
		"metadata metadata.language  ",
		"metadata metadata.objectives  ",
		"metadata metadata.vocabulary  ",
		"metadata metadata.prerequisites  ",
		"metadata metadata.standards CCSS codes ",
		// Node-level spots come in document order.
		"node slides[intro].notes a hook about sharing pizza ",
		"node slides[1] two practice slides p1",
		"node slides[wrap].section  ",
	}
	if !slices.Equal(got, want) {
		t.Errorf("pending:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestDescribe(t *testing.T) {
	d := loadFractions(t)
	s := d.Session()
	dispatch(t, s, lesson.SetGrade{Grade: "4"})
	dispatch(t, s, lesson.SetSubject{Subject: "math"})
	dispatch(t, s, lesson.SetDuration{Minutes: 45})
	dispatch(t, s, lesson.SetObjectives{Objectives: lesson.Items("Add like fractions.", "Explain why")})
	dispatch(t, s, practice("Practice one"))
	p := plan(d)
	want := `A grade 4 math lesson titled "Adding fractions", 45 minutes, 4 slides. Objectives: Add like fractions; Explain why.`
	if got := p.Describe(); got != want {
		t.Errorf("Describe:\n got %s\nwant %s", got, want)
	}
	outline := p.Outline()
	for _, line := range []string{
		`1. intro: "Why fractions?" [Engage] 5 min`,
		`2. practice-one: "Practice one" [Explore] 10 min`,
		"[placeholder p1, filled with 1 slide] two practice slides",
		`3. wrap: "Wrap-up"`,
		`4. recap: "Recap"`,
		// The slides subagent is told the time left, not left to add it up.
		"Minutes: 45 in total, 15 assigned to slides, 30 unassigned.",
	} {
		if !strings.Contains(outline, line) {
			t.Errorf("outline lacks %q:\n%s", line, outline)
		}
	}
	ds := p.DescribeSlide("practice-one")
	for _, part := range []string{`Slide "practice-one" (2) of 4`, `"Practice one"`, "Explore phase", "10 minutes", "Speaker notes: Work in pairs.", `Previous slide: "Why fractions?"`, `Next slide: "Wrap-up"`, "Brief for this slide's whiteboard: three fraction bars."} {
		if !strings.Contains(ds, part) {
			t.Errorf("slide description lacks %q:\n%s", part, ds)
		}
	}
	if ds := p.DescribeSlide("nope"); !strings.Contains(ds, "not in the lesson") {
		t.Errorf("unknown slide: %s", ds)
	}
	pending := load(t, "version: 1\nmetadata:\n  title:\nslides: !pending \"a few\"\n")
	if got := plan(pending).Describe() + " " + plan(pending).Outline(); !strings.Contains(got, "(title not written yet)") || !strings.Contains(got, "0 slides") || !strings.Contains(got, "the whole list is pending (placeholder p1: a few)") {
		t.Errorf("pending lesson: %s", got)
	}
}

// Every intent in the closed set is one the plan knows how to apply.
func TestEveryIntentIsHandled(t *testing.T) {
	for _, in := range lesson.Intents() {
		sp := in.Spec()
		if sp.Doc == "" || sp.Capability == "" {
			t.Errorf("%T: spec lacks a doc or capability: %+v", in, sp)
		}
		switch in.(type) {
		case session.Undo, session.Redo:
			continue
		}
		d := loadFractions(t)
		if _, err := d.Session().Dispatch(context.Background(), in); err != nil && strings.Contains(err.Error(), "cannot apply") {
			t.Errorf("%T: %v", in, err)
		}
	}
}

// The encoding of a loaded plan holds the same data as the file, so saving
// an unchanged plan splices nothing.
func TestEncodeKeepsData(t *testing.T) {
	d := loadFractions(t)
	src, err := yamlsrc.Parse("lesson.yaml", []byte(fractionsSrc))
	if err != nil {
		t.Fatal(err)
	}
	if n := yamlsrc.Encode(*plan(d)); !yamlsrc.Equal(src.Root, n) {
		out, _ := yamlsrc.Render(n, 2)
		t.Errorf("encoding changes the data:\n%s", out)
	}
}

// Removing a slide generated for a placeholder makes the placeholder owed
// again, so the node is not reported done with nothing produced.
func TestRemovingAGeneratedSlideReopensItsPlaceholder(t *testing.T) {
	d := loadFractions(t)
	s := d.Session()
	added := dispatch(t, s, practice("Practice one")).Outputs[0].(lesson.SlideAdded)
	pendingIDs := func() []string {
		var ids []string
		for _, p := range session.Owed(plan(d).Pending()) {
			if p.ID != "" {
				ids = append(ids, p.ID)
			}
		}
		return ids
	}
	if got := pendingIDs(); len(got) != 0 {
		t.Fatalf("begun placeholder still owed: %v", got)
	}
	dispatch(t, s, lesson.RemoveSlide{ID: added.ID})
	if got := pendingIDs(); !slices.Equal(got, []string{added.PendingID}) {
		t.Errorf("after removal pending placeholders = %v, want [%s]", got, added.PendingID)
	}
	dispatch(t, s, lesson.ClosePlaceholders{})
	if got := pendingIDs(); len(got) != 1 {
		t.Errorf("ClosePlaceholders closed an empty placeholder: %v", got)
	}
	dispatch(t, s, session.Undo{}) // close (a no-op)
	dispatch(t, s, session.Undo{}) // remove
	if got := pendingIDs(); len(got) != 0 {
		t.Errorf("undoing the removal should fill the placeholder again: %v", got)
	}
}

// A placeholder whose hint counts ("two practice slides") stays listed
// until that many slides fill it, showing what it holds, so a model that
// makes one call per turn is asked again; it is not owed once begun, so
// the model may still end there.
func TestPluralHintKeepsPlaceholderOpen(t *testing.T) {
	d := loadFractions(t)
	s := d.Session()
	listed := func() *session.Pending {
		for _, p := range plan(d).Pending() {
			if p.Hint == "two practice slides" {
				return &p
			}
		}
		return nil
	}
	first := dispatch(t, s, practice("Practice one")).Outputs[0].(lesson.SlideAdded)
	p := listed()
	if p == nil || !slices.Equal(p.Generated, []string{first.ID}) || len(session.Owed([]session.Pending{*p})) != 0 {
		t.Fatalf("after one of two slides: %+v, want listed with the slide generated, not owed", p)
	}
	dispatch(t, s, practice("Practice two"))
	if p := listed(); p != nil {
		t.Errorf("after two of two slides still listed: %+v", p)
	}
}

// A huge value the author wrote reaches a model only by its start, with a
// marker saying how large it is.
func TestDescribeClipsHugeValues(t *testing.T) {
	huge := strings.Repeat("word ", 1_000_000) // 5 MB
	d := load(t, "version: 1\nmetadata:\n  title: "+huge+"\nslides:\n  - id: a\n    title: A\n    notes: "+huge+"\n    whiteboard: !pending "+huge+"\n  - !pending "+huge+"\n")
	p := plan(d)
	for what, text := range map[string]string{"Describe": p.Describe(), "DescribeSlide": p.DescribeSlide("a"), "Outline": p.Outline()} {
		if !strings.Contains(text, "… [truncated, 5.0 MB]") || len(text) > 4*clip.MaxValue {
			t.Errorf("%s: %d bytes, marker %v", what, len(text), strings.Contains(text, "[truncated"))
		}
	}
}
