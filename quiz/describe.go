package quiz

import (
	"fmt"
	"strings"

	"github.com/lessongen/lessongen/internal/itemlist"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// kindPhrase names a quiz by its kind as a sentence would.
func kindPhrase(kind string) string {
	switch kind {
	case "starter":
		return "A starter quiz (recalling what students knew before the lesson)"
	case "check":
		return "A check-for-understanding quiz"
	case "exit":
		return "An exit quiz (what students learnt, at the end)"
	}
	return "A quiz (kind not written yet)"
}

// maxPrompt bounds how much of a prompt a description repeats, so a long
// question cannot crowd out a later subagent's context.
const maxPrompt = 120

// Describe says in plain sentences what the quiz holds, for a model's
// context and for people reading `lessongen plan`: its Content, then the
// author's briefs for what is pending.
func (q *Quiz) Describe() string { return q.describe(true) }

// Content is Describe without the briefs, which a filled quiz may keep in
// memory but its saved file does not: what resume compares.
func (q *Quiz) Content() string { return q.describe(false) }

func (q *Quiz) describe(briefs bool) string {
	var s strings.Builder
	if q.Kind.Set || q.Kind.Pending {
		s.WriteString(kindPhrase(q.Kind.Value))
	} else {
		s.WriteString("A quiz")
	}
	if in, ok := q.Instructions.Get(); ok {
		fmt.Fprintf(&s, "; students are told: %q", strings.TrimSpace(in))
	}
	s.WriteString(".")
	var qs []*Question
	for _, qu := range q.questions() {
		if !qu.IsPlaceholder {
			qs = append(qs, qu)
		}
	}
	switch len(qs) {
	case 0:
		s.WriteString(" It has no questions yet.")
	default:
		fmt.Fprintf(&s, " It has %s:", plural(len(qs), "question"))
	}
	for _, qu := range qs {
		s.WriteString("\n- " + qu.describe())
	}
	var more []string
	if q.Questions.Pending && q.Questions.Hint != "" {
		more = append(more, q.Questions.Hint)
	}
	for _, qu := range q.questions() {
		if qu.IsPlaceholder && qu.Filled == 0 && qu.Hint != "" {
			more = append(more, qu.Hint)
		}
	}
	if len(more) > 0 && briefs {
		fmt.Fprintf(&s, "\nBrief for this quiz: %s.", strings.TrimSuffix(strings.Join(more, "; "), "."))
	}
	return s.String()
}

func (qu *Question) describe() string {
	var s strings.Builder
	s.WriteString(qu.ID + ": ")
	if p, ok := qu.Prompt.Get(); ok {
		fmt.Fprintf(&s, "%q", brief(p))
	} else {
		s.WriteString("prompt (pending)")
	}
	switch a, ok := qu.Answers.Get(); {
	case !ok:
		s.WriteString("; answers (pending)")
	case len(a) == 1:
		fmt.Fprintf(&s, "; answer %q", a[0])
	default:
		fmt.Fprintf(&s, "; answers %s", quoteAll(a))
	}
	switch d, ok := qu.Distractors.Get(); {
	case qu.Distractors.Pending:
		s.WriteString("; distractors (pending)")
	case ok && len(d) > 0:
		fmt.Fprintf(&s, "; %s", plural(len(d), "distractor"))
	}
	if qu.Feedback.Pending {
		s.WriteString("; feedback (pending)")
	}
	return s.String()
}

// brief shortens text to maxPrompt characters on a word boundary.
func brief(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	r := []rune(text)
	if len(r) <= maxPrompt {
		return text
	}
	cut := string(r[:maxPrompt])
	if i := strings.LastIndexByte(cut, ' '); i > maxPrompt/2 {
		cut = cut[:i]
	}
	return cut + "…"
}

// Pending lists what is still to be generated, metadata first.
func (q *Quiz) Pending() []session.Pending {
	var ps []session.Pending
	meta := func(path string, f yamlsrc.Field[string]) {
		if f.Pending {
			ps = append(ps, session.Pending{Level: session.LevelMetadata, Path: path, Hint: f.Hint})
		}
	}
	meta("kind", q.Kind)
	meta("instructions", q.Instructions)
	return append(ps, q.list().Pending("questions", nil, questionFields)...)
}

// questionFields are the fields of qu that may be pending.
func questionFields(qu *Question) []itemlist.Field {
	return []itemlist.Field{
		{Name: "prompt", Pending: qu.Prompt.Pending, Hint: qu.Prompt.Hint},
		{Name: "answers", Pending: qu.Answers.Pending, Hint: qu.Answers.Hint},
		{Name: "distractors", Pending: qu.Distractors.Pending, Hint: qu.Distractors.Hint},
		{Name: "feedback", Pending: qu.Feedback.Pending, Hint: qu.Feedback.Hint},
	}
}
