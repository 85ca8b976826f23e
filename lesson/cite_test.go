package lesson_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/sessiontest"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/session"
)

// citedSrc has list items in both shapes, a cited term and misconception,
// and comments that must survive a save.
const citedSrc = `version: 1
metadata:
  title: Plants
  objectives:
    - Name what plants need   # bare
    - text: Explain why leaves are green
      sources: [ch1.md:3]
  key_learning_points: !pending
  materials:
    - {text: seed trays, sources: [kit.md:2]}
  vocabulary:
    - {term: stoma, definition: a pore in a leaf, sources: [ch1.md:9-10]}
  misconceptions:
    - misconception: Plants eat soil.
      response: Weigh the soil before and after.
      sources: [ch1.md:12]
slides: []
`

func TestListItemCitationsLoadAndStay(t *testing.T) {
	d := load(t, citedSrc)
	var got []string
	for _, r := range plan(d).Citations() {
		got = append(got, r.Where+"="+r.Text)
	}
	want := "metadata.objectives[1].sources=ch1.md:3 metadata.materials[0].sources=kit.md:2 metadata.vocabulary[0].sources=ch1.md:9-10 metadata.misconceptions[0].sources=ch1.md:12"
	if strings.Join(got, " ") != want {
		t.Errorf("citations =\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
	s := d.Session()
	o := observe(t, d)
	sessiontest.Apply(t, s, lesson.SetKeyLearningPoints{Points: []lesson.Item{{Text: "Leaves make sugar", Sources: []string{"ch1.md:20"}}, {Text: "Roots take up water"}}}, o)
	saved := rendered(t, d)[d.Path]
	if !strings.HasPrefix(saved, citedSrc[:strings.Index(citedSrc, "  key_learning_points")]) {
		t.Errorf("the author's items changed:\n%s", saved)
	}
	if !strings.Contains(saved, "  key_learning_points:\n    - text: Leaves make sugar\n      sources:\n        - ch1.md:20\n    - Roots take up water\n") {
		t.Errorf("generated items not saved in their shapes:\n%s", saved)
	}
	// The author's materials are locked: a set adds after them, with its
	// citation, and leaves theirs as written.
	sessiontest.Apply(t, s, lesson.SetMaterials{Materials: []lesson.Item{{Text: "x", Sources: []string{"kit.md:3"}}}}, o)
	saved = rendered(t, d)[d.Path]
	if !strings.Contains(saved, "  materials:\n    - {text: seed trays, sources: [kit.md:2]}\n    - text: x\n      sources:\n        - kit.md:3\n") {
		t.Errorf("the item is not added after the author's:\n%s", saved)
	}
}

func TestListItemCitationFormCheckedAtLoad(t *testing.T) {
	dir := writeFiles(t, map[string]string{"lesson.yaml": strings.Replace(citedSrc, "[kit.md:2]", "[kit.md:2, kit.md:0]", 1)})
	_, err := compose.Load(filepath.Join(dir, "lesson.yaml"), testRegistry())
	if err == nil || !strings.Contains(err.Error(), `lesson.yaml:10:46: metadata.materials[0].sources: citation "kit.md:0"`) {
		t.Errorf("err = %v, want the bad citation at its line and column", err)
	}
}

func TestItemTakesEitherShape(t *testing.T) {
	var in lesson.SetObjectives
	if err := json.Unmarshal([]byte(`{"objectives":["Name the parts",{"text":"Explain","sources":["a.md:1"]},{"text":"Compare","sources":null}]}`), &in); err != nil {
		t.Fatal(err)
	}
	if len(in.Objectives) != 3 || in.Objectives[0].Text != "Name the parts" || in.Objectives[1].Sources[0] != "a.md:1" || in.Objectives[2].Sources != nil {
		t.Errorf("objectives = %+v", in.Objectives)
	}
	out, _ := json.Marshal(in)
	if string(out) != `{"objectives":["Name the parts",{"text":"Explain","sources":["a.md:1"]},"Compare"]}` {
		t.Errorf("marshal = %s", out)
	}
	s := load(t, strings.Replace(citedSrc, "  objectives:\n    - Name what plants need   # bare\n    - text: Explain why leaves are green\n      sources: [ch1.md:3]\n", "  objectives: !pending\n", 1)).Session()
	sessiontest.Rejected(t, s, lesson.SetObjectives{Objectives: []lesson.Item{{Text: "a"}, {Text: "b", Sources: []string{"x.md:3-1"}}}},
		session.KindInvalidArgs, "objectives[1].sources", "path:line", sessiontest.Observer[int]{Look: func() int { return 0 }, Diff: func(string, int, int) {}})
}

// Citations of what the model wrote are the model's: on an author's slide
// it may cite with the pending field it fills, or after filling one; the
// author's own citations stay, and with nothing filled the refusal says
// so rather than calling sources the author never wrote theirs.
func TestCitingAFilledFieldOfAnAuthorsSlide(t *testing.T) {
	src := "version: 1\nmetadata:\n  title: Romans\nslides:\n" +
		"  - id: why-not\n    title: Why not stay?\n    notes: !pending\n" +
		"  - id: cited\n    title: Cited\n    notes: !pending\n    sources: [book.md:1]\n"
	for _, tc := range []struct {
		name string
		in   []lesson.UpdateSlide
		want string // "" is accepted
	}{
		{"cite with the fill", []lesson.UpdateSlide{{ID: "why-not", Notes: ptr("Ask why."), Sources: []string{"ch1.md:2"}}}, ""},
		{"cite after the fill", []lesson.UpdateSlide{{ID: "why-not", Notes: ptr("Ask why.")}, {ID: "why-not", Sources: []string{"ch1.md:2"}}}, ""},
		{"cite nothing of yours", []lesson.UpdateSlide{{ID: "why-not", Sources: []string{"ch1.md:2"}}}, `slide "why-not" was written by the author and you filled none of it`},
		{"the author's citations", []lesson.UpdateSlide{{ID: "cited", Notes: ptr("Ask."), Sources: []string{"ch1.md:2"}}}, `sources of slide "cited" were written by the author`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := load(t, src)
			var err error
			for _, in := range tc.in {
				if _, err = d.Session().Dispatch(context.Background(), in); err != nil {
					break
				}
			}
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}
