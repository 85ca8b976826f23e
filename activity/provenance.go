package activity

import "github.com/lessongen/lessongen/session"

// metaNames are the activity's values provenance tracks, in file order; the
// metadata level owns the first three, the node level the rest.
var metaNames = []string{"instructions", "grouping", "duration_minutes", "model_answer", "success_criteria", "support", "stretch"}

// value is the value of one of metaNames, and whether it is set.
func (a *Activity) value(name string) (any, bool) {
	switch name {
	case "duration_minutes":
		return a.DurationMinutes.Value, a.DurationMinutes.Set
	case "success_criteria":
		return a.criteria(), a.SuccessCriteria.Set
	}
	for _, f := range a.textFields() {
		if f.name == name {
			return f.field.Value, f.field.Set
		}
	}
	return nil, false
}

// Generated maps what generation wrote in this activity to its hash; see
// session.Provenance.
func (a *Activity) Generated() map[string]string { return a.meta.Hashes(metaNames, a.value) }

// Adopt marks what an earlier run generated, and nobody changed since, as
// generated; see session.Provenance.
func (a *Activity) Adopt(marks map[string]string) { a.meta.Adopt(metaNames, a.value, marks) }

// Ownership names the author's values (locked) and generation's
// (editable) at level; see session.Provenance.
func (a *Activity) Ownership(level session.Level) (locked, editable []string) {
	names := metaNames[:3]
	if level == session.LevelNode {
		names = metaNames[3:]
	}
	return a.meta.Owners(names, a.value)
}

// SetProtect turns the protection of the author's values on or off; see
// session.Guarded.
func (a *Activity) SetProtect(on bool) { a.Protect = on }
