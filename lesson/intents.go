package lesson

import "github.com/lessongen/lessongen/session"

// The lesson's intents: its closed set of operations. Field tags feed the
// tool schemas models see: `json` names, `jsonschema` descriptions, and
// `enum`, `minimum`, `maximum` constraints.

type SetTitle struct {
	Title string `json:"title" jsonschema:"the lesson's title, a few words"`
}

type SetSubject struct {
	Subject string `json:"subject" jsonschema:"the school subject, e.g. biology"`
}

type SetGrade struct {
	Grade string `json:"grade" jsonschema:"the grade, year group or audience as the curriculum names it, e.g. 7, K, KS1 or adult learners"`
}

type SetDuration struct {
	Minutes int `json:"minutes" jsonschema:"total lesson length in minutes" minimum:"5" maximum:"600"`
}

type SetLanguage struct {
	Language string `json:"language" jsonschema:"the language the lesson is taught in, as a BCP 47 tag such as en or de-CH"`
}

type SetObjectives struct {
	Objectives []Item `json:"objectives" jsonschema:"learning objectives, each one measurable sentence starting with a verb, or in the form the author's brief asks for (which wins); give one as {text, sources} to cite where it comes from" minItems:"1" maxItems:"8"`
	PendingID  string `json:"pending_id,omitempty" jsonschema:"id of the placeholder in the author's list that these items fill (from list_pending): they go there and the author's items stay. Omit when the whole list is pending"`
}

type SetVocabulary struct {
	Terms     []Term `json:"terms" jsonschema:"key terms with definitions" minItems:"1" maxItems:"20"`
	PendingID string `json:"pending_id,omitempty" jsonschema:"id of the placeholder in the author's list that these items fill (from list_pending): they go there and the author's items stay. Omit when the whole list is pending"`
}

type SetPrerequisites struct {
	Prerequisites []string `json:"prerequisites" jsonschema:"what students should already know, one item each" minItems:"1" maxItems:"10"`
}

type SetStandards struct {
	Standards []string `json:"standards" jsonschema:"curriculum standard codes the lesson addresses, e.g. MS-LS1-6" minItems:"1" maxItems:"10"`
}

type SetKeyLearningPoints struct {
	Points    []Item `json:"points" jsonschema:"what every student should take away, one statement of fact or skill each; give one as {text, sources} to cite where it comes from" minItems:"1" maxItems:"8"`
	PendingID string `json:"pending_id,omitempty" jsonschema:"id of the placeholder in the author's list that these items fill (from list_pending): they go there and the author's items stay. Omit when the whole list is pending"`
}

type SetMisconceptions struct {
	Misconceptions []Misconception `json:"misconceptions" jsonschema:"mistaken ideas students of this grade commonly hold about the topic, each with the teacher's response" minItems:"1" maxItems:"8"`
	PendingID      string          `json:"pending_id,omitempty" jsonschema:"id of the placeholder in the author's list that these items fill (from list_pending): they go there and the author's items stay. Omit when the whole list is pending"`
}

type SetMaterials struct {
	Materials []Item `json:"materials" jsonschema:"what the teacher needs in the room, one item each, e.g. 30 printed maps; give one as {text, sources} to cite where it comes from" minItems:"1" maxItems:"15"`
	PendingID string `json:"pending_id,omitempty" jsonschema:"id of the placeholder in the author's list that these items fill (from list_pending): they go there and the author's items stay. Omit when the whole list is pending"`
}

// RespondToMisconception writes the response to one misconception the
// author listed with a pending response.
type RespondToMisconception struct {
	Misconception string   `json:"misconception" jsonschema:"the misconception exactly as the lesson lists it"`
	Response      string   `json:"response" jsonschema:"how the teacher answers it: what to say or show, one or two sentences"`
	Sources       []string `json:"sources,omitempty" jsonschema:"where the response comes from in the author's sources: path:line or path:start-end, as read_source numbers lines. Omit when not written from a source"`
}

// DefineTerm writes the definition of one vocabulary term the author
// listed with a pending definition.
type DefineTerm struct {
	Term       string   `json:"term" jsonschema:"the term exactly as the vocabulary lists it"`
	Definition string   `json:"definition" jsonschema:"a definition pitched at the lesson's grade, one sentence"`
	Sources    []string `json:"sources,omitempty" jsonschema:"where the definition comes from in the author's sources: path:line or path:start-end, as read_source numbers lines. Omit when not written from a source"`
}

// SetOutcome sets the lesson's one outcome.
type SetOutcome struct {
	Outcome string `json:"outcome" jsonschema:"the lesson's one outcome: what pupils can do by its end, one sentence in the form the author's brief asks for (e.g. I can explain why the Romans left Britain)"`
}

type SetKeyQuestions struct {
	Questions []Item `json:"questions" jsonschema:"the questions the lesson answers, as a learner would ask them (How can I create, copy and delete files?); give one as {text, sources} to cite where it comes from" minItems:"1" maxItems:"6"`
	PendingID string `json:"pending_id,omitempty" jsonschema:"id of the placeholder in the author's list that these items fill (from list_pending): they go there and the author's items stay. Omit when the whole list is pending"`
}

