package activity

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// One apply per intent: Activity.apply dispatches each intent to its own
// applyTo, which changes the activity or refuses; Reduce undoes a refused
// change from its snapshot.

func (in SetInstructions) applyTo(a *Activity, rc *session.Context) error {
	return a.meta.SetText(rc, "instructions", &a.Instructions, in.Instructions, a.Protect)
}

func (in SetGrouping) applyTo(a *Activity, rc *session.Context) error {
	if !groupingRule().Allows(in.Grouping) {
		return session.Reject(session.KindInvalidArgs, "grouping", "use "+words(Groupings()), "unknown grouping %q", in.Grouping)
	}
	return a.meta.SetText(rc, "grouping", &a.Grouping, in.Grouping, a.Protect)
}

func (in SetActivityMinutes) applyTo(a *Activity, rc *session.Context) error {
	if err := a.meta.Writable("duration_minutes", a.DurationMinutes.Set, a.Protect); err != nil {
		return err
	}
	if !minutesRule().In(float64(in.DurationMinutes)) {
		return session.Reject(session.KindInvalidArgs, "duration_minutes", "an activity takes "+minutesRule().Range()+" minutes", "%d minutes is out of range", in.DurationMinutes)
	}
	a.DurationMinutes = yamlsrc.Val(in.DurationMinutes)
	a.meta.Mark("duration_minutes")
	rc.Report(Set{Field: "duration_minutes", Value: in.DurationMinutes})
	return nil
}

func (in SetModelAnswer) applyTo(a *Activity, rc *session.Context) error {
	return a.meta.SetText(rc, "model_answer", &a.ModelAnswer, in.ModelAnswer, a.Protect)
}

func (in SetSupport) applyTo(a *Activity, rc *session.Context) error {
	return a.meta.SetText(rc, "support", &a.Support, in.Support, a.Protect)
}

func (in SetStretch) applyTo(a *Activity, rc *session.Context) error {
	return a.meta.SetText(rc, "stretch", &a.Stretch, in.Stretch, a.Protect)
}

// applyTo adds criteria: at a placeholder of the author's list (the one
// named, or the only one), or as the whole list when it is pending or
// generation wrote it.
func (in AddSuccessCriteria) applyTo(a *Activity, rc *session.Context) error {
	var with []Criterion
	for i, c := range in.Criteria {
		if blank(c) {
			return session.Reject(session.KindInvalidArgs, fmt.Sprintf("criteria[%d]", i), "write the criterion or leave it out", "criterion %d is empty", i+1)
		}
		with = append(with, Criterion{Text: strings.TrimSpace(c)})
	}
	if !criteriaRule().Count(len(with)) {
		return session.Reject(session.KindInvalidArgs, "criteria", "give "+criteriaRule().Items()+" criteria", "%s", plural(len(with), "criterion"))
	}
	f := &a.SuccessCriteria
	open := len(yamlsrc.OpenSpots(f.Value)) > 0
	switch {
	case in.PendingID != "" || open:
		out, ph, err := yamlsrc.FillPlaceholder(f.Value, in.PendingID, with)
		if err != nil {
			return session.Reject(session.KindNotFound, "pending_id", err.Error(), "success_criteria: no placeholder to fill")
		}
		f.Value = out
		rc.Report(CriteriaAdded{Count: len(with), PendingID: ph.PlaceholderID, Total: len(a.criteria())})
		return nil
	case f.Set && !a.meta.Own("success_criteria") && a.Protect:
		// The author's criteria are locked; new ones go after them and
		// are generation's, added to what it appended before.
		n := a.meta.Appended("success_criteria")
		f.Value = append(slices.Clip(f.Value), with...)
		a.meta.AppendTo("success_criteria", n+len(with))
		rc.Report(CriteriaAdded{Count: len(with), Total: len(a.criteria())})
		return nil
	}
	if f.Set && a.meta.Own("success_criteria") {
		with = append(append([]Criterion(nil), f.Value...), with...)
	}
	*f = yamlsrc.Val(with)
	a.meta.Mark("success_criteria")
	rc.Report(CriteriaAdded{Count: len(in.Criteria), Total: len(a.criteria())})
	return nil
}

func (ClosePlaceholders) applyTo(_ *Activity, rc *session.Context) error {
	rc.Report(Closed{Placeholders: []string{}})
	return nil
}
