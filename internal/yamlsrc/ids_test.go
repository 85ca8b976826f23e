package yamlsrc

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func byTitle(t *testing.T, src string) ([]string, []bool) {
	t.Helper()
	s := mustParse(t, src)
	return ItemIDs(get(s.Root, "slides"), func(item *yaml.Node, pos int) string {
		if v := Scalar(item, "title"); v != "" {
			return strings.ToLower(v)
		}
		return fmt.Sprintf("slide-%d", pos)
	})
}

// A derived id never takes an explicit one, wherever in the list it is
// written, nor one derived before it; pending items have none, and only
// items without an id are counted.
func TestItemIDsExplicitWins(t *testing.T) {
	ids, derived := byTitle(t, `slides:
  - title: light
  - !pending "more"
  - title: light
  - title: !pending
  - id: light
    title: Other
  - id: light-2
    title: x
  - title: !pending
`)
	want := []string{"light-3", "", "light-4", "slide-3", "light", "light-2", "slide-4"}
	// slide-3: the third slide written without an id.
	if !slices.Equal(ids, want) {
		t.Errorf("ids = %q, want %q", ids, want)
	}
	if w := []bool{true, false, true, true, false, false, true}; !slices.Equal(derived, w) {
		t.Errorf("derived = %v, want %v", derived, w)
	}
}

// The same list gives the same ids every time.
func TestItemIDsStable(t *testing.T) {
	src := "slides:\n  - title: a\n  - title: a\n  - id: a\n"
	a, _ := byTitle(t, src)
	b, _ := byTitle(t, src)
	if !slices.Equal(a, b) {
		t.Errorf("%q then %q", a, b)
	}
}

const keylessSrc = `slides:
  # the opening, written without an id
  - title: Why are leaves green?   # keep me
    notes: !pending
  - !pending "two practice slides"
  - title: 'Wrap-up'
`

// A mapping without an id keeps its bytes (comments, quoting) and is
// patched in place when the list around it changes: a placeholder filled
// with slides that have ids.
func TestPatchKeylessItemsMatchInOrder(t *testing.T) {
	s := mustParse(t, keylessSrc)
	cur := clone(s.Root)
	list := get(cur, "slides")
	first := list.Content[0]
	first.Content[3] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "Chlorophyll."} // notes
	added := clone(mustParse(t, "- id: p\n  title: Practice\n").Root).Content[0]
	list.Content = []*yaml.Node{list.Content[0], added, list.Content[2]}
	out, err := s.Patch(cur)
	if err != nil {
		t.Fatal(err)
	}
	want := `slides:
  # the opening, written without an id
  - title: Why are leaves green?   # keep me
    notes: Chlorophyll.
  - id: p
    title: Practice
  - title: 'Wrap-up'
`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// Slides without ids merge item by item: the run filled one's notes, the
// author retitled the other; both are kept.
func TestMerge3KeylessItems(t *testing.T) {
	base := "slides:\n  - title: A\n    notes: !pending\n  - title: B\n"
	ours := "slides:\n  - title: A\n    notes: run\n  - title: B\n"
	theirs := "slides:\n  - title: A\n    notes: !pending\n  - title: B2   # author\n"
	got, conflicts := merge3Text(t, base, ours, theirs)
	if len(conflicts) > 0 {
		t.Fatalf("conflicts %v", paths(conflicts))
	}
	if want := "slides:\n  - title: A\n    notes: run\n  - title: B2   # author\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// An author who adds a slide without an id leaves no order to match
	// by: the list is one value, and both changed it.
	theirs = "slides:\n  - title: New\n  - title: A\n    notes: !pending\n  - title: B\n"
	if _, conflicts := merge3Text(t, base, ours, theirs); len(conflicts) == 0 {
		t.Error("an added keyless slide merged by position")
	}
}

// What a run adds has an id, so inserting it before items without one
// leaves their derived ids as they were.
func TestItemIDsKeepThroughInsertions(t *testing.T) {
	before, _ := byTitle(t, "slides:\n  - title: !pending\n  - title: !pending\n")
	after, _ := byTitle(t, "slides:\n  - id: new\n    title: New\n  - title: !pending\n  - id: new-2\n    title: New\n  - title: !pending\n")
	if got := []string{after[1], after[3]}; !slices.Equal(got, before) {
		t.Errorf("after insertions %q, before %q", got, before)
	}
}
