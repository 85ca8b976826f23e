package quiz

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lessongen/lessongen/internal/itemlist"
	"github.com/lessongen/lessongen/internal/nodemeta"
	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// Reports: what a reduce tells whoever dispatched the intent.
type (
	Added   = itemlist.Added
	Changed = itemlist.Changed
	Moved   = itemlist.Moved
	Removed = itemlist.Removed
	Set     = nodemeta.Set
	Closed  = itemlist.Closed
)

// save copies everything a reduce may change and returns how to put it
// back. Quizzes are small, so copying one costs little and makes every
// undo exact; the cost is per quiz, never per lesson.
func (q *Quiz) save() (restore func()) {
	generated, kind, instructions, questions, nextID := q.meta.Generated(), q.Kind, q.Instructions, q.list().Copy(nil), q.nextID
	return func() {
		q.Kind, q.Instructions, q.Questions, q.nextID = kind, instructions, questions, nextID
		q.meta.Restore(generated)
		q.list().Reindex()
	}
}

// review is what describe_quiz reports: the description, and the sources
// each question cites, so a model refining the quiz sees them.
func (q *Quiz) review() string {
	var s strings.Builder
	s.WriteString(q.Describe())
	for _, qu := range q.questions() {
		if !qu.IsPlaceholder && len(qu.Sources) > 0 {
			fmt.Fprintf(&s, "\n%s cites %s", q.name(qu), strings.Join(qu.Sources, ", "))
		}
	}
	return s.String()
}

// Reduce applies one intent. See session.State.
func (q *Quiz) Reduce(rc *session.Context, in session.Intent) (func(), error) {
	switch in.(type) {
	case DescribeQuiz:
		rc.Report(q.review())
		return nil, nil
	case ListPending:
		rc.Report(q.Pending())
		return nil, nil
	}
	return nodemeta.Reduce(q.save, func() error { return q.apply(rc, in) })
}

// Recompile re-derives the question index. A quiz has no derived state a
// model must be warned about: every rule is checked before a change commits.
func (q *Quiz) Recompile(*session.Context, session.Intent) { q.list().Reindex() }

// quizIntent is an intent a quiz applies, each by its own applyTo
// (apply.go).
type quizIntent interface {
	applyTo(q *Quiz, rc *session.Context) error
}

func (q *Quiz) apply(rc *session.Context, in session.Intent) error {
	if a, ok := in.(quizIntent); ok {
		return a.applyTo(q, rc)
	}
	return session.Reject(session.KindInvalidArgs, "", "", "a quiz cannot apply %T", in)
}

// Bindable lists the properties a slide's props may bind into a quiz.
func Bindable() []string { return []string{"kind", "instructions"} }

func (q *Quiz) bindable(property string) *yamlsrc.Field[string] {
	switch property {
	case "kind":
		return &q.Kind
	case "instructions":
		return &q.Instructions
	}
	return nil
}

// PropertySet reports whether a bindable property already has a value, so
// a binding to it would be ignored (the parent warns about that at load).
func (q *Quiz) PropertySet(property string) bool {
	f := q.bindable(property)
	return f != nil && f.Set
}

// checkChoices applies the question rules to options a model gave.
func checkChoices(opts []Option) error {
	if ps := checkOptions(opts, true, true); len(ps) > 0 {
		p := ps[0]
		path := "options"
		if p.index >= 0 {
			path = fmt.Sprintf("options[%d]", p.index)
		}
		return session.Reject(session.KindInvalidArgs, path, p.hint, "%s", p.msg)
	}
	return nil
}

// answerAt is where the answers stand among opts, 1-based; nil when they
// come first, as the file lists them anyway.
func answerAt(opts []Option) []int {
	var at []int
	first := true
	for i, o := range opts {
		if o.Correct {
			at = append(at, i+1)
			first = first && i+1 == len(at)
		}
	}
	if first {
		return nil
	}
	return at
}

// split turns options into the answer and distractor lists the file holds,
// trimmed.
func split(opts []Option) (answers, distractors []string) {
	distractors = []string{}
	for _, o := range opts {
		if o.Correct {
			answers = append(answers, strings.TrimSpace(o.Text))
		} else {
			distractors = append(distractors, strings.TrimSpace(o.Text))
		}
	}
	return answers, distractors
}

