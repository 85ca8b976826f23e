package yamlsrc

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// merge3Text merges three file texts and splices the result into theirs,
// as a save does.
func merge3Text(t *testing.T, base, ours, theirs string) (string, []Conflict) {
	t.Helper()
	b, o, th := mustParse(t, base), mustParse(t, ours), mustParse(t, theirs)
	merged, conflicts := Merge3(b.Root, o.Root, th.Root)
	if len(conflicts) > 0 {
		return "", conflicts
	}
	out, err := th.Patch(merged)
	if err != nil {
		t.Fatalf("patch: %v", err)
	}
	return string(out), nil
}

func paths(cs []Conflict) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Path)
	}
	return out
}

const mergeBase = `version: 1
metadata:
  title: Photosynthesis
  objectives:
slides:
  - id: hook
    title: Why are leaves green?
    notes: !pending
  - !pending "two practice slides"
  - id: wrap
    title: Wrap-up
`

// What a run made of mergeBase: objectives, hook's notes, and two slides
// for the placeholder, which it closed.
const mergeOurs = `version: 1
metadata:
  title: Photosynthesis
  objectives:
    - Explain photosynthesis
slides:
  - id: hook
    title: Why are leaves green?
    notes: Ask the class.
  - id: p1
    title: Practice 1
  - id: p2
    title: Practice 2
  - id: wrap
    title: Wrap-up
`

func TestMerge3KeepsBothSides(t *testing.T) {
	theirs := strings.Replace(mergeBase, "  title: Photosynthesis\n", "  title: Photosynthesis   # the author's comment\n  subject: biology\n", 1)
	theirs = strings.Replace(theirs, "    title: Wrap-up\n", "    title: Wrap-up and exit ticket\n", 1)
	got, conflicts := merge3Text(t, mergeBase, mergeOurs, theirs)
	if conflicts != nil {
		t.Fatalf("conflicts %v", conflicts)
	}
	for _, want := range []string{
		"title: Photosynthesis   # the author's comment\n  subject: biology\n",
		"    - Explain photosynthesis\n",
		"notes: Ask the class.",
		"  - id: p1\n    title: Practice 1\n  - id: p2\n    title: Practice 2\n  - id: wrap\n    title: Wrap-up and exit ticket\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("merged file lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "!pending \"two practice slides\"") {
		t.Errorf("the placeholder the run closed is back:\n%s", got)
	}
}

func TestMerge3WhitespaceEditKeepsAuthorBytes(t *testing.T) {
	theirs := strings.Replace(mergeBase, "version: 1\n", "version: 1\n\n\n", 1)
	got, conflicts := merge3Text(t, mergeBase, mergeOurs, theirs)
	if conflicts != nil {
		t.Fatalf("conflicts %v", conflicts)
	}
	if !strings.HasPrefix(got, "version: 1\n\n\nmetadata:\n") || !strings.Contains(got, "Explain photosynthesis") {
		t.Errorf("merged:\n%s", got)
	}
}

// The run's slides go where the placeholder they filled is in the author's
// version, not merely after the slide before them.
func TestMerge3AuthorSlideBesidePlaceholder(t *testing.T) {
	theirs := strings.Replace(mergeBase, "  - !pending", "  - id: mine\n    title: The author's slide\n  - !pending", 1)
	got, conflicts := merge3Text(t, mergeBase, mergeOurs, theirs)
	if conflicts != nil {
		t.Fatalf("conflicts %v", conflicts)
	}
	var ids []string
	for _, line := range strings.Split(got, "\n") {
		if id, ok := strings.CutPrefix(line, "  - id: "); ok {
			ids = append(ids, id)
		}
	}
	if want := []string{"hook", "mine", "p1", "p2", "wrap"}; !slices.Equal(ids, want) {
		t.Errorf("slides %v, want %v:\n%s", ids, want, got)
	}
}

func TestMerge3Conflicts(t *testing.T) {
	for _, tc := range []struct {
		name, old, new string
		want           []string
	}{
		{"both filled a field", "  objectives:\n", "  objectives: [The author's own]\n", []string{"metadata.objectives"}},
		{"both filled a slide field", "    notes: !pending\n", "    notes: The author's notes.\n", []string{"slides[hook].notes"}},
		{"author removed a slide the run changed", "  - id: hook\n    title: Why are leaves green?\n    notes: !pending\n", "", []string{"slides[hook]"}},
		{"both filled a placeholder", "  - !pending \"two practice slides\"\n", "  - id: mine\n    title: Mine\n", []string{`slides[pending "two practice slides"]`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			theirs := strings.Replace(mergeBase, tc.old, tc.new, 1)
			if theirs == mergeBase {
				t.Fatal("edit did not apply")
			}
			_, conflicts := merge3Text(t, mergeBase, mergeOurs, theirs)
			if got := paths(conflicts); !slices.Equal(got, tc.want) {
				t.Errorf("conflicts %v, want %v", got, tc.want)
			}
		})
	}
}

