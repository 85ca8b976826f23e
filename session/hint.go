package session

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// hintNumbers are the number words a hint may count with.
var hintNumbers = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
	"couple": 2, "pair": 2,
}

// maxHintCount bounds what a hint can ask for, whatever number it writes.
const maxHintCount = 20

// HintCount is how many items a list-item placeholder's hint asks for:
// the number it opens with ("two practice slides", "2 more questions",
// "another three questions", "a couple of examples"), else 1. A number
// further in describes one item ("water in three states", "a diagram
// with two arrows") and does not count.
func HintCount(hint string) int {
	words := strings.FieldsFunc(strings.ToLower(hint), func(r rune) bool {
		return r == ' ' || r == ',' || r == ':' || r == ';' || r == '-' || r == '\t' || r == '\n'
	})
	if len(words) > 1 && (words[0] == "another" || words[0] == "a" || words[0] == "add") {
		words = words[1:]
	}
	if len(words) == 0 {
		return 1
	}
	n, ok := hintNumbers[words[0]]
	if !ok {
		if v, err := strconv.Atoi(words[0]); err == nil {
			n, ok = v, true
		}
	}
	if ok && n >= 1 {
		return min(n, maxHintCount)
	}
	return 1
}

// PlaceholderOpen reports whether a list-item placeholder still asks for
// items: none added for it by this run, or fewer in all (earlier runs'
// included) than its hint counts. One the model has begun stays open so
// a model that makes one call per turn is asked again; the model may
// still end there (a begun placeholder lists what it holds in
// Pending.Generated, so it is not Owed).
func PlaceholderOpen(hint string, filled, earlier int) bool {
	return filled == 0 || filled+earlier < HintCount(hint)
}

// HintNames reports whether a placeholder's hint asks for a thing named
// name (a child kind: "quiz", "activity"), by that word or its plural
// ("quizzes", "activities"). A new slide gets a child the author did not
// require only when its hint names it: the lesson's prompt says so and
// the cost estimate counts the same.
func HintNames(hint, name string) bool {
	name = strings.ToLower(name)
	forms := []string{name, name + "s", name + "es", name + "zes"}
	if stem, ok := strings.CutSuffix(name, "y"); ok {
		forms = append(forms, stem+"ies")
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(hint), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if slices.Contains(forms, w) {
			return true
		}
	}
	return false
}
