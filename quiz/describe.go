package quiz

import (
	"fmt"
	"strings"

	"github.com/lessongen/lessongen/internal/itemlist"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// kinds are the quiz kinds the set_kind tool offers (its enum), each with
// the heading a slide shows and the phrase a description uses: one table,
// so a new kind is named in one place.
var kinds = map[string]struct{ label, phrase string }{
	"starter": {"Starter quiz", "A starter quiz (recalling what students knew before the lesson)"},
	"check":   {"Check for understanding", "A check-for-understanding quiz"},
	"exit":    {"Exit quiz", "An exit quiz (what students learnt, at the end)"},
}

// kindPhrase names a quiz by its kind as a sentence would.
func kindPhrase(kind string) string {
	if k, ok := kinds[kind]; ok {
		return k.phrase
	}
	return "A quiz (kind not written yet)"
}

// kindLabel is how a slide heads a quiz of a kind: "exit" alone reads as
// a stray word to a class.
func kindLabel(kind string) string {
	if k, ok := kinds[kind]; ok {
		return k.label
	}
	return kind
}

// maxPrompt bounds how much of a prompt a description repeats, so a long
// question cannot crowd out a later subagent's context.
const maxPrompt = 120

// Describe says in plain sentences what the quiz holds, for a model's
// context and for people reading `lessongen plan`: its Content, then the
// author's briefs for what is pending.
func (q *Quiz) Describe() string { return q.describe(true, true) }

// Summary is Describe without the key (answers, distractors, hints, what
// is pending in a question), for the describe chains of the other
// children of its slide (session.Summarizer): a board or an activity
// needs the questions to agree with, and had better not know the answers
// it might otherwise write where pupils see them.
func (q *Quiz) Summary() string { return q.describe(true, false) }

// Content is Describe without the briefs, which a filled quiz may keep in
// memory but its saved file does not: what resume compares.
func (q *Quiz) Content() string { return q.describe(false, true) }

func (q *Quiz) describe(briefs, key bool) string {
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
		s.WriteString("\n- " + qu.describe(key))
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

func (qu *Question) describe(key bool) string {
	var s strings.Builder
	s.WriteString(qu.ID + ": ")
	if qu.kind() != TypeChoice {
		s.WriteString(typeNames[qu.kind()] + " ")
	}
	if p, ok := qu.Prompt.Get(); ok {
		fmt.Fprintf(&s, "%q", brief(p))
	} else {
		s.WriteString("prompt (pending)")
	}
	if !key {
		return s.String()
	}
	for _, part := range qu.describeAnswer() {
		s.WriteString("; " + part)
	}
	if qu.PupilHint.Set {
		s.WriteString("; with a hint")
	}
	for _, f := range questionFields(qu) {
		if f.Pending && f.Name != "prompt" {
			s.WriteString("; " + f.Name + " (pending)")
		}
	}
	return s.String()
}

// typeNames name the types in descriptions.
var typeNames = map[string]string{
	TypeChoice: "multiple choice", TypeTrueFalse: "true/false", TypeShort: "short answer",
	TypeNumeric: "numeric", TypeOrder: "ordering", TypeMatch: "matching",
}

// describeAnswer says what the question's written answer is, for the
// model and the plan: both are the teacher's side.
func (qu *Question) describeAnswer() []string {
	var out []string
	switch qu.kind() {
	case TypeChoice:
		switch a := texts(qu.Answers.Value); {
		case !qu.Answers.Set:
		case len(a) == 1:
			out = append(out, fmt.Sprintf("answer %q", a[0]))
		default:
			out = append(out, "answers "+quoteAll(a))
		}
		if d := qu.Distractors.Value; len(d) > 0 {
			out = append(out, plural(len(d), "distractor"))
		}
	case TypeTrueFalse, TypeNumeric:
		if qu.Answer.Set {
			out = append(out, "answer "+qu.Answer.Value.Raw+" "+qu.Unit.Value)
		}
	case TypeShort:
		if qu.Marks.Set {
			out = append(out, plural(qu.Marks.Value, "mark"))
		}
	case TypeOrder:
		if qu.Items.Set {
			out = append(out, "in order "+quoteAll(qu.Items.Value))
		}
	case TypeMatch:
		if qu.Pairs.Set {
			out = append(out, plural(len(qu.Pairs.Value), "pair"))
		}
	}
	for i, o := range out {
		out[i] = strings.TrimSpace(o)
	}
	return out
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

// questionFields are the fields of qu that may be pending: those every
// question has, then its type's, then the whys of its options.
func questionFields(qu *Question) []itemlist.Field {
	fs := []itemlist.Field{{Name: "prompt", Pending: qu.Prompt.Pending, Hint: qu.Prompt.Hint}}
	add := func(name string, pending bool, hint string) {
		fs = append(fs, itemlist.Field{Name: name, Pending: pending, Hint: hint})
	}
	switch qu.kind() {
	case TypeChoice:
		add("answers", qu.Answers.Pending, qu.Answers.Hint)
		add("distractors", qu.Distractors.Pending, qu.Distractors.Hint)
	case TypeTrueFalse:
		add("answer", qu.Answer.Pending, qu.Answer.Hint)
		add("why", qu.Why.Pending, qu.Why.Hint)
	case TypeShort:
		add("model_answer", qu.ModelAnswer.Pending, qu.ModelAnswer.Hint)
		add("marks", qu.Marks.Pending, qu.Marks.Hint)
	case TypeNumeric:
		add("answer", qu.Answer.Pending, qu.Answer.Hint)
		add("tolerance", qu.Tolerance.Pending, qu.Tolerance.Hint)
		add("unit", qu.Unit.Pending, qu.Unit.Hint)
	case TypeOrder:
		add("items", qu.Items.Pending, qu.Items.Hint)
	case TypeMatch:
		add("pairs", qu.Pairs.Pending, qu.Pairs.Hint)
	}
	add("hint", qu.PupilHint.Pending, qu.PupilHint.Hint)
	add("feedback", qu.Feedback.Pending, qu.Feedback.Hint)
	for _, l := range []struct {
		name string
		cs   []Choice
	}{{"answers", qu.Answers.Value}, {"distractors", qu.Distractors.Value}} {
		for i, c := range l.cs {
			add(fmt.Sprintf("%s[%d].why", l.name, i), c.Why.Pending, c.Why.Hint)
		}
	}
	return fs
}