// SetSections sets the lesson's learning cycles.
type SetSections struct {
	Sections  []SectionArg `json:"sections" jsonschema:"the lesson's learning cycles in teaching order, each with its outcome and minutes; their minutes add up to the lesson's" minItems:"1" maxItems:"8"`
	PendingID string       `json:"pending_id,omitempty" jsonschema:"id of the placeholder in the author's list that these items fill (from list_pending): they go there and the author's items stay. Omit when the whole list is pending"`
}

// FillSection writes the pending outcome or minutes of one section the
// author declared.
type FillSection struct {
	Name            string  `json:"name" jsonschema:"the section's name exactly as the lesson lists it"`
	Outcome         *string `json:"outcome,omitempty" jsonschema:"what pupils can do by the end of the cycle, one sentence; only when its outcome is pending"`
	DurationMinutes *int    `json:"duration_minutes,omitempty" jsonschema:"minutes the cycle takes; only when its minutes are pending" minimum:"1" maximum:"600"`
}

// SetLicence sets the lesson's licence.
type SetLicence struct {
	Licence string `json:"licence" jsonschema:"the SPDX id or expression of the licence, e.g. CC-BY-4.0, CC-BY-NC-SA-4.0 or MIT; the licence of the work the lesson adapts when it adapts one"`
}

// SetAttribution credits the work the lesson is adapted from.
type SetAttribution struct {
	Text string `json:"text" jsonschema:"who made the work the lesson is adapted from, and what it is, e.g. Adapted from The Unix Shell, Software Carpentry"`
	URL  string `json:"url,omitempty" jsonschema:"a link to the original work (http or https), when known; never invent one"`
}

// AddSlide places a new slide; its children are generated afterwards from
// their briefs. Its tool takes one brief per registered child kind, named
// for the kind (whiteboard, quiz, activity, ...): the bridge adds them
// from the registry (modality.Briefed), and Briefs holds them by kind.
type AddSlide struct {
	ID              string `json:"id,omitempty" jsonschema:"optional id you choose for the slide (a short slug: a letter, then letters, digits, - or _; at most 32 characters), unique in this lesson. Default: one made from the title"`
	Title           string `json:"title" jsonschema:"the slide's title"`
	Section         string `json:"section" jsonschema:"the section the slide belongs to: one of the lesson's sections by name when it declares them, else the lesson phase, e.g. Engage, Explore, Explain, Elaborate, Evaluate"`
	DurationMinutes int    `json:"duration_minutes" jsonschema:"minutes spent on the slide" minimum:"1" maximum:"120"`
	Notes           string `json:"notes" jsonschema:"speaker notes for the teacher (not shown on the slide)"`
	// Briefs are the briefs of the slide's children, by kind; in a tool
	// call each is a property named for its kind (see briefs.go).
	Briefs    map[string]string `json:"-"`
	PendingID string            `json:"pending_id,omitempty" jsonschema:"id of the pending placeholder this slide fills (from list_pending); the slide is placed there. Omit when there is only one"`
	Position  int               `json:"position,omitempty" jsonschema:"1-based position to insert at when not filling a placeholder; default: at the end" minimum:"1"`
	Sources   []string          `json:"sources,omitempty" jsonschema:"where the slide's content comes from in the author's sources: path:line or path:start-end, as read_source numbers lines. Omit when not written from a source"`
}

// UpdateSlide changes fields of one slide; unset fields stay.
type UpdateSlide struct {
	ID              string   `json:"id" jsonschema:"id of the slide to change"`
	Title           *string  `json:"title,omitempty" jsonschema:"new title"`
	Section         *string  `json:"section,omitempty" jsonschema:"new section"`
	DurationMinutes *int     `json:"duration_minutes,omitempty" jsonschema:"new duration in minutes" minimum:"1" maximum:"120"`
	Notes           *string  `json:"notes,omitempty" jsonschema:"new speaker notes"`
	Sources         []string `json:"sources,omitempty" jsonschema:"new citations of the author's sources (path:line or path:start-end); replaces the slide's list"`
}

type MoveSlide struct {
	ID       string `json:"id" jsonschema:"id of the slide to move"`
	Position int    `json:"position" jsonschema:"new 1-based position" minimum:"1"`
}

type RemoveSlide struct {
	ID string `json:"id" jsonschema:"id of the slide to remove"`
}

// DescribeLesson reports the lesson and its outline: read-only.
type DescribeLesson struct{}

// ListPending reports what is still to be generated in the lesson: read-only.
type ListPending struct{}

// SetSlideProps replaces a slide's bindings. Hidden: bindings are the
// author's, not a model's.
type SetSlideProps struct {
	ID    string            `json:"id"`
	Props map[string]string `json:"props"`
}

// ClosePlaceholders removes slide placeholders that received slides; the
// orchestrator dispatches it when the node subagent finishes normally.
type ClosePlaceholders struct{}

