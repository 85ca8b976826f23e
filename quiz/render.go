package quiz

import (
	"fmt"
	"hash/fnv"
	"html"
	"math/rand/v2"
	"strings"

	"github.com/lessongen/lessongen/modality"
)

// Render draws the quiz for `lessongen render`: its questions with their
// options in a stable shuffled order (seeded by the question's id, so the
// answer is not always first and every render agrees), and the answer key
// and feedback in the notes only. Pending spots are shown with their hints.
func Render(q *Quiz, bound map[string]string) modality.Rendered {
	var body, notes strings.Builder
	body.WriteString("<section class=\"quiz\">\n")
	kind := q.Kind.Value
	if !q.Kind.Set {
		kind = bound["kind"]
	}
	if kind != "" {
		fmt.Fprintf(&body, "<p class=\"quiz-kind\">%s</p>\n", html.EscapeString(kind))
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
		opts := Shuffled(qu)
		body.WriteString("<ol class=\"options\" type=\"A\">")
		var key []string
		for i, o := range opts {
			fmt.Fprintf(&body, "<li>%s</li>", html.EscapeString(o.Text))
			if o.Correct {
				key = append(key, fmt.Sprintf("%c. %s", 'A'+i, html.EscapeString(o.Text)))
			}
		}
		if qu.Answers.Pending {
			fmt.Fprintf(&body, "<li class=\"pending\">pending answers%s</li>", hintSuffix(qu.Answers.Hint))
		}
		if qu.Distractors.Pending {
			fmt.Fprintf(&body, "<li class=\"pending\">pending distractors%s</li>", hintSuffix(qu.Distractors.Hint))
		}
		body.WriteString("</ol></li>\n")
		fmt.Fprintf(&notes, "<li>%s", strings.Join(key, "; "))
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

// Shuffled returns the question's options in the order a render shows
// them: a shuffle seeded by the question's id, the same on every run.
func Shuffled(qu *Question) []Option {
	opts := qu.options()
	h := fnv.New64a()
	h.Write([]byte(qu.ID))
	seed := h.Sum64()
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	r.Shuffle(len(opts), func(i, j int) { opts[i], opts[j] = opts[j], opts[i] })
	return opts
}

func hintSuffix(hint string) string {
	if hint == "" {
		return ""
	}
	return ": " + html.EscapeString(hint)
}
