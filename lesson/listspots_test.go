package lesson_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/session"
)

// A placeholder item in every metadata list an author writes: each is
// pending, and its set_ tool adds items there, leaving every author byte.
const listsSrc = `version: 1
metadata:
  title: Roman Britain
  objectives:      # what they can do after
    - Say when the Romans left.
    - !pending "one about the army"
  key_learning_points:
    - !pending "two points"
    - The army left over decades.
  materials: [timeline cards, !pending "something to hold"]
  vocabulary:
    - legion                      # bare
    - {term: villa, definition: !pending}
    - !pending "two more terms"
  misconceptions:
    - {misconception: They left at once., response: Show the timeline.}
    - !pending "one more common misconception"   # ask for one
slides: []
`

func TestListPlaceholdersArePending(t *testing.T) {
	d := load(t, listsSrc)
	var got []string
	for _, p := range plan(d).Pending() {
		got = append(got, p.Path+"|"+p.ID+"|"+p.Hint+"|"+p.Name())
	}
	want := []string{
		"metadata.objectives[1]|objectives-1|one about the army|new metadata.objectives items after item 1",
		"metadata.vocabulary[2]|vocabulary-1|two more terms|new metadata.vocabulary items after item 2",
		"metadata.key_learning_points[0]|key_learning_points-1|two points|new metadata.key_learning_points items at the start",
		"metadata.misconceptions[1]|misconceptions-1|one more common misconception|new metadata.misconceptions items after item 1",
		"metadata.materials[1]|materials-1|something to hold|new metadata.materials items after item 1",
		"metadata.vocabulary[villa].definition|||metadata.vocabulary[villa].definition",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pending:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if desc := plan(d).Describe(); strings.Contains(desc, "two more terms") || !strings.Contains(desc, "legion, villa (definition to be written)") {
		t.Errorf("describe: %s", desc)
	}
}

func TestListPlaceholdersFilled(t *testing.T) {
	d := load(t, listsSrc)
	s := d.Session()
	res := apply(t, d, s, lesson.SetObjectives{Objectives: lesson.Items("Explain why the army left."), PendingID: "objectives-1"})
	wantOutputs(t, res, lesson.ItemsAdded{List: "objectives", PendingID: "objectives-1", Count: 1})
	// One placeholder open: pending_id may be left out.
	apply(t, d, s, lesson.SetKeyLearningPoints{Points: lesson.Items("Rome was far away.", "Britain was costly.")})
	apply(t, d, s, lesson.SetMaterials{Materials: lesson.Items("a Roman coin")})
	apply(t, d, s, lesson.SetVocabulary{Terms: []lesson.Term{{Term: "fort", Definition: "a camp for soldiers"}, {Term: "road", Definition: "a paved way"}}, PendingID: "vocabulary-1"})
	apply(t, d, s, lesson.DefineTerm{Term: "villa", Definition: "a country house"})
	apply(t, d, s, lesson.SetMisconceptions{Misconceptions: []lesson.Misconception{{Misconception: "Everyone was Roman.", Response: "Most people were Britons."}}})
	want := `version: 1
metadata:
  title: Roman Britain
  objectives:      # what they can do after
    - Say when the Romans left.
    - Explain why the army left.
  key_learning_points:
    - Rome was far away.
    - Britain was costly.
    - The army left over decades.
  materials: [timeline cards, a Roman coin]
  vocabulary:
    - legion                      # bare
    - {term: villa, definition: a country house}
    - term: fort
      definition: a camp for soldiers
    - term: road
      definition: a paved way
  misconceptions:
    - {misconception: They left at once., response: Show the timeline.}
    - misconception: Everyone was Roman.
      response: Most people were Britons.
slides: []
`
	if got := rendered(t, d)[d.Path]; got != want {
		t.Errorf("saved:\n%s\nwant:\n%s", got, want)
	}
	if p := plan(d).Pending(); len(p) != 0 {
		t.Errorf("still pending: %+v", p)
	}
	// The author's items stay the author's: a second set_ adds after them,
	// and a third replaces what the second added, never theirs.
	for _, obj := range []string{"x", "y"} {
		if _, err := s.Dispatch(context.Background(), lesson.SetObjectives{Objectives: lesson.Items(obj)}); err != nil {
			t.Fatal(err)
		}
	}
	if got := rendered(t, d)[d.Path]; got != strings.Replace(want, "    - Explain why the army left.\n", "    - Explain why the army left.\n    - \"y\"\n", 1) {
		t.Errorf("saved:\n%s", got)
	}
}

func TestListPlaceholderRejects(t *testing.T) {
	src := strings.Replace(listsSrc, "    - Say when the Romans left.\n", "    - !pending \"first\"\n    - Say when the Romans left.\n", 1)
	tests := []struct {
		name string
		in   session.Intent
		hint string
	}{
		{"two open, none named", lesson.SetObjectives{Objectives: lesson.Items("x")}, "several placeholders are open; name one as pending_id: objectives-1, objectives-2"},
		{"an unknown id", lesson.SetObjectives{Objectives: lesson.Items("x"), PendingID: "objectives-9"}, `no placeholder "objectives-9"; open placeholders: objectives-1, objectives-2`},
		{"a list with none", lesson.SetObjectives{Objectives: lesson.Items("x"), PendingID: "p1"}, "no placeholder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := src
			if tt.name == "a list with none" {
				s = "version: 1\nmetadata:\n  title: T\n  objectives: [a]\nslides: []\n"
			}
			d := load(t, s)
			_, err := d.Session().Dispatch(context.Background(), tt.in)
			e, ok := session.AsError(err)
			if !ok || e.Path != "pending_id" || !strings.Contains(e.Hint, tt.hint) {
				t.Errorf("got %v, want hint %q", err, tt.hint)
			}
		})
	}
}
