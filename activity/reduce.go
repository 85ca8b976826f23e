package activity

import (
	"github.com/lessongen/lessongen/internal/nodemeta"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// Reports: what a reduce tells whoever dispatched the intent.
type (
	Set = nodemeta.Set
	// CriteriaAdded reports criteria added: at a placeholder, or as the
	// whole list.
	CriteriaAdded struct {
		Count     int    `json:"criteria_added"`
		PendingID string `json:"placed_at,omitempty"`
		Total     int    `json:"criteria"`
	}
	// Closed reports what ClosePlaceholders closed: criteria placeholders
	// close as they are filled, so none are left.
	Closed struct {
		Placeholders []string `json:"closed"`
	}
)

// textField is one of the activity's text values by name.
type textField struct {
	name  string
	field *yamlsrc.Field[string]
}

// textFields are the activity's text values in file order.
func (a *Activity) textFields() []textField {
	return []textField{{"instructions", &a.Instructions}, {"grouping", &a.Grouping}, {"model_answer", &a.ModelAnswer}, {"support", &a.Support}, {"stretch", &a.Stretch}}
}

// save copies everything a reduce may change and returns how to put it
// back: an activity is a few values, so every undo is exact.
func (a *Activity) save() (restore func()) {
	c := *a
	c.SuccessCriteria.Value = append([]Criterion(nil), a.SuccessCriteria.Value...)
	generated := a.meta.Generated()
	return func() {
		meta := a.meta
		*a = c
		a.meta = meta
		a.meta.Restore(generated)
	}
}

// Reduce applies one intent. See session.State.
func (a *Activity) Reduce(rc *session.Context, in session.Intent) (func(), error) {
	switch in.(type) {
	case DescribeActivity:
		rc.Report(a.Describe())
		return nil, nil
	case ListPending:
		rc.Report(a.Pending())
		return nil, nil
	}
	return nodemeta.Reduce(a.save, func() error { return a.apply(rc, in) })
}

// Recompile has nothing to re-derive: every rule is checked before a
// change commits.
func (a *Activity) Recompile(*session.Context, session.Intent) {}

// activityIntent is an intent an activity applies, each by its own
// applyTo (apply.go).
type activityIntent interface {
	applyTo(a *Activity, rc *session.Context) error
}

func (a *Activity) apply(rc *session.Context, in session.Intent) error {
	if ai, ok := in.(activityIntent); ok {
		return ai.applyTo(a, rc)
	}
	return session.Reject(session.KindInvalidArgs, "", "", "an activity cannot apply %T", in)
}
