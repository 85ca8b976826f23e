// Package quiz is the Quiz modality: the questions of one slide, multiple
// choice or true/false, short, numeric, order or match, with their answer
// key (answers, whys, model answers) kept apart from what students see. It knows nothing of
// models or tools; every change is an intent reduced by Quiz.
package quiz

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/itemlist"
	"github.com/lessongen/lessongen/internal/nodemeta"
	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// Capabilities a quiz subagent can be granted.
const (
	CapRead     session.Capability = "quiz.read"
	CapMetadata session.Capability = "quiz.metadata"
	CapNode     session.Capability = "quiz.node"
)

// Question is one question of any type (Types): multiple choice by
// default; true/false, short written answer, numeric, order or match. Each
// type has its own keys (typeKeys); the others stay empty.
type Question struct {
	itemlist.Entry
	Src *yaml.Node `yaml:"-"`

	// ID is as written, or derived (see QuestionIDs) when the author wrote
	// none.
	ID     string                `yaml:"id,omitempty"`
	Type   string                `yaml:"type,omitempty" json:"type" enum:"choice,true_false,short,numeric,order,match" jsonschema:"what students do: choice (pick from options, the default), true_false, short (a written answer), numeric, order (put items in order) or match (pair two columns)"`
	Prompt yamlsrc.Field[string] `yaml:"prompt,required"`
	// choice
	Answers     yamlsrc.Field[[]Choice] `yaml:"answers,required"`
	Distractors yamlsrc.Field[[]Choice] `yaml:"distractors"`
	// true_false (a boolean) and numeric (a number)
	Answer yamlsrc.Field[Scalar] `yaml:"answer,required"`
	Why    yamlsrc.Field[string] `yaml:"why"`
	// short
	ModelAnswer yamlsrc.Field[string] `yaml:"model_answer,required"`
	Marks       yamlsrc.Field[int]    `yaml:"marks" minimum:"1"`
	// numeric
	Tolerance yamlsrc.Field[Scalar] `yaml:"tolerance"`
	Unit      yamlsrc.Field[string] `yaml:"unit"`
	// order: the items in their correct order
	Items yamlsrc.Field[[]string] `yaml:"items,required"`
	// match
	Pairs yamlsrc.Field[[]Pair] `yaml:"pairs,required"`
	// PupilHint helps students who are stuck; it gives nothing away.
	// (Hint is the placeholder's, from Entry.)
	PupilHint yamlsrc.Field[string] `yaml:"hint"`
	Feedback  yamlsrc.Field[string] `yaml:"feedback"`
	// AnswerAt places the answers among the options as students see them:
	// their 1-based positions, in the order of answers, the distractors
	// filling the rest in their order. A model's options keep the order
	// it gave; without it the options show as written, answers first.
	AnswerAt []int `yaml:"answer_at,omitempty"`
	// Sources cite the author's sources the question was written from:
	// "path:line" or "path:start-end" (see sources.ParseCitation).
	Sources []string `yaml:"sources,omitempty"`
	// GeneratedFor is the hint of the open placeholder a run generated this
	// question for, written while the placeholder stays open so a rerun
	// after an interruption adds only what the hint still lacks (as on
	// whiteboards); dropped when the placeholder closes.
	GeneratedFor string `yaml:"generated_for,omitempty"`

	// authorAt: the author placed the answers (AnswerAt), which
	// generation keeps.
	authorAt bool
	// authorHint: the author wrote the hint (checkHint).
	authorHint bool
}

// Refs are the fields the question list reads and writes; see itemlist.
func (q *Question) Refs() itemlist.Refs {
	return itemlist.Refs{ID: &q.ID, GeneratedFor: &q.GeneratedFor, Sources: &q.Sources, Src: q.Src}
}

// questionSpec is how messages speak of questions.
var questionSpec = itemlist.Spec{
	Noun: "question", IDsLabel: "question ids", Empty: "the quiz has no questions yet", SortIDs: true,
	Authored: "the author's questions stay as written; add new questions around them",
	Named:    "question %q",
}

