package quiz

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/yamlsrc"
)

func question(id string) *Question {
	return &Question{ID: id, Prompt: yamlsrc.Val("Which?"),
		Answers:     yamlsrc.Val([]Choice{{Text: "right"}}),
		Distractors: yamlsrc.Val([]Choice{{Text: "w1"}, {Text: "w2"}, {Text: "w3"}})}
}

// With shuffle: true, the order is a permutation of the options, the same on every call for
// one id, and differs between ids: the answer is not always in one place.
func TestShuffleIsStableAndSeededByID(t *testing.T) {
	where := map[int]int{}
	for i := range 40 {
		q := question(fmt.Sprintf("q%d", i))
		first := Shown(q, true)
		if !slices.Equal(first, Shown(q, true)) {
			t.Fatalf("%s: two shuffles differ", q.ID)
		}
		texts := []string{}
		for k, o := range first {
			texts = append(texts, o.Text)
			if o.Correct {
				where[k]++
			}
		}
		slices.Sort(texts)
		if !slices.Equal(texts, []string{"right", "w1", "w2", "w3"}) {
			t.Fatalf("%s: shuffle is not a permutation: %v", q.ID, texts)
		}
	}
	if len(where) < 3 {
		t.Errorf("over 40 ids the answer lands in only %d of 4 places: %v", len(where), where)
	}
}

// The answer key is in the notes only: the body marks no option correct.
func TestRenderKeepsTheKeyInTheNotes(t *testing.T) {
	q := &Quiz{Questions: yamlsrc.Val([]*Question{question("q1")})}
	r := Render(q, nil)
	if strings.Contains(r.Body, "Answer key") || strings.Contains(r.Body, "correct") {
		t.Errorf("the body gives the answer away:\n%s", r.Body)
	}
	opts := Shown(question("q1"), false)
	k := slices.IndexFunc(opts, func(o Option) bool { return o.Correct })
	// data-correct, the answer's place, is what the page's reveal (A in
	// present mode) marks.
	if want := fmt.Sprintf("<li data-correct=\"%d\">%c. right</li>", k+1, 'A'+k); !strings.Contains(r.Notes, want) {
		t.Errorf("notes lack %q:\n%s", want, r.Notes)
	}
}
