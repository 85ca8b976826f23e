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
	return firstProblem("options", checkOptions(opts, true, true))
}

// answerAt is where the answers stand among opts, 1-based. A model's
// question keeps it even when the answers come first (mine), since render
// shuffles options without it (Shown); an author's question does not
// (its order shown is a seeded shuffle), and options that are all answers
// need none.
func answerAt(opts []Option, mine bool) []int {
	var at []int
	first := true
	for i, o := range opts {
		if o.Correct {
			at = append(at, i+1)
			first = first && i+1 == len(at)
		}
	}
	if len(at) == len(opts) || first && !mine {
		return nil
	}
	return at
}

// split turns options into the answer and distractor lists the file holds,
// trimmed.
func split(opts []Option) (answers, distractors []Choice) {
	distractors = []Choice{}
	for _, o := range opts {
		c := Choice{Text: strings.TrimSpace(o.Text)}
		if why := strings.TrimSpace(o.Why); why != "" {
			c.Why = yamlsrc.Val(why)
		}
		if o.Correct {
			answers = append(answers, c)
		} else {
			distractors = append(distractors, c)
		}
	}
	return answers, distractors
}

func (q *Quiz) add(rc *session.Context, in AddQuestion) error {
	if err := checkChoices(in.Options); err != nil {
		return err
	}
	answers, distractors := split(in.Options)
	qu := &Question{Answers: yamlsrc.Val(answers), Distractors: yamlsrc.Val(distractors), AnswerAt: answerAt(in.Options, true)}
	if f := strings.TrimSpace(in.Feedback); f != "" {
		qu.Feedback = yamlsrc.Val(f)
	}
	return q.place(rc, qu, in.Prompt, Asked{Hint: in.Hint, Sources: in.Sources, Placing: in.Placing})
}

// place checks what every new question has (its prompt, hint, sources and
// chosen id), sets it on qu and adds qu to the list where in places it.
func (q *Quiz) place(rc *session.Context, qu *Question, prompt string, in Asked) error {
	prompt, err := nodemeta.NonEmpty("prompt", prompt)
	if err != nil {
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
	qu.ID, qu.Prompt, qu.Sources = in.ID, yamlsrc.Val(prompt), slices.Clone(in.Sources)
	if h := strings.TrimSpace(in.Hint); h != "" {
		qu.PupilHint = yamlsrc.Val(h)
	}
	if err := q.checkHint(qu); err != nil {
		return err
	}
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
	var fields []string
	for _, c := range []struct {
		name  string
		value *string
		field *yamlsrc.Field[string]
	}{{"prompt", in.Prompt, &qu.Prompt}, {"feedback", in.Feedback, &qu.Feedback}, {"hint", in.Hint, &qu.PupilHint}} {
		if c.value == nil {
			continue
		}
		if err := q.fill(qu, c.name, c.field, *c.value); err != nil {
			return err
		}
		fields = append(fields, c.name)
	}
	if in.Options != nil {
		changed, err := q.updateOptions(qu, in.Options)
		if err != nil {
			return err
		}
		fields = append(fields, changed...)
	}
	if cited, err := q.list().Cite(qu, in.Sources, q.Protect); err != nil {
		return err
	} else if cited {
		fields = append(fields, "sources")
	}
	if len(fields) == 0 {
		return session.Reject(session.KindInvalidArgs, "", "set at least one of prompt, options, feedback, hint, sources, with something new", "nothing to change")
	}
	if err := q.checkHint(qu); err != nil {
		return err
	}
	rc.Report(Changed{ID: qu.ID, Fields: fields})
	return nil
}

// protected refuses a change to a field of the author's that is written.
func (q *Quiz) protected(qu *Question, name string, set bool) error {
	if qu.Authored && q.Protect && set {
		return session.Reject(session.KindPrecondition, name, "only the author's pending fields can be filled", "%s of question %q was written by the author", name, qu.ID)
	}
	return nil
}

// fill sets a text field of qu, unless the author wrote it.
func (q *Quiz) fill(qu *Question, name string, field *yamlsrc.Field[string], value string) error {
	if err := q.protected(qu, name, field.Set); err != nil {
		return err
	}
	v, err := nodemeta.NonEmpty(name, value)
	if err != nil {
		return err
	}
	*field = yamlsrc.Val(v)
	return nil
}

// updateOptions replaces a choice question's options, or on the author's
// question fills only what is pending, and says which fields changed.
func (q *Quiz) updateOptions(qu *Question, opts []Option) ([]string, error) {
	if qu.kind() != TypeChoice {
		return nil, session.Reject(session.KindInvalidArgs, "options", "options are for choice questions; use the set_ tool of its type", "question %q is a %s question", qu.ID, qu.kind())
	}
	if err := checkChoices(opts); err != nil {
		return nil, err
	}
	answers, distractors := split(opts)
	var fields []string
	// An author's list stays as written: the options must repeat it, so
	// only the pending list (and pending whys) change.
	if qu.Authored && q.Protect {
		for _, l := range []struct {
			name, as string
			field    *yamlsrc.Field[[]Choice]
			given    *[]Choice
		}{{"answers", "correct", &qu.Answers, &answers}, {"distractors", "not correct", &qu.Distractors, &distractors}} {
			was := texts(l.field.Value)
			if !l.field.Pending && !slices.Equal(was, texts(*l.given)) && len(was)+len(*l.given) > 0 {
				return nil, session.Reject(session.KindPrecondition, "options",
					fmt.Sprintf("repeat the author's %s unchanged (%s) as options marked %s, and write only what is pending", l.name, quoteAll(was), l.as),
					"%s of question %q were written by the author", l.name, qu.ID)
			}
			if !l.field.Pending {
				*l.given = fillWhys(l.field.Value, *l.given)
			}
		}
	}
	if !qu.Answers.Set || !slices.EqualFunc(qu.Answers.Value, answers, sameChoice) {
		qu.Answers = yamlsrc.Val(answers)
		fields = append(fields, "answers")
	}
	// The order given is the order shown, unless the author placed
	// the answers.
	if at := answerAt(opts, !qu.Authored); !(qu.Authored && q.Protect && qu.authorAt) && !slices.Equal(qu.AnswerAt, at) {
		qu.AnswerAt = at
		fields = append(fields, "answer_at")
	}
	if !qu.Distractors.Set || !slices.EqualFunc(qu.Distractors.Value, distractors, sameChoice) {
		if len(distractors) > 0 || qu.Distractors.Set || qu.Distractors.Pending {
			qu.Distractors = yamlsrc.Val(distractors)
			fields = append(fields, "distractors")
		}
	}
	return fields, nil
}

// fillWhys is the author's choices with each pending why filled from the
// same option given, if it has one: the rest stays as written.
func fillWhys(authored, given []Choice) []Choice {
	out := slices.Clone(authored)
	for i := range out {
		if out[i].Why.Pending && given[i].Why.Set {
			out[i].Why = given[i].Why
		}
	}
	return out
}

func sameChoice(a, b Choice) bool {
	return a.Text == b.Text && a.Why == b.Why && a.mapped == b.mapped
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
