package session

import "testing"

func TestHintCount(t *testing.T) {
	for hint, want := range map[string]int{
		"two practice slides":                  2,
		"two more questions":                   2,
		"3 worked examples":                    3,
		"another three questions":              3,
		"a couple of examples":                 2,
		"a labelled chloroplast diagram":       1,
		"a diagram with two arrows":            1,
		"":                                     1,
		"Twelve: quick recall":                 12,
		"1000 slides":                          maxHintCount,
		"one slide: summary, with 4 questions": 1,
		"water in three states":                1,
		"add two arrows":                       2,
		"a pair of images":                     2,
	} {
		if got := HintCount(hint); got != want {
			t.Errorf("HintCount(%q) = %d, want %d", hint, got, want)
		}
	}
	if !PlaceholderOpen("two more questions", 1, 0) || PlaceholderOpen("two more questions", 1, 1) ||
		!PlaceholderOpen("a question", 0, 3) || PlaceholderOpen("a question", 1, 0) {
		t.Error("PlaceholderOpen: want open until the hint's count is met, and while nothing was added")
	}
}

// TestHintNames: a hint names a kind by its word or its plural, however
// it is punctuated, and never by a word that merely contains it.
func TestHintNames(t *testing.T) {
	for _, c := range []struct {
		hint, name string
		want       bool
	}{
		{"an exit quiz", "quiz", true},
		{"two quizzes on halves", "quiz", true},
		{"Quiz: three questions", "quiz", true},
		{"a pair activity", "activity", true},
		{"two activities in pairs", "activity", true},
		{"two practice slides", "quiz", false},
		{"two practice slides", "activity", false},
		{"a quizmaster's board", "quiz", false},
		{"pupils practise in pairs", "activity", false},
	} {
		if got := HintNames(c.hint, c.name); got != c.want {
			t.Errorf("HintNames(%q, %q) = %v, want %v", c.hint, c.name, got, c.want)
		}
	}
}
