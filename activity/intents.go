package activity

import "github.com/lessongen/lessongen/session"

// The activity's intents: its closed set of operations. Field tags feed the
// tool schemas models see (`json` names, `jsonschema` descriptions, `enum`,
// `minimum`, `maximum`, `minItems`); the tags on SetGrouping and
// SetActivityMinutes are also what the file and every dispatch are checked
// against (rules.go), so each limit is written once.

type SetInstructions struct {
	Instructions string `json:"instructions" jsonschema:"what pupils are asked to do, in one to three sentences at the lesson's grade, addressed to them"`
}

type SetGrouping struct {
	Grouping string `json:"grouping" jsonschema:"who works together: individual (alone), pairs, groups (three to five) or class (all together, led by the teacher)" enum:"individual,pairs,groups,class"`
}

// SetActivityMinutes is named apart from the lesson's set_duration, so a
// model reading tools of both levels cannot mistake one for the other.
type SetActivityMinutes struct {
	DurationMinutes int `json:"duration_minutes" jsonschema:"minutes the task takes, within the slide's minutes" minimum:"1" maximum:"120"`
}

type SetModelAnswer struct {
	ModelAnswer string `json:"model_answer" jsonschema:"the answer the teacher reveals after the task: what a pupil meeting every success criterion would write. Teacher-only: it is never shown to pupils before the reveal"`
}

type AddSuccessCriteria struct {
	Criteria  []string `json:"criteria" jsonschema:"what a good answer does, one short line each, as pupils can check their own work against it (e.g. names the command, gives a reason)" minItems:"1" maxItems:"6"`
	PendingID string   `json:"pending_id,omitempty" jsonschema:"id of the pending placeholder these criteria fill (from list_pending); they are placed there. Omit when the whole list is pending or there is only one"`
}

type SetSupport struct {
	Support string `json:"support" jsonschema:"help for pupils who need it: a sentence starter, a hint or a simpler first step; never the answer"`
}

type SetStretch struct {
	Stretch string `json:"stretch" jsonschema:"a further question or task for pupils who finish early, harder than the task"`
}

// DescribeActivity reports the activity as it stands: read-only.
type DescribeActivity struct{}

// ListPending reports what is still to be generated here: read-only.
type ListPending struct{}

// ClosePlaceholders is the close every child kind has. A criteria
// placeholder is replaced by what fills it in the same call, so there is
// nothing left to close; it reports that.
type ClosePlaceholders struct{}

func (SetInstructions) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"instructions"}, Doc: "Set the activity's instructions: what pupils are asked to do."}
}
func (SetGrouping) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"grouping"}, Doc: "Set how pupils work on the activity: individual, pairs, groups or class."}
}
func (SetActivityMinutes) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"duration_minutes"}, Doc: "Set how many minutes the activity takes."}
}
func (SetModelAnswer) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Fills: []string{"model_answer"}, Doc: "Set the model answer the teacher reveals after the task (teacher-only)."}
}
func (AddSuccessCriteria) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Fills: []string{"success_criteria", "success_criteria[*]"}, Doc: "Add success criteria: what a good answer does, as pupils check their work against it."}
}
func (SetSupport) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Fills: []string{"support"}, Doc: "Set the support offered to pupils who need help with the activity."}
}
func (SetStretch) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Fills: []string{"stretch"}, Doc: "Set the stretch task for pupils who finish the activity early."}
}
func (DescribeActivity) Spec() session.Spec {
	return session.Spec{Capability: CapRead, ReadOnly: true, Doc: "Describe the activity as it stands: instructions, grouping, minutes, criteria, support, stretch and whether a model answer is written."}
}
func (ListPending) Spec() session.Spec {
	return session.Spec{Capability: CapRead, ReadOnly: true, Doc: "List what is still pending in this activity, with briefs and placeholder ids."}
}
func (ClosePlaceholders) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Hidden: true, Doc: "Close placeholders that received criteria."}
}

// Intents lists one zero value of every activity intent: the closed set.
func Intents() []session.Intent {
	return []session.Intent{
		SetInstructions{}, SetGrouping{}, SetActivityMinutes{},
		SetModelAnswer{}, AddSuccessCriteria{}, SetSupport{}, SetStretch{},
		DescribeActivity{}, ListPending{},
		ClosePlaceholders{},
		session.Undo{}, session.Redo{},
	}
}
