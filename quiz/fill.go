package quiz

import (
	"fmt"
	"strings"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// ofType returns question id if it is of type typ: each set_ tool fills
// the answer of one type.
func (q *Quiz) ofType(id, typ string) (*Question, error) {
	qu, ok := q.list().Get(id)
	if !ok {
		return nil, q.list().NotFound("id", id)
	}
	if qu.kind() != typ {
		return nil, session.Reject(session.KindInvalidArgs, "id", "use the set_ tool of its type, or update_question for a choice question's options", "question %q is a %s question, not %s", id, qu.kind(), typ)
	}
	return qu, nil
}

// fillValue sets a field of qu, unless the author wrote it.
func fillValue[T any](q *Quiz, qu *Question, name string, field *yamlsrc.Field[T], v T) error {
	if err := q.protected(qu, name, field.Set); err != nil {
		return err
	}
	*field = yamlsrc.Val(v)
	return nil
}

// changed reports the fields a set_ tool changed, or refuses a call that
// gave none of them.
func changed(rc *session.Context, qu *Question, fields []string, allowed string) error {
	if len(fields) == 0 {
		return session.Reject(session.KindInvalidArgs, "", "set at least one of "+allowed, "nothing to change")
	}
	rc.Report(Changed{ID: qu.ID, Fields: fields})
	return nil
}

// orderItems checks an ordering question's items as a model gave them,
// trimmed.
func orderItems(items []string) ([]string, error) {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = strings.TrimSpace(it)
	}
	return out, firstProblem("items", checkOrderItems(out))
}

// matchPairs checks a match question's pairs as a model gave them, trimmed.
func matchPairs(pairs []Pair) ([]Pair, error) {
	out := make([]Pair, len(pairs))
	for i, p := range pairs {
		out[i] = Pair{Left: strings.TrimSpace(p.Left), Right: strings.TrimSpace(p.Right)}
	}
	return out, firstProblem("pairs", checkPairs(out))
}

// firstProblem is the refusal for the first of ps, nil when there is none.
func firstProblem(list string, ps []optionProblem) error {
	if len(ps) == 0 {
		return nil
	}
	p, path := ps[0], list
	if p.index >= 0 {
		path = fmt.Sprintf("%s[%d]", list, p.index)
	}
	return session.Reject(session.KindInvalidArgs, path, p.hint, "%s", p.msg)
}

// giveaway is the answer a hint gives away word for word, or "": a hint
// is shown with the question, so it must not hold what the answer key
// holds. Short answers ("4", "no") would be found in any text.
func giveaway(qu *Question, hint string) string {
	hint = strings.ToLower(hint)
	var answers []string
	for _, c := range qu.Answers.Value {
		answers = append(answers, c.Text, c.Why.Value)
	}
	if qu.kind() == TypeNumeric {
		answers = append(answers, qu.Answer.Value.Raw)
	}
	answers = append(answers, qu.ModelAnswer.Value, qu.Why.Value)
	for _, a := range answers {
		if a = strings.TrimSpace(a); len([]rune(a)) >= 3 && strings.Contains(hint, strings.ToLower(a)) {
			return a
		}
	}
	return ""
}

// checkHint refuses a hint that gives the question's answer away, run
// whenever the hint or an answer changes. The author's own hint is the
// author's, which the model cannot change while Protect holds: its answer
// is not refused for it.
func (q *Quiz) checkHint(qu *Question) error {
	if qu.authorHint && q.Protect {
		return nil
	}
	if a := giveaway(qu, qu.PupilHint.Value); qu.PupilHint.Set && a != "" {
		return session.Reject(session.KindInvalidArgs, "hint", "nudge towards the answer without writing it; the answer belongs in the answer key", "the hint gives the answer %q away: students see the hint with the question", a)
	}
	return nil
}
