package quiz

import "github.com/lessongen/lessongen/session"

// The quiz's intents: its closed set of operations. Field tags feed the tool
// schemas models see: `json` names, `jsonschema` descriptions, and `enum`,
// `minimum`, `maximum`, `minItems`, `maxItems` constraints. The tags on
// SetKind.Kind and Choices.Options are also what the file and every dispatch
// are checked against (see rules.go), so each limit is written once.

// Option is one choice of a question as a model gives it.
type Option struct {
	Text    string `json:"text" jsonschema:"the option as students read it, short"`
	Correct bool   `json:"correct" jsonschema:"true for a right answer, false for a distractor"`
}

// Choices is a new question's options: required, and the one place their
// limits are written (see rules.go).
type Choices struct {
	Options []Option `json:"options" jsonschema:"the options students choose from, in the order they see them (render keeps it): at least one correct; every other one a distractor a student with a common misconception would choose; no option twice" minItems:"2" maxItems:"6"`
}

// NewChoices replaces a question's options, or keeps them when absent;
// its limits repeat Choices' for the schema (TestToolSchemaShowsTheRulesLimits
// checks both against the rules).
type NewChoices struct {
	Options []Option `json:"options,omitempty" jsonschema:"new options, in the order students see them, replacing the question's: as add_question's options" minItems:"2" maxItems:"6"`
}

// Placing is embedded in the add intent.
type Placing struct {
	ID        string `json:"id,omitempty" jsonschema:"optional id you choose for the question (a short slug: a letter, then letters, digits, - or _; at most 32 characters), unique in this quiz. Default: one is generated"`
	PendingID string `json:"pending_id,omitempty" jsonschema:"id of the pending placeholder this question fills (from list_pending); the question is placed there. Omit when there is only one"`
}

type SetKind struct {
	Kind string `json:"kind" jsonschema:"starter (recalls what students knew before), check (checks understanding during the lesson) or exit (shows what was learnt at the end)" enum:"starter,check,exit"`
}

type SetInstructions struct {
	Instructions string `json:"instructions" jsonschema:"one sentence telling students what to do, e.g. Choose one answer for each question."`
}

type AddQuestion struct {
	Prompt string `json:"prompt" jsonschema:"the question, one clear sentence at the lesson's grade"`
	Choices
	Feedback string   `json:"feedback,omitempty" jsonschema:"optional: why the answer is right, shown after answering, one or two sentences"`
	Sources  []string `json:"sources,omitempty" jsonschema:"where the question's content comes from in the author's sources: path:line or path:start-end, as read_source numbers lines. Omit when not written from a source"`
	Placing
}

// UpdateQuestion changes a question; unset fields stay.
type UpdateQuestion struct {
	ID     string  `json:"id" jsonschema:"id of the question to change"`
	Prompt *string `json:"prompt,omitempty" jsonschema:"new prompt"`
	NewChoices
	Feedback *string  `json:"feedback,omitempty" jsonschema:"new feedback"`
	Sources  []string `json:"sources,omitempty" jsonschema:"new citations of the author's sources (path:line or path:start-end); replaces the question's list"`
}

type RemoveQuestion struct {
	ID string `json:"id" jsonschema:"id of the question to remove"`
}

type MoveQuestion struct {
	ID       string `json:"id" jsonschema:"id of the question to move"`
	Position int    `json:"position" jsonschema:"new 1-based position among the questions" minimum:"1"`
}

// DescribeQuiz reports the quiz as it stands: read-only.
type DescribeQuiz struct{}

// ListPending reports what is still to be generated here: read-only.
type ListPending struct{}

// ApplyBinding fills a property bound by the slide's props, unless the
// property is already set. Hidden: the orchestrator applies bindings before
// any subagent runs, and a value set this way counts as given, not generated.
type ApplyBinding struct {
	Property string `json:"property"`
	Value    string `json:"value"`
}

// ClosePlaceholders removes placeholders that received questions. The
// orchestrator dispatches it when a node subagent finishes normally, so an
// interrupted run leaves the placeholder for the next run to continue.
type ClosePlaceholders struct{}

func (SetKind) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"kind"}, Doc: "Set what the quiz is for: a starter, a check for understanding, or an exit quiz."}
}
func (SetInstructions) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Fills: []string{"instructions"}, Doc: "Set the one-sentence instructions students read before the questions."}
}
func (AddQuestion) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Adds: true, Doc: "Add a multiple-choice question: a prompt, its options (right answers and distractors) and optional feedback."}
}
func (UpdateQuestion) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Doc: "Change a question you added, or fill a question's pending fields."}
}
func (RemoveQuestion) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Doc: "Remove a question you added."}
}
func (MoveQuestion) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Doc: "Move a question you added to another position."}
}
func (DescribeQuiz) Spec() session.Spec {
	return session.Spec{Capability: CapRead, ReadOnly: true, Doc: "Describe the quiz as it stands: kind, instructions and every question with its options."}
}
func (ListPending) Spec() session.Spec {
	return session.Spec{Capability: CapRead, ReadOnly: true, Doc: "List what is still to be generated in this quiz, with their briefs (the author's or an earlier assistant's) and placeholder ids."}
}
func (ApplyBinding) Spec() session.Spec {
	return session.Spec{Capability: CapMetadata, Hidden: true, Doc: "Fill a property bound by the slide's props."}
}
func (ClosePlaceholders) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Hidden: true, Doc: "Remove placeholders that received questions."}
}

// Intents lists one zero value of every quiz intent: the closed set.
func Intents() []session.Intent {
	return []session.Intent{
		SetKind{}, SetInstructions{},
		AddQuestion{}, UpdateQuestion{}, RemoveQuestion{}, MoveQuestion{},
		DescribeQuiz{}, ListPending{},
		ApplyBinding{}, ClosePlaceholders{},
		session.Undo{}, session.Redo{},
	}
}