// list is the quiz's question list.
func (q *Quiz) list() itemlist.List[Question, *Question] {
	return itemlist.List[Question, *Question]{Field: &q.Questions, ByID: &q.byID, Spec: &questionSpec}
}

// QuestionName is how messages, plan and prompts name a question:
// `question "q2" (2)`, its id and 1-based position among real questions.
func QuestionName(id string, pos int) string { return session.ItemName("question", id, pos) }

// QuestionIDs gives each item of a questions list the id it goes by (see
// yamlsrc.ItemIDs): the id written, else qN for the N-th question written
// without an id, as new questions are named; derived says which ids the
// file does not hold.
func QuestionIDs(list *yaml.Node) (ids []string, derived []bool) {
	return yamlsrc.ItemIDs(list, func(_ *yaml.Node, n int) string { return fmt.Sprintf("q%d", n) })
}

// ItemNames names the questions of a list while it is decoded; see
// yamlsrc.ItemNamer.
func (*Question) ItemNames(path string, list *yaml.Node) []string {
	ids, _ := QuestionIDs(list)
	owner, _ := strings.CutSuffix(path, ".questions")
	return yamlsrc.NameItems(list, ids, func(id string, pos int) string { return owner + ": " + QuestionName(id, pos) })
}

// name is qu's QuestionName in q.
func (q *Quiz) name(qu *Question) string {
	return QuestionName(qu.ID, yamlsrc.Position(q.questions(), qu))
}

// options lists the question's options, answers first, as the rules and
// intents see them.
func (q *Question) options() []Option {
	var opts []Option
	for _, a := range q.Answers.Value {
		opts = append(opts, Option{Text: a.Text, Correct: true, Why: a.Why.Value})
	}
	for _, d := range q.Distractors.Value {
		opts = append(opts, Option{Text: d.Text, Why: d.Why.Value})
	}
	return opts
}

// distractorsKnown: an absent distractor list is a written empty one.
func (q *Question) distractorsKnown() bool { return !q.Distractors.Pending }

// Quiz is a quiz's whole state.
type Quiz struct {
	Src *yaml.Node `yaml:"-"`

	Kind         yamlsrc.Field[string]      `yaml:"kind"`
	Instructions yamlsrc.Field[string]      `yaml:"instructions"`
	Questions    yamlsrc.Field[[]*Question] `yaml:"questions"`
	// Shuffle asks render to shuffle each question's options (seeded by
	// its id, the same every time; options that are all numbers are
	// sorted instead). Off, options show in their order (AnswerAt).
	Shuffle bool `yaml:"shuffle,omitempty"`

	// Protect keeps authored questions as written (on by default).
	Protect bool `yaml:"-"`

	// meta knows which of kind and instructions generation set, and which
	// a binding set.
	meta   nodemeta.Meta
	byID   map[string]*Question
	nextID int
}

// Todo returns a quiz that is pending as a whole, with the author's hint:
// its kind, instructions and questions are all to be generated.
func Todo(hint string) *Quiz {
	q := &Quiz{Kind: yamlsrc.Todo[string](""), Instructions: yamlsrc.Todo[string](""), Questions: yamlsrc.Todo[[]*Question](hint), Protect: true}
	q.meta.PendingWhole(hint)
	return q
}

// Decode reads a quiz from its node, reporting every problem to r.
func Decode(n *yaml.Node, r *yamlsrc.Reporter, path string) *Quiz {
	q := &Quiz{Protect: true}
	yamlsrc.Decode(n, q, r, path)
	q.Src = n
	q.list().Load(yamlsrc.Value(n, "questions"), QuestionIDs)
	for _, qu := range q.questions() {
		qu.authorAt = qu.Authored && len(qu.AnswerAt) > 0
		qu.authorHint = qu.Authored && qu.PupilHint.Set
	}
	q.validate(r, path)
	return q
}

// Hint is the author's hint for the quiz as a whole, if it had one.
func (q *Quiz) Hint() string {
	hint, _ := q.meta.Whole()
	return hint
}

