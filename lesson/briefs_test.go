package lesson_test

import (
	"strings"
	"testing"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/lesson"
)

// add_slide takes a brief for every registered child kind that declares
// one, activity included, though lesson names no kind: the bridge adds
// the properties from the registry, the call parses into Briefs, and the
// new slide places each briefed child pending, in registration order.
func TestAddSlideBriefsEveryRegisteredKind(t *testing.T) {
	br, err := bridge.New(testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	c, err := br.Catalog("lesson")
	if err != nil {
		t.Fatal(err)
	}
	in, ce := c.Parse("add_slide", `{"title":"Try it","section":"Practise","duration_minutes":5,"notes":"n",`+
		`"activity":"pairs try rm -i on a copy","whiteboard":"the command and its prompt"}`)
	if ce != nil {
		t.Fatal(ce)
	}
	want := map[string]string{"activity": "pairs try rm -i on a copy", "whiteboard": "the command and its prompt"}
	if got := in.(lesson.AddSlide).Briefs; len(got) != 2 || got["activity"] != want["activity"] || got["whiteboard"] != want["whiteboard"] {
		t.Fatalf("briefs = %v", got)
	}
	if _, ce := c.Parse("add_slide", `{"title":"T","section":"S","duration_minutes":5,"notes":"n","whiteboard":"w","poll":"x"}`); ce == nil {
		t.Error("a brief for a kind nobody registered was accepted")
	}
	if _, ce := c.Parse("add_slide", `{"title":"T","section":"S","duration_minutes":5,"notes":"n","activity":"a"}`); ce == nil || ce.Path != "whiteboard" {
		t.Errorf("the whiteboard brief is required: %v", ce)
	}

	d := load(t, "version: 1\nmetadata:\n  title: Shell\nslides: !pending \"one practice slide\"\n")
	s := d.Session()
	dispatch(t, s, in)
	var kinds []string
	for _, k := range s.ReconcileChildren() {
		kinds = append(kinds, k.Kind)
	}
	if got := strings.Join(kinds, " "); got != "whiteboard activity" {
		t.Errorf("children placed: %s", got)
	}
	saved := rendered(t, d)[d.Path]
	if !strings.Contains(saved, "    whiteboard: !pending \"the command and its prompt\"\n    activity: !pending \"pairs try rm -i on a copy\"\n") {
		t.Errorf("saved:\n%s", saved)
	}
}
