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
	Why     string `json:"why,omitempty" jsonschema:"optional: why this option is right, or for a distractor the misconception that makes it tempting and why it is wrong; the answer key's, never shown to students before the reveal"`
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
	ID        string `json:"id,omitempty" jsonschema:"your short id; omit for a generated one"`
	PendingID string `json:"pending_id,omitempty" jsonschema:"placeholder id; omit if only one"`
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
	Hint     string   `json:"hint,omitempty" jsonschema:"optional: a nudge for a stuck student, shown with the question, never the answer"`
	Sources  []string `json:"sources,omitempty" jsonschema:"where the question's content comes from in the author's sources: path:line or path:start-end, as read_source numbers lines. Omit when not written from a source"`
	Placing
}

// Asked is what every new question carries besides its prompt and answer:
// a hint, its sources and where it goes.
type Asked struct {
	Hint    string   `json:"hint,omitempty" jsonschema:"optional: a nudge for a stuck student, shown with the question, never the answer"`
	Sources []string `json:"sources,omitempty" jsonschema:"where the question's content comes from in the author's sources: path:line or path:start-end, as read_source numbers lines. Omit when not written from a source"`
	Placing
}

// AddTrueFalseQuestion adds a statement students judge true or false.
type AddTrueFalseQuestion struct {
	Prompt string `json:"prompt" jsonschema:"a statement students judge true or false, one clear sentence at the lesson's grade (a statement, not a question)"`
	Answer bool   `json:"answer" jsonschema:"true if the statement is true, false if it is false"`
	Why    string `json:"why" jsonschema:"why the statement is true or false, one or two sentences: the answer key's, shown only after the reveal"`
	Asked
}

// AddShortAnswerQuestion adds a question students answer in writing.
type AddShortAnswerQuestion struct {
	Prompt      string `json:"prompt" jsonschema:"the question, asking students to explain, describe or give a reason in a sentence or a few"`
	ModelAnswer string `json:"model_answer" jsonschema:"a full-marks answer as a good student at the lesson's grade would write it: the teacher's answer key, never shown to students before the reveal"`
	Marks       int    `json:"marks" jsonschema:"how many marks the answer is worth: one per point the model answer makes" minimum:"1" maximum:"10"`
	Asked
}

// AddNumericQuestion adds a question whose answer is a number.
type AddNumericQuestion struct {
	Prompt    string  `json:"prompt" jsonschema:"the question, asking students to work out or read off one number"`
	Answer    float64 `json:"answer" jsonschema:"the right number: the answer key's, never shown to students"`
	Tolerance float64 `json:"tolerance" jsonschema:"how far from the answer an answer still counts as right (0 for exactly; say 0.05 when rounding to one decimal place is fine)" minimum:"0"`
	Unit      string  `json:"unit,omitempty" jsonschema:"optional: the unit students write after the number, e.g. cm; shown beside the answer space"`
	Asked
}

// AddOrderingQuestion adds items students put in order.
type AddOrderingQuestion struct {
	Prompt string `json:"prompt" jsonschema:"what to order and by what, e.g. Put these events in the order they happened."`
	Order
	Asked
}

// Order is an ordering question's items: the one place their limits are
// written (see rules.go).
type Order struct {
	Items []string `json:"items" jsonschema:"the items in their CORRECT order, each short; students see them shuffled" minItems:"2" maxItems:"8"`
}

// AddMatchingQuestion adds two columns students match.
type AddMatchingQuestion struct {
	Prompt string `json:"prompt" jsonschema:"what to match, e.g. Match each command to what it does."`
	Matches
	Asked
}

// Matches is a match question's pairs: the one place their limits are
// written (see rules.go).
type Matches struct {
	Pairs []Pair `json:"pairs" jsonschema:"the correct pairs; students see the right column shuffled. No left and no right item twice" minItems:"2" maxItems:"8"`
}

// SetTrueFalseAnswer fills a true/false question's pending answer or why.
type SetTrueFalseAnswer struct {
	ID     string  `json:"id" jsonschema:"id of the true/false question"`
	Answer *bool   `json:"answer,omitempty" jsonschema:"true if the statement is true"`
	Why    *string `json:"why,omitempty" jsonschema:"why the statement is true or false: the answer key's"`
}

