package quiz

import (
	"fmt"
	"strings"

	"github.com/lessongen/lessongen/internal/rule"
)

// The quiz's limits are written once, as tags on the intents a model calls
// (Choices.Options, SetKind.Kind). The bridge turns those tags into the
// tool schema; the functions here read the same tags (internal/rule), so the file check,
// the dispatch check and what a model is told cannot drift apart.

// Kinds lists the kinds a quiz may have, in the order documentation shows them.
func Kinds() []string { return rule.Of[SetKind]("kind").Enum }

// OptionLimits are the fewest and most options a question may have,
// answers and distractors together.
func OptionLimits() (least, most int) {
	r := rule.Of[Choices]("options")
	return *r.MinItems, *r.MaxItems
}

// optionProblem is one broken rule about a question's options: the option
// it concerns (an index into the options checked, or -1 for the question as
// a whole), what is wrong, and how to put it right.
type optionProblem struct {
	index     int
	msg, hint string
}

// checkOptions applies a question's rules to its options, answers marked
// Correct. A list still pending is not known: rules that need it wait until
// it is written. Load and dispatch both call this, so they agree.
func checkOptions(opts []Option, answersKnown, distractorsKnown bool) []optionProblem {
	var ps []optionProblem
	least, most := OptionLimits()
	answers := 0
	first := map[string]int{}
	for i, o := range opts {
		text := strings.TrimSpace(o.Text)
		if text == "" {
			ps = append(ps, optionProblem{i, fmt.Sprintf("%s is empty", oneOf(o)), "write the option or remove it"})
			continue
		}
		if o.Correct {
			answers++
		}
		key := strings.ToLower(text)
		j, seen := first[key]
		switch {
		case !seen:
			first[key] = i
		case opts[j].Correct == o.Correct:
			ps = append(ps, optionProblem{i, fmt.Sprintf("%q is listed twice in %s", text, listOf(o)), "keep one"})
		default:
			ps = append(ps, optionProblem{i, fmt.Sprintf("%q is both an answer and a distractor", text), "an option is either right or wrong; keep it in one list"})
		}
	}
	switch n := len(opts); {
	case n > most:
		ps = append(ps, optionProblem{-1, "the question has " + plural(n, "option"), fmt.Sprintf("a question has %d to %d options, answers and distractors together; remove some", least, most)})
	case n < least && answersKnown && distractorsKnown:
		more := "add distractors"
		if answers == 0 {
			more = "add options, at least one of them correct"
		}
		ps = append(ps, optionProblem{-1, "the question has " + plural(n, "option"), fmt.Sprintf("a question has %d to %d options, answers and distractors together; %s", least, most, more)})
	case !answersKnown && n+1 > most:
		ps = append(ps, optionProblem{-1, fmt.Sprintf("the question has %s and its answers are still to come", plural(n, "distractor")), fmt.Sprintf("a question has %d to %d options, answers and distractors together; leave room for an answer", least, most)})
	case answersKnown && answers == 0:
		ps = append(ps, optionProblem{-1, "the question has no answer", "give at least one correct answer"})
	}
	return ps
}

func listOf(o Option) string {
	if o.Correct {
		return "answers"
	}
	return "distractors"
}

func oneOf(o Option) string {
	if o.Correct {
		return "an answer"
	}
	return "a distractor"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// checkAnswerAt says what is wrong with answer positions at for a question
// of n options, nAnswers of them answers: "" when they fit.
func checkAnswerAt(at []int, nAnswers, n int) string {
	if len(at) != nAnswers {
		return fmt.Sprintf("gives %s for %s; give one position per answer", plural(len(at), "position"), plural(nAnswers, "answer"))
	}
	seen := map[int]bool{}
	for _, p := range at {
		switch {
		case p < 1 || p > n:
			return fmt.Sprintf("position %d is outside the %s (1 to %d)", p, plural(n, "option"), n)
		case seen[p]:
			return fmt.Sprintf("position %d is given twice", p)
		}
		seen[p] = true
	}
	return ""
}

// itemLimits are the fewest and most items (or pairs) of T's list field.
func itemLimits[T any](field string) (least, most int) {
	r := rule.Of[T](field)
	return *r.MinItems, *r.MaxItems
}

// checkCount is the problem, if any, with a list of n of noun, whose
// limits are T's field's.
func checkCount[T any](field, noun string, n int) []optionProblem {
	least, most := itemLimits[T](field)
	if n < least || n > most {
		return []optionProblem{{-1, "the question has " + plural(n, noun), fmt.Sprintf("give %d to %d %ss", least, most, noun)}}
	}
	return nil
}

// checkOrderItems applies an ordering question's rules to its items: enough
// of them, none empty, none twice (students could not tell two apart).
func checkOrderItems(items []string) []optionProblem {
	ps := checkCount[Order]("items", "item", len(items))
	first := map[string]bool{}
	for i, it := range items {
		key := strings.ToLower(strings.TrimSpace(it))
		switch {
		case key == "":
			ps = append(ps, optionProblem{i, "an item is empty", "write the item or remove it"})
		case first[key]:
			ps = append(ps, optionProblem{i, fmt.Sprintf("%q is listed twice", strings.TrimSpace(it)), "every item of an order is different; keep one"})
		}
		first[key] = true
	}
	return ps
}

// checkPairs applies a match question's rules to its pairs: enough of them,
// no side empty, and no left or right item twice, so each has one match.
func checkPairs(pairs []Pair) []optionProblem {
	ps := checkCount[Matches]("pairs", "pair", len(pairs))
	lefts, rights := map[string]bool{}, map[string]bool{}
	for i, p := range pairs {
		for _, side := range []struct {
			name, text string
			seen       map[string]bool
		}{{"left", p.Left, lefts}, {"right", p.Right, rights}} {
			key := strings.ToLower(strings.TrimSpace(side.text))
			switch {
			case key == "":
				ps = append(ps, optionProblem{i, "a pair's " + side.name + " item is empty", "write both sides of every pair"})
			case side.seen[key]:
				ps = append(ps, optionProblem{i, fmt.Sprintf("%q is on the %s twice", strings.TrimSpace(side.text), side.name), "each item matches exactly one other; make every " + side.name + " item different"})
			}
			side.seen[key] = true
		}
	}
	return ps
}

// checkTolerance is what is wrong with a numeric question's tolerance, or "".
func checkTolerance(t float64) string {
	if least := *rule.Of[AddNumericQuestion]("tolerance").Min; t < least {
		return fmt.Sprintf("tolerance %v is below %v; give how far from the answer still counts as right, 0 for exactly", t, least)
	}
	return ""
}

// checkMarks is what is wrong with a short question's marks, or "".
func checkMarks(n int) string {
	r := rule.Of[AddShortAnswerQuestion]("marks")
	if float64(n) < *r.Min || float64(n) > *r.Max {
		return fmt.Sprintf("marks %d is outside %v to %v; give one mark per point the model answer makes", n, *r.Min, *r.Max)
	}
	return ""
}
