package quiz_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/lessongen/lessongen/internal/sessiontest"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/quiz"
	"github.com/lessongen/lessongen/session"
)

// romansSrc is a quiz as an author writes it: a written kind, pending
// instructions, one complete question, one with pending distractors and
// feedback, and a placeholder for generated ones.
const romansSrc = `kind: check                    # starter | check | exit
instructions: !pending
questions:
  - id: q1
    prompt: About when did the Roman army leave Britain?
    answers: [around AD 410]   # one or more correct options
    distractors: [AD 43, AD 1066]
    feedback: The legions were needed to defend other parts of the empire.
  - id: walls
    prompt: Which wall did the Romans build across northern Britain?
    answers: [Hadrian's Wall]
    distractors: !pending "two other walls or dykes"
    feedback: !pending
  - !pending "two questions on what changed after they left"
`

func decode(t *testing.T, src string) *quiz.Quiz {
	t.Helper()
	s, err := yamlsrc.Parse("quiz.yaml", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	r := &yamlsrc.Reporter{File: "quiz.yaml"}
	q := quiz.Decode(s.Root, r, "quiz")
	if len(r.Problems) != 0 {
		t.Fatalf("decode:\n%v", r.Problems)
	}
	return q
}

func decodeProblems(t *testing.T, src string) yamlsrc.Problems {
	t.Helper()
	s, err := yamlsrc.Parse("quiz.yaml", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	r := &yamlsrc.Reporter{File: "quiz.yaml"}
	quiz.Decode(s.Root, r, "quiz")
	return r.Problems
}

func newSession(t *testing.T, src string) (*session.Session, *quiz.Quiz) {
	t.Helper()
	q := decode(t, src)
	return session.New("quiz", q), q
}

func render(t *testing.T, q *quiz.Quiz) string {
	t.Helper()
	n, ok := q.EncodeNode()
	if !ok {
		t.Fatal("quiz encodes as absent")
	}
	out, err := yamlsrc.Render(n, 2)
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	return string(out)
}

func dispatch(t *testing.T, s *session.Session, in session.Intent) session.Result {
	t.Helper()
	return sessiontest.Dispatch(t, s, in)
}

// view captures everything observable about a quiz.
type view struct {
	yaml     string
	describe string
	pending  []session.Pending
}

func observe(t *testing.T, q *quiz.Quiz) sessiontest.Observer[view] {
	return sessiontest.Observer[view]{
		Look: func() view { return view{render(t, q), q.Describe(), q.Pending()} },
		Diff: func(what string, got, want view) {
			t.Helper()
			if got.yaml != want.yaml {
				t.Errorf("%s: saved form differs:\n--- got\n%s--- want\n%s", what, got.yaml, want.yaml)
			}
			if got.describe != want.describe {
				t.Errorf("%s: description differs:\n--- got\n%s\n--- want\n%s", what, got.describe, want.describe)
			}
			if !reflect.DeepEqual(got.pending, want.pending) {
				t.Errorf("%s: pending differs:\n got %+v\nwant %+v", what, got.pending, want.pending)
			}
		},
	}
}

// apply dispatches in and checks undo and redo (see sessiontest.Apply).
func apply(t *testing.T, s *session.Session, q *quiz.Quiz, in session.Intent) session.Result {
	t.Helper()
	return sessiontest.Apply(t, s, in, observe(t, q))
}

func wantOutputs(t *testing.T, res session.Result, want ...any) {
	t.Helper()
	if !reflect.DeepEqual(res.Outputs, want) {
		t.Errorf("outputs = %#v, want %#v", res.Outputs, want)
	}
}

// ids lists the quiz's question ids in order, "?" + placeholder id for
// placeholders.
func ids(q *quiz.Quiz) []string {
	var out []string
	for _, qu := range q.Questions.Value {
		if qu.IsPlaceholder {
			out = append(out, "?"+qu.PlaceholderID)
			continue
		}
		out = append(out, qu.ID)
	}
	return out
}

func wantIDs(t *testing.T, q *quiz.Quiz, want ...string) {
	t.Helper()
	if got := ids(q); !slices.Equal(got, want) {
		t.Errorf("questions = %v, want %v", got, want)
	}
}

func question(t *testing.T, q *quiz.Quiz, id string) *quiz.Question {
	t.Helper()
	qu, ok := q.Question(id)
	if !ok {
		t.Fatalf("no question %q", id)
	}
	return qu
}

// opts builds options: answers first, then distractors.
func opts(answers []string, distractors ...string) []quiz.Option {
	var o []quiz.Option
	for _, a := range answers {
		o = append(o, quiz.Option{Text: a, Correct: true})
	}
	for _, d := range distractors {
		o = append(o, quiz.Option{Text: d})
	}
	return o
}

func choices(answers []string, distractors ...string) quiz.Choices {
	return quiz.Choices{Options: opts(answers, distractors...)}
}

func ptr[T any](v T) *T { return &v }

// textsOf lists the texts of choices.
func textsOf(cs []quiz.Choice) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.Text)
	}
	return out
}
