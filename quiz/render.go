package quiz

import (
	"cmp"
	"fmt"
	"html"
	"slices"
	"strconv"
	"strings"

	"github.com/lessongen/lessongen/modality"
)

// Render draws the quiz for `lessongen render`: its questions with their
// options in the order given (see Shown; shuffled only with the quiz's
// shuffle: true), and the answer key
// and feedback in the notes only. Pending spots are shown with their hints.
func Render(q *Quiz, bound map[string]string) modality.Rendered {
	var body, notes strings.Builder
	body.WriteString("<section class=\"quiz\">\n")
	kind := q.Kind.Value
	if !q.Kind.Set {
		kind = bound["kind"]
	}
	if kind != "" {
		fmt.Fprintf(&body, "<p class=\"quiz-kind\">%s</p>\n", html.EscapeString(kindLabel(kind)))
	}
	instr := q.Instructions.Value
	if !q.Instructions.Set {
		instr = bound["instructions"]
	}
	switch {
	case instr != "":
		fmt.Fprintf(&body, "<p class=\"quiz-instructions\">%s</p>\n", html.EscapeString(instr))
	case q.Instructions.Pending:
		fmt.Fprintf(&body, "<p class=\"pending\">pending instructions%s</p>\n", hintSuffix(q.Instructions.Hint))
	}
	if q.Questions.Pending {
		fmt.Fprintf(&body, "<div class=\"pending\">pending questions%s</div>\n", hintSuffix(q.Questions.Hint))
	}
	notes.WriteString("<div class=\"answer-key\"><h4>Answer key</h4><ol>\n")
	body.WriteString("<ol class=\"questions\">\n")
	for _, qu := range q.questions() {
		if qu.IsPlaceholder {
			fmt.Fprintf(&body, "<li class=\"pending\">pending question%s</li>\n", hintSuffix(qu.Hint))
			continue
		}
		body.WriteString("<li class=\"question\">")
		if qu.Prompt.Pending {
			fmt.Fprintf(&body, "<p class=\"pending\">pending prompt%s</p>", hintSuffix(qu.Prompt.Hint))
		} else {
			fmt.Fprintf(&body, "<p class=\"prompt\">%s</p>", html.EscapeString(qu.Prompt.Value))
		}
		keyLines, at, reveal := drawQuestion(&body, qu, q.Shuffle)
		drawHint(&body, qu)
		body.WriteString("</li>\n")
		// data-correct (the answers' places) lets the page reveal them
		// on the question in present mode, and the template the answer
		// of a question with no option to mark; both stay in the notes,
		// so a pupil's copy has neither. A template is never shown.
		fmt.Fprintf(&notes, "<li data-correct=\"%s\">%s", strings.Join(at, " "), strings.Join(keyLines, "; "))
		if len(reveal) > 0 {
			fmt.Fprintf(&notes, "<template class=\"reveal\"><p>%s</p></template>", strings.Join(reveal, "</p><p>"))
		}
		switch {
		case qu.Feedback.Set:
			fmt.Fprintf(&notes, " — %s", html.EscapeString(qu.Feedback.Value))
		case qu.Feedback.Pending:
			fmt.Fprintf(&notes, " — pending feedback%s", hintSuffix(qu.Feedback.Hint))
		}
		notes.WriteString("</li>\n")
	}
	body.WriteString("</ol>\n</section>\n")
	notes.WriteString("</ol></div>\n")
	var cited []modality.Cited
	for _, qu := range q.questions() {
		if !qu.IsPlaceholder {
			cited = append(cited, modality.Cited{Item: "question " + qu.ID, Sources: qu.Sources})
		}
	}
	notes.WriteString(modality.CitationNotes("Quiz sources", cited))
	return modality.Rendered{Body: body.String(), Notes: notes.String()}
}

// Shown returns the question's options in the order students see them:
// where AnswerAt places the answers (a model's options keep the order it
// gave this way), else, as with shuffle, a shuffle seeded by the
// question's id, the same on every run, so an author's answers written
// first are not always A; options that are all numbers are sorted
// instead (1, 2, 3, 4 reads as a scale, not a puzzle).
func Shown(qu *Question, shuffle bool) []Option {
	opts := qu.options()
	if !shuffle && len(qu.AnswerAt) > 0 && checkAnswerAt(qu.AnswerAt, len(qu.Answers.Value), len(opts)) == "" {
		return placed(opts, qu.AnswerAt, len(qu.Answers.Value))
	}
	if nums, ok := numbers(opts); ok {
		idx := make([]int, len(opts))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(nums[a], nums[b]) })
		out := make([]Option, len(opts))
		for i, j := range idx {
			out[i] = opts[j]
		}
		return out
	}
	seeded(qu.ID).Shuffle(len(opts), func(i, j int) { opts[i], opts[j] = opts[j], opts[i] })
	return opts
}

// placed puts the first nAnswers of opts (the answers) at the 1-based
// positions at, the rest in order around them; opts as they are when at
// does not fit (checkAnswerAt).
func placed(opts []Option, at []int, nAnswers int) []Option {
	if len(at) == 0 || checkAnswerAt(at, nAnswers, len(opts)) != "" {
		return opts
	}
	out := make([]Option, len(opts))
	taken := make([]bool, len(opts))
	for i, p := range at {
		out[p-1], taken[p-1] = opts[i], true
	}
	next := nAnswers
	for i := range out {
		if !taken[i] {
			out[i] = opts[next]
			next++
		}
	}
	return out
}

// numbers reads every option as a number, if each is one, with one unit
// after each or none ("0 °C", "−10 °C"; a minus sign reads as "-").
func numbers(opts []Option) ([]float64, bool) {
	out := make([]float64, len(opts))
	unit := ""
	for i, o := range opts {
		s := strings.ReplaceAll(strings.TrimSpace(o.Text), ",", "")
		s = strings.Replace(s, "−", "-", 1)
		n, u := s, ""
		if k := strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune("0123456789.+-eE", r) }); k > 0 {
			n, u = s[:k], strings.TrimSpace(s[k:])
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(n), 64)
		if err != nil || i > 0 && u != unit {
			return nil, false
		}
		out[i], unit = v, u
	}
	return out, true
}

func hintSuffix(hint string) string {
	if hint == "" {
		return ""
	}
	return ": " + html.EscapeString(hint)
}