// The author removing a slide the run left alone is a plain edit.
func TestMerge3AuthorRemovesUntouchedSlide(t *testing.T) {
	theirs := strings.Replace(mergeBase, "  - id: wrap\n    title: Wrap-up\n", "", 1)
	got, conflicts := merge3Text(t, mergeBase, mergeOurs, theirs)
	if conflicts != nil {
		t.Fatalf("conflicts %v", conflicts)
	}
	if strings.Contains(got, "wrap") || !strings.Contains(got, "id: p2") {
		t.Errorf("merged:\n%s", got)
	}
}

func TestMerge3SameChangeOnBothSidesIsNoConflict(t *testing.T) {
	got, conflicts := merge3Text(t, mergeBase, mergeOurs, mergeOurs)
	if conflicts != nil || got != mergeOurs {
		t.Errorf("conflicts %v, merged:\n%s", conflicts, got)
	}
}

// FuzzMerge3 merges two random edits of one file. Merging an unchanged side
// gives the other; merging the run's side again into a merged result (the
// next checkpoint after a merge) changes nothing; a merge that can be
// spliced says what the merged tree says.
func FuzzMerge3(f *testing.F) {
	f.Add([]byte(lessonSrc), uint64(1), uint64(2))
	f.Add([]byte(mergeBase), uint64(3), uint64(4))
	f.Add([]byte("a: 1\nb:\n- {id: x, v: 1}\n- {id: y, v: 2}\n- !pending h\n"), uint64(5), uint64(6))
	f.Fuzz(func(t *testing.T, data []byte, s1, s2 uint64) {
		s, err := Parse("f.yaml", data)
		if err != nil || s.Root.Kind != yaml.MappingNode || hasAliasOrMerge(s.Root) {
			return
		}
		base := s.Root
		ours, theirs := clone(base), clone(base)
		mutate(ours, rand.New(rand.NewPCG(s1, s1)))
		mutate(theirs, rand.New(rand.NewPCG(s2, s2+1)))
		if anyDupKeys(base) || anyDupKeys(ours) || anyDupKeys(theirs) {
			return // Equal is not reflexive there; the loader refuses them
		}

		if m, c := Merge3(base, ours, base); len(c) > 0 || !Equal(m, ours) {
			t.Fatalf("theirs unchanged: conflicts %v, or merged differs from ours", c)
		}
		if m, c := Merge3(base, base, theirs); len(c) > 0 || !Equal(m, theirs) {
			t.Fatalf("ours unchanged: conflicts %v, or merged differs from theirs", c)
		}
		m, c := Merge3(base, ours, theirs)
		if len(c) > 0 {
			return
		}
		// (A placeholder ours removed is gone from m too, and "both removed
		// it" is a conflict by design; a Saver's next base is ours, which
		// lacks it.)
		if again, c := Merge3(base, ours, m); !onlyPlaceholders(c) || len(c) == 0 && !Equal(again, m) {
			t.Fatalf("merging ours again: conflicts %v, or the result changed", c)
		}
		ts := &Source{}
		if out, err := render(theirs); err == nil {
			if ts, err = Parse("t.yaml", out); err != nil {
				return
			}
		}
		if out, err := ts.Patch(m); err == nil {
			back, err := Parse("out.yaml", out)
			if err != nil || !Equal(back.Root, m) {
				t.Fatalf("spliced merge does not say what the merged tree says: %v\n%s", err, out)
			}
		}
	})
}

func render(n *yaml.Node) ([]byte, error) { return Render(n, 2) }

func anyDupKeys(n *yaml.Node) bool {
	if n.Kind == yaml.MappingNode && dupKeys(n) {
		return true
	}
	for _, c := range n.Content {
		if anyDupKeys(c) {
			return true
		}
	}
	return false
}

func onlyPlaceholders(cs []Conflict) bool {
	for _, c := range cs {
		if !strings.Contains(c.Path, "[pending ") {
			return false
		}
	}
	return true
}

// generated_for is an ordinary key to the merge: a run that closes the
// placeholder drops it from what it generated while the author edits beside
// it, and both changes land.
func TestMerge3GeneratedForFollowsTheRun(t *testing.T) {
	base := "elements:\n  - id: text1\n    text: Evaporation\n    generated_for: the loop\n  - !pending \"the loop\"\n  - id: mine\n    text: Mine\n"
	ours := "elements:\n  - id: text1\n    text: Evaporation\n  - id: text2\n    text: Condensation\n  - id: mine\n    text: Mine\n"
	theirs := strings.Replace(base, "text: Mine", "text: Mine, edited", 1)
	got, cs := merge3Text(t, base, ours, theirs)
	if len(cs) > 0 {
		t.Fatalf("conflicts: %v", paths(cs))
	}
	want := "elements:\n  - id: text1\n    text: Evaporation\n  - id: text2\n    text: Condensation\n  - id: mine\n    text: Mine, edited\n"
	if got != want {
		t.Errorf("merged:\n%s\nwant:\n%s", got, want)
	}
	// While the placeholder is open the run's key is kept beside the
	// author's edit.
	ours = strings.Replace(base, "  - !pending", "  - id: text2\n    text: Condensation\n    generated_for: the loop\n  - !pending", 1)
	got, cs = merge3Text(t, base, ours, theirs)
	if len(cs) > 0 || strings.Count(got, "generated_for: the loop") != 2 || !strings.Contains(got, "Mine, edited") {
		t.Errorf("merged (conflicts %v):\n%s", paths(cs), got)
	}
}
