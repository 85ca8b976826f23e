package quiz

import "github.com/lessongen/lessongen/session"

// metaNames are the quiz's own values provenance tracks, in file order.
var metaNames = []string{"kind", "instructions"}

func questionKey(id string) string { return "questions[" + id + "]" }

// questionContent is what a question's provenance hash covers: everything
// a save writes of it but the bookkeeping of an open placeholder.
func questionContent(qu *Question) any {
	if qu.kind() == TypeChoice && !qu.PupilHint.Set && !hasWhy(qu.Answers.Value) && !hasWhy(qu.Distractors.Value) {
		// the shape hashed before questions had types, so what an earlier
		// run recorded still matches
		return struct {
			Prompt               string
			Answers, Distractors []string
			Feedback             string
			Sources              []string
		}{qu.Prompt.Value, texts(qu.Answers.Value), texts(qu.Distractors.Value), qu.Feedback.Value, qu.Sources}
	}
	return struct {
		Type, Prompt         string
		Answers, Distractors []Choice
		Answer               Scalar
		Why, ModelAnswer     string
		Marks                int
		Tolerance            Scalar
		Unit                 string
		Items                []string
		Pairs                []Pair
		Hint, Feedback       string
		Sources              []string
	}{qu.Type, qu.Prompt.Value, qu.Answers.Value, qu.Distractors.Value, qu.Answer.Value, qu.Why.Value, qu.ModelAnswer.Value,
		qu.Marks.Value, qu.Tolerance.Value, qu.Unit.Value, qu.Items.Value, qu.Pairs.Value, qu.PupilHint.Value, qu.Feedback.Value, qu.Sources}
}

// metaField is the value of one of metaNames, and whether it is set.
func (q *Quiz) metaField(name string) (any, bool) {
	switch name {
	case "kind":
		return q.Kind.Value, q.Kind.Set
	case "instructions":
		return q.Instructions.Value, q.Instructions.Set
	}
	return "", false
}

// Generated maps what generation wrote in this quiz to its hash; see
// session.Provenance.
func (q *Quiz) Generated() map[string]string {
	out := q.meta.Hashes(metaNames, q.metaField)
	q.list().Hashes(out, questionKey, questionContent)
	return out
}

// Adopt marks what an earlier run generated, and nobody changed since, as
// generated; see session.Provenance.
func (q *Quiz) Adopt(marks map[string]string) {
	q.meta.Adopt(metaNames, q.metaField, marks)
	q.list().Adopt(marks, questionKey, questionContent)
}

// Ownership names the author's values (locked) and generation's
// (editable); see session.Provenance.
func (q *Quiz) Ownership(level session.Level) (locked, editable []string) {
	if level == session.LevelNode {
		return q.list().Owners()
	}
	return q.meta.Owners(metaNames, q.metaField)
}

// SetProtect turns the protection of the author's questions and values on
// or off; see session.Guarded.
func (q *Quiz) SetProtect(on bool) { q.Protect = on }

func hasWhy(cs []Choice) bool {
	for _, c := range cs {
		if c.Why.Set || c.Why.Pending {
			return true
		}
	}
	return false
}