func (SetTitle) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"metadata.title"}, Doc: "Set the lesson's title."}
}
func (SetSubject) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"metadata.subject"}, Doc: "Set the lesson's subject."}
}
func (SetGrade) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"metadata.grade"}, Doc: "Set the grade the lesson is for."}
}
func (SetDuration) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"metadata.duration_minutes"}, Doc: "Set the lesson's total duration in minutes."}
}
func (SetLanguage) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"metadata.language"}, Doc: "Set the language the lesson is taught in."}
}
func (SetObjectives) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"metadata.objectives", "metadata.objectives[*]"}, Doc: "Set the lesson's learning objectives, or add objectives at a placeholder in the author's list."}
}
func (SetVocabulary) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"metadata.vocabulary", "metadata.vocabulary[*]"}, Doc: "Set the lesson's key vocabulary with definitions, or add terms at a placeholder in the author's list."}
}
func (SetPrerequisites) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"metadata.prerequisites"}, Doc: "Set what students need to know before the lesson."}
}
func (SetStandards) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"metadata.standards"}, Doc: "Set the curriculum standards the lesson addresses."}
}
func (SetKeyLearningPoints) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"metadata.key_learning_points", "metadata.key_learning_points[*]"}, Doc: "Set the lesson's key learning points, or add points at a placeholder in the author's list."}
}
func (SetMisconceptions) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"metadata.misconceptions", "metadata.misconceptions[*]"}, Doc: "Set the misconceptions students commonly hold about the topic, each with how the teacher responds, or add them at a placeholder in the author's list."}
}
func (SetMaterials) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"metadata.materials", "metadata.materials[*]"}, Doc: "Set the materials the teacher needs in the room, or add them at a placeholder in the author's list."}
}
func (RespondToMisconception) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"metadata.misconceptions[*].response"}, Doc: "Write the teacher's response to a misconception whose response is pending."}
}
func (DefineTerm) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"metadata.vocabulary[*].definition"}, Doc: "Write the definition of a vocabulary term whose definition is pending."}
}
func (SetOutcome) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"metadata.outcome"}, Doc: "Set the lesson's one outcome."}
}
func (SetKeyQuestions) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"metadata.key_questions", "metadata.key_questions[*]"}, Doc: "Set the learner-facing key questions the lesson answers, or add them at a placeholder in the author's list."}
}
func (SetSections) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"metadata.sections", "metadata.sections[*]"}, Doc: "Set the lesson's learning cycles (sections), each with its outcome and minutes, or add them at a placeholder in the author's list."}
}
func (FillSection) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"metadata.sections[*].outcome", "metadata.sections[*].duration_minutes"}, Doc: "Write the pending outcome or minutes of a section the author declared."}
}
func (SetLicence) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"metadata.licence"}, Doc: "Set the lesson's licence, as an SPDX id or expression."}
}
func (SetAttribution) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"metadata.attribution"}, Doc: "Credit the work the lesson is adapted from."}
}
func (AddSlide) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Adds: true, Doc: "Add a slide: title, section, duration, speaker notes and a brief for its whiteboard; a brief for its quiz or activity only when the hint of the placeholder it fills, or the author's instruction, asks for one."}
}
func (UpdateSlide) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Doc: "Change fields of a slide you added, or fill a slide's pending fields."}
}
func (MoveSlide) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Doc: "Move a slide you added to another position."}
}
func (RemoveSlide) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Doc: "Remove a slide you added."}
}
func (DescribeLesson) Spec() session.Spec {
	return session.Spec{Capability: CapRead, ReadOnly: true, Doc: "Describe the lesson as it stands: metadata and the outline of its slides."}
}
func (ListPending) Spec() session.Spec {
	return session.Spec{Capability: CapRead, ReadOnly: true, Doc: "List what is still pending in the lesson, with briefs and placeholder ids."}
}
func (SetSlideProps) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Hidden: true, Doc: "Replace a slide's property bindings."}
}
func (ClosePlaceholders) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Hidden: true, Doc: "Remove placeholders that received slides."}
}

func (in UpdateSlide) Target() string { return in.ID }
func (in MoveSlide) Target() string   { return in.ID }
func (in RemoveSlide) Target() string { return in.ID }

// Intents lists one zero value of every lesson intent: the closed set.
func Intents() []session.Intent {
	return []session.Intent{
		SetTitle{}, SetSubject{}, SetGrade{}, SetDuration{}, SetLanguage{},
		SetObjectives{}, SetVocabulary{}, SetPrerequisites{}, SetStandards{},
		SetKeyLearningPoints{}, SetMisconceptions{}, SetMaterials{}, DefineTerm{}, RespondToMisconception{},
		SetOutcome{}, SetKeyQuestions{}, SetSections{}, FillSection{}, SetLicence{}, SetAttribution{},
		AddSlide{}, UpdateSlide{}, MoveSlide{}, RemoveSlide{}, AddCallout{},
		DescribeLesson{}, ListPending{},
		SetSlideProps{}, ClosePlaceholders{},
		session.Undo{}, session.Redo{},
	}
}