// SetModelAnswer fills a short question's pending model answer or marks.
type SetModelAnswer struct {
	ID          string  `json:"id" jsonschema:"id of the short-answer question"`
	ModelAnswer *string `json:"model_answer,omitempty" jsonschema:"a full-marks answer, as add_short_answer_question's"`
	Marks       *int    `json:"marks,omitempty" jsonschema:"how many marks the answer is worth" minimum:"1" maximum:"10"`
}

// SetNumericAnswer fills a numeric question's pending answer, tolerance or
// unit.
type SetNumericAnswer struct {
	ID        string   `json:"id" jsonschema:"id of the numeric question"`
	Answer    *float64 `json:"answer,omitempty" jsonschema:"the right number"`
	Tolerance *float64 `json:"tolerance,omitempty" jsonschema:"how far from the answer still counts as right" minimum:"0"`
	Unit      *string  `json:"unit,omitempty" jsonschema:"the unit, e.g. cm"`
}

// SetCorrectOrder fills an ordering question's pending items.
type SetCorrectOrder struct {
	ID string `json:"id" jsonschema:"id of the ordering question"`
	Order
}

// SetMatchPairs fills a match question's pending pairs.
type SetMatchPairs struct {
	ID string `json:"id" jsonschema:"id of the match question"`
	Matches
}

// UpdateQuestion changes a question; unset fields stay.
type UpdateQuestion struct {
	ID     string  `json:"id" jsonschema:"id of the question to change"`
	Prompt *string `json:"prompt,omitempty" jsonschema:"new prompt"`
	NewChoices
	Feedback *string  `json:"feedback,omitempty" jsonschema:"new feedback"`
	Hint     *string  `json:"hint,omitempty" jsonschema:"new hint for a student who is stuck; it must not give the answer away"`
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
func (AddTrueFalseQuestion) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Adds: true, Doc: "Add a true/false question: a statement, whether it is true, and why (for the answer key)."}
}
func (AddShortAnswerQuestion) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Adds: true, Doc: "Add a short written-answer question: a prompt, a model answer (for the answer key) and its marks."}
}
func (AddNumericQuestion) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Adds: true, Doc: "Add a question whose answer is a number: the answer, the tolerance it is marked to, and its unit."}
}
func (AddOrderingQuestion) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Adds: true, Doc: "Add a question where students put items in order: give the items in their correct order."}
}
func (AddMatchingQuestion) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Adds: true, Doc: "Add a question where students match each item on the left to one on the right: give the correct pairs."}
}
func (SetTrueFalseAnswer) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Fills: []string{"questions[*].answer", "questions[*].why"}, Doc: "Fill a true/false question's pending answer or why."}
}
func (SetModelAnswer) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Fills: []string{"questions[*].model_answer", "questions[*].marks"}, Doc: "Fill a short-answer question's pending model answer or marks."}
}
func (SetNumericAnswer) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Fills: []string{"questions[*].answer", "questions[*].tolerance", "questions[*].unit"}, Doc: "Fill a numeric question's pending answer, tolerance or unit."}
}
func (SetCorrectOrder) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Fills: []string{"questions[*].items"}, Doc: "Fill an ordering question's pending items, in their correct order."}
}
func (SetMatchPairs) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Fills: []string{"questions[*].pairs"}, Doc: "Fill a match question's pending pairs."}
}
func (UpdateQuestion) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Doc: "Change a question you added (its prompt, options, feedback, hint or sources), or fill a question's pending fields, such as the why of an option."}
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
	return session.Spec{Capability: CapRead, ReadOnly: true, Doc: "List what is still pending in this quiz, with briefs and placeholder ids."}
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
		AddQuestion{}, AddTrueFalseQuestion{}, AddShortAnswerQuestion{}, AddNumericQuestion{}, AddOrderingQuestion{}, AddMatchingQuestion{},
		SetTrueFalseAnswer{}, SetModelAnswer{}, SetNumericAnswer{}, SetCorrectOrder{}, SetMatchPairs{},
		UpdateQuestion{}, RemoveQuestion{}, MoveQuestion{},
		DescribeQuiz{}, ListPending{},
		ApplyBinding{}, ClosePlaceholders{},
		session.Undo{}, session.Redo{},
	}
}