func (q *Quiz) questions() []*Question { return q.Questions.Value }

// Question returns the question with id, if any.
func (q *Quiz) Question(id string) (*Question, bool) { return q.list().Get(id) }

func (q *Quiz) validate(r *yamlsrc.Reporter, path string) {
	if k, ok := q.Kind.Get(); ok && !slices.Contains(Kinds(), k) {
		r.At(yamlsrc.ValueAt(q.Src, "kind"), "%s.kind must be one of %s, got %q", path, listWords(Kinds()), k)
	}
	seen := map[string]*yaml.Node{}
	for _, qu := range q.questions() {
		if qu.IsPlaceholder || qu.Src == nil {
			continue
		}
		qp := path + ": " + q.name(qu)
		idNode := yamlsrc.ValueAt(qu.Src, "id")
		if qu.IDDerived {
			// derived ids are unique and well formed by construction
		} else if !itemlist.WrittenID.MatchString(qu.ID) {
			r.At(idNode, "%s.id %q must start with a letter and use only letters, digits, - and _", qp, qu.ID)
		} else if first, dup := seen[qu.ID]; dup {
			r.At(idNode, "duplicate question id %q (first at line %d); ids must be unique in a quiz", qu.ID, first.Line)
		} else {
			seen[qu.ID] = idNode
		}
		sources.CheckRefs(sources.Refs(qu.Src, qu.Sources, qp+".sources"), r)
		if qu.validateType(r, qp) {
			qu.validateKind(r, qp)
		}
	}
}

// validateChoice checks a choice question's options and answer places.
func (qu *Question) validateChoice(r *yamlsrc.Reporter, qp string) {
	if !qu.Answers.Set && !qu.Answers.Pending {
		return // the codec has reported the missing key
	}
	nAnswers := len(qu.Answers.Value)
	if len(qu.AnswerAt) > 0 && qu.Answers.Set && qu.distractorsKnown() {
		if msg := checkAnswerAt(qu.AnswerAt, nAnswers, len(qu.options())); msg != "" {
			r.At(yamlsrc.ValueAt(qu.Src, "answer_at"), "%s.answer_at: %s", qp, msg)
		}
	}
	for _, p := range checkOptions(qu.options(), qu.Answers.Set, qu.distractorsKnown()) {
		at := qu.Src
		switch {
		case p.index < 0:
		case p.index < nAnswers:
			at = item(qu.Src, "answers", p.index)
		default:
			at = item(qu.Src, "distractors", p.index-nAnswers)
		}
		r.At(at, "%s: %s; %s", qp, p.msg, p.hint)
	}
}

// Citations lists every question's citations, for validate --sources.
func (q *Quiz) Citations() []sources.Ref { return q.list().Citations() }

// item returns item i of the list under key in m, or the nearest node that
// exists.
func item(m *yaml.Node, key string, i int) *yaml.Node {
	l := yamlsrc.ValueAt(m, key)
	if l != m && l.Kind == yaml.SequenceNode && i < len(l.Content) {
		return l.Content[i]
	}
	return l
}

// EncodeNode writes the quiz as YAML nodes. A quiz that was pending as a
// whole and has not been touched stays one `!pending "hint"` marker.
func (q *Quiz) EncodeNode() (*yaml.Node, bool) {
	c := *q // a bound property is saved as the file had it
	c.meta.Unbind(c.bindable)
	return c.meta.Encode(c, c.untouched())
}

func (q *Quiz) untouched() bool {
	return q.Kind.Pending && q.Instructions.Pending && q.Questions.Pending && q.Questions.Hint == q.Hint()
}

// listWords is "a, b or c".
func listWords(ws []string) string {
	switch len(ws) {
	case 0:
		return "none"
	case 1:
		return ws[0]
	}
	out := ""
	for i, w := range ws[:len(ws)-1] {
		if i > 0 {
			out += ", "
		}
		out += w
	}
	return out + " or " + ws[len(ws)-1]
}
