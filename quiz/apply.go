package quiz

import (
	"slices"
	"strings"

	"github.com/lessongen/lessongen/internal/nodemeta"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// One apply per intent: Quiz.apply dispatches each intent to its own
// applyTo, which changes the quiz or refuses; Reduce undoes a refused
// change from its snapshot.

func (in SetKind) applyTo(q *Quiz, rc *session.Context) error {
	if !slices.Contains(Kinds(), in.Kind) {
		return session.Reject(session.KindInvalidArgs, "kind", "use "+listWords(Kinds()), "unknown quiz kind %q", in.Kind)
	}
	return q.meta.SetText(rc, "kind", &q.Kind, in.Kind, q.Protect)
}

func (in SetInstructions) applyTo(q *Quiz, rc *session.Context) error {
	return q.meta.SetText(rc, "instructions", &q.Instructions, in.Instructions, q.Protect)
}

func (in ApplyBinding) applyTo(q *Quiz, rc *session.Context) error {
	f := q.bindable(in.Property)
	if f == nil {
		return session.Reject(session.KindInvalidArgs, "property", "bindable: "+strings.Join(Bindable(), ", "), "no bindable property %q", in.Property)
	}
	if in.Property == "kind" && !slices.Contains(Kinds(), in.Value) {
		return session.Reject(session.KindInvalidArgs, "value", "a quiz's kind is "+listWords(Kinds()), "unknown quiz kind %q", in.Value)
	}
	if !f.Set || q.meta.Bound(in.Property) {
		q.meta.Bind(in.Property, f, in.Value)
		rc.Report(Set{Field: in.Property, Value: in.Value})
	}
	return nil
}

func (in AddQuestion) applyTo(q *Quiz, rc *session.Context) error {
	return q.add(rc, in)
}

func (in UpdateQuestion) applyTo(q *Quiz, rc *session.Context) error {
	return q.update(rc, in)
}

func (in RemoveQuestion) applyTo(q *Quiz, rc *session.Context) error {
	qu, err := q.list().Editable(in.ID, q.Protect)
	if err != nil {
		return err
	}
	q.list().Remove(qu)
	rc.Report(Removed{ID: in.ID})
	return nil
}

func (in MoveQuestion) applyTo(q *Quiz, rc *session.Context) error {
	qu, err := q.list().Editable(in.ID, q.Protect)
	if err != nil {
		return err
	}
	if _, err := q.list().Move(qu, in.Position); err != nil {
		return err
	}
	rc.Report(Moved{ID: qu.ID, Position: in.Position})
	return nil
}

func (in ClosePlaceholders) applyTo(q *Quiz, rc *session.Context) error {
	closed, _ := q.list().Close()
	rc.Report(Closed{Placeholders: closed})
	return nil
}

func (in AddTrueFalseQuestion) applyTo(q *Quiz, rc *session.Context) error {
	why, err := nodemeta.NonEmpty("why", in.Why)
	if err != nil {
		return err
	}
	qu := &Question{Type: TypeTrueFalse, Answer: yamlsrc.Val(BoolScalar(in.Answer)), Why: yamlsrc.Val(why)}
	return q.place(rc, qu, in.Prompt, in.Asked)
}

func (in AddShortAnswerQuestion) applyTo(q *Quiz, rc *session.Context) error {
	model, err := nodemeta.NonEmpty("model_answer", in.ModelAnswer)
	if err != nil {
		return err
	}
	if msg := checkMarks(in.Marks); msg != "" {
		return session.Reject(session.KindInvalidArgs, "marks", "", "%s", msg)
	}
	qu := &Question{Type: TypeShort, ModelAnswer: yamlsrc.Val(model), Marks: yamlsrc.Val(in.Marks)}
	return q.place(rc, qu, in.Prompt, in.Asked)
}

func (in AddNumericQuestion) applyTo(q *Quiz, rc *session.Context) error {
	if msg := checkTolerance(in.Tolerance); msg != "" {
		return session.Reject(session.KindInvalidArgs, "tolerance", "", "%s", msg)
	}
	qu := &Question{Type: TypeNumeric, Answer: yamlsrc.Val(NumberScalar(in.Answer)), Tolerance: yamlsrc.Val(NumberScalar(in.Tolerance))}
	if u := strings.TrimSpace(in.Unit); u != "" {
		qu.Unit = yamlsrc.Val(u)
	}
	return q.place(rc, qu, in.Prompt, in.Asked)
}

func (in AddOrderingQuestion) applyTo(q *Quiz, rc *session.Context) error {
	items, err := orderItems(in.Items)
	if err != nil {
		return err
	}
	return q.place(rc, &Question{Type: TypeOrder, Items: yamlsrc.Val(items)}, in.Prompt, in.Asked)
}

func (in AddMatchingQuestion) applyTo(q *Quiz, rc *session.Context) error {
	pairs, err := matchPairs(in.Pairs)
	if err != nil {
		return err
	}
	return q.place(rc, &Question{Type: TypeMatch, Pairs: yamlsrc.Val(pairs)}, in.Prompt, in.Asked)
}

func (in SetTrueFalseAnswer) applyTo(q *Quiz, rc *session.Context) error {
	qu, err := q.ofType(in.ID, TypeTrueFalse)
	if err != nil {
		return err
	}
	var fields []string
	if in.Answer != nil {
		if err := fillValue(q, qu, "answer", &qu.Answer, BoolScalar(*in.Answer)); err != nil {
			return err
		}
		fields = append(fields, "answer")
	}
	if in.Why != nil {
		if err := q.fill(qu, "why", &qu.Why, *in.Why); err != nil {
			return err
		}
		fields = append(fields, "why")
	}
	if err := q.checkHint(qu); err != nil {
		return err
	}
	return changed(rc, qu, fields, "answer, why")
}

func (in SetModelAnswer) applyTo(q *Quiz, rc *session.Context) error {
	qu, err := q.ofType(in.ID, TypeShort)
	if err != nil {
		return err
	}
	var fields []string
	if in.ModelAnswer != nil {
		if err := q.fill(qu, "model_answer", &qu.ModelAnswer, *in.ModelAnswer); err != nil {
			return err
		}
		fields = append(fields, "model_answer")
	}
	if in.Marks != nil {
		if msg := checkMarks(*in.Marks); msg != "" {
			return session.Reject(session.KindInvalidArgs, "marks", "", "%s", msg)
		}
		if err := fillValue(q, qu, "marks", &qu.Marks, *in.Marks); err != nil {
			return err
		}
		fields = append(fields, "marks")
	}
	if err := q.checkHint(qu); err != nil {
		return err
	}
	return changed(rc, qu, fields, "model_answer, marks")
}

func (in SetNumericAnswer) applyTo(q *Quiz, rc *session.Context) error {
	qu, err := q.ofType(in.ID, TypeNumeric)
	if err != nil {
		return err
	}
	var fields []string
	if in.Answer != nil {
		if err := fillValue(q, qu, "answer", &qu.Answer, NumberScalar(*in.Answer)); err != nil {
			return err
		}
		fields = append(fields, "answer")
	}
	if in.Tolerance != nil {
		if msg := checkTolerance(*in.Tolerance); msg != "" {
			return session.Reject(session.KindInvalidArgs, "tolerance", "", "%s", msg)
		}
		if err := fillValue(q, qu, "tolerance", &qu.Tolerance, NumberScalar(*in.Tolerance)); err != nil {
			return err
		}
		fields = append(fields, "tolerance")
	}
	if in.Unit != nil {
		if err := q.fill(qu, "unit", &qu.Unit, *in.Unit); err != nil {
			return err
		}
		fields = append(fields, "unit")
	}
	if err := q.checkHint(qu); err != nil {
		return err
	}
	return changed(rc, qu, fields, "answer, tolerance, unit")
}

func (in SetCorrectOrder) applyTo(q *Quiz, rc *session.Context) error {
	qu, err := q.ofType(in.ID, TypeOrder)
	if err != nil {
		return err
	}
	items, err := orderItems(in.Items)
	if err != nil {
		return err
	}
	if err := fillValue(q, qu, "items", &qu.Items, items); err != nil {
		return err
	}
	return changed(rc, qu, []string{"items"}, "items")
}

func (in SetMatchPairs) applyTo(q *Quiz, rc *session.Context) error {
	qu, err := q.ofType(in.ID, TypeMatch)
	if err != nil {
		return err
	}
	pairs, err := matchPairs(in.Pairs)
	if err != nil {
		return err
	}
	if err := fillValue(q, qu, "pairs", &qu.Pairs, pairs); err != nil {
		return err
	}
	return changed(rc, qu, []string{"pairs"}, "pairs")
}
