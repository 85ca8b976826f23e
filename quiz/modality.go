package quiz

import (
	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// MaxNewQuestions is the most questions one subagent may add: a quiz is a
// few minutes of a lesson, and a long test is several quizzes.
const MaxNewQuestions = 20

// Modality describes the quiz for the registry: everything the rest of
// lessongen needs to place, generate, load and save one.
func Modality() modality.Descriptor {
	return modality.Descriptor{
		Name:     "quiz",
		Doc:      "questions (choice, true/false, short, numeric, order, match) with their answer key",
		Intents:  Intents(),
		Read:     CapRead,
		Metadata: CapMetadata,
		Node:     CapNode,
		MaxNew:   MaxNewQuestions,
		NewItems: "questions",
		Close:    ClosePlaceholders{},
		Review:   DescribeQuiz{},
		Bindable: Bindable(),
		Bind:     func(p, v string) session.Intent { return ApplyBinding{Property: p, Value: v} },
		Codec: modality.NewCodec(Decode, Todo,
			func(q *Quiz) *yaml.Node { n, _ := q.EncodeNode(); return n },
			(*Quiz).PropertySet),
		Render:  modality.NewRender(Render),
		PPTX:    modality.NewPPTX(RenderPPTX),
		Content: modality.NewContent((*Quiz).Content),
		Brief:   "only when the hint of the placeholder this slide fills, or the author's instruction, asks for a quiz (a starter, a check, an exit quiz): what its quiz should ask; another assistant writes the questions. Omit otherwise, even on a slide that checks learning: its whiteboard poses the questions",
	}
}

// The optional capabilities a quiz has, checked here so that losing one
// is a compile error (the conformance test's matrix lists them by kind).
var (
	_ session.Summarizer   = (*Quiz)(nil)
	_ session.Provenance   = (*Quiz)(nil)
	_ session.Guarded      = (*Quiz)(nil)
	_ modality.Citer       = (*Quiz)(nil)
	_ modality.AnswerKeyed = (*Quiz)(nil)
)
