package quiz

import (
	"slices"
	"strings"

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