func (q *Quiz) add(rc *session.Context, in AddQuestion) error {
	prompt, err := nodemeta.NonEmpty("prompt", in.Prompt)
	if err != nil {
		return err
	}
	if err := checkChoices(in.Options); err != nil {
		return err
	}
	if err := sources.CheckList(in.Sources); err != nil {
		return err
	}
	if in.ID != "" {
		if err := session.CheckChosenID(in.ID, q.list().Taken); err != nil {
			return err
		}
	}
	answers, distractors := split(in.Options)
	qu := &Question{ID: in.ID, Prompt: yamlsrc.Val(prompt), Answers: yamlsrc.Val(answers), Distractors: yamlsrc.Val(distractors), AnswerAt: answerAt(in.Options)}
	if f := strings.TrimSpace(in.Feedback); f != "" {
		qu.Feedback = yamlsrc.Val(f)
	}
	qu.Sources = slices.Clone(in.Sources)
	if qu.ID == "" {
		qu.ID = q.list().Numbered("q", &q.nextID)
	}
	ph, _, err := q.list().Add(qu, in.PendingID, 0)
	if err != nil {
		return err
	}
	rep := Added{ID: qu.ID}
	rep.Position, _ = q.list().Position(qu.ID)
	if ph != nil {
		rep.PendingID = ph.PlaceholderID
	}
	rc.Report(rep)
	return nil
}

func (q *Quiz) update(rc *session.Context, in UpdateQuestion) error {
	qu, ok := q.list().Get(in.ID)
	if !ok {
		return q.list().NotFound("id", in.ID)
	}
	protected := func(name string, set bool) error {
		if qu.Authored && q.Protect && set {
			return session.Reject(session.KindPrecondition, name, "only the author's pending fields can be filled", "%s of question %q was written by the author", name, qu.ID)
		}
		return nil
	}
	var fields []string
	for _, c := range []struct {
		name  string
		value *string
		field *yamlsrc.Field[string]
	}{{"prompt", in.Prompt, &qu.Prompt}, {"feedback", in.Feedback, &qu.Feedback}} {
		if c.value == nil {
			continue
		}
		if err := protected(c.name, c.field.Set); err != nil {
			return err
		}
		v, err := nodemeta.NonEmpty(c.name, *c.value)
		if err != nil {
			return err
		}
		*c.field = yamlsrc.Val(v)
		fields = append(fields, c.name)
	}
	if in.Options != nil {
		if err := checkChoices(in.Options); err != nil {
			return err
		}
		answers, distractors := split(in.Options)
		// An author's list stays as written: the options must repeat it, so
		// only the pending list changes.
		if qu.Authored && q.Protect {
			for _, l := range []struct {
				name, as string
				field    *yamlsrc.Field[[]string]
				given    []string
			}{{"answers", "correct", &qu.Answers, answers}, {"distractors", "not correct", &qu.Distractors, distractors}} {
				if !l.field.Pending && !slices.Equal(l.field.Value, l.given) && len(l.field.Value)+len(l.given) > 0 {
					return session.Reject(session.KindPrecondition, "options",
						fmt.Sprintf("repeat the author's %s unchanged (%s) as options marked %s, and write only what is pending", l.name, quoteAll(l.field.Value), l.as),
						"%s of question %q were written by the author", l.name, qu.ID)
				}
			}
		}
		if !qu.Answers.Set || !slices.Equal(qu.Answers.Value, answers) {
			qu.Answers = yamlsrc.Val(answers)
			fields = append(fields, "answers")
		}
		// The order given is the order shown, unless the author placed
		// the answers.
		if at := answerAt(in.Options); !(qu.Authored && q.Protect && qu.authorAt) && !slices.Equal(qu.AnswerAt, at) {
			qu.AnswerAt = at
			fields = append(fields, "answer_at")
		}
		if !qu.Distractors.Set || !slices.Equal(qu.Distractors.Value, distractors) {
			if len(distractors) > 0 || qu.Distractors.Set || qu.Distractors.Pending {
				qu.Distractors = yamlsrc.Val(distractors)
				fields = append(fields, "distractors")
			}
		}
	}
	if cited, err := q.list().Cite(qu, in.Sources, q.Protect); err != nil {
		return err
	} else if cited {
		fields = append(fields, "sources")
	}
	if len(fields) == 0 {
		return session.Reject(session.KindInvalidArgs, "", "set at least one of prompt, options, feedback, sources, with something new", "nothing to change")
	}
	rc.Report(Changed{ID: qu.ID, Fields: fields})
	return nil
}

func quoteAll(items []string) string {
	if len(items) == 0 {
		return "none"
	}
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = fmt.Sprintf("%q", it)
	}
	return strings.Join(out, ", ")
}
