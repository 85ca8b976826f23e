package quiz_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/sessiontest"
	"github.com/lessongen/lessongen/quiz"
	"github.com/lessongen/lessongen/session"
)

func TestIntentsReduce(t *testing.T) {
	const plain = "kind: check\nquestions: []\n"
	addGen := []session.Intent{
		quiz.AddQuestion{Prompt: "Who led the revolt of AD 60?", Choices: choices([]string{"Boudica"}, "Caratacus")}, // q2 (q1 is the author's)
		quiz.AddQuestion{Prompt: "What language did the Romans speak?", Choices: choices([]string{"Latin"}, "Greek", "Welsh")},
	}
	tests := []struct {
		name  string
		src   string
		setup []session.Intent
		in    session.Intent
		check func(t *testing.T, q *quiz.Quiz, res session.Result)
	}{
		{
			name: "SetInstructions fills the pending instructions",
			in:   quiz.SetInstructions{Instructions: "  Choose one answer for each question. "},
			check: func(t *testing.T, q *quiz.Quiz, res session.Result) {
				wantOutputs(t, res, quiz.Set{Field: "instructions", Value: "Choose one answer for each question."})
				for _, p := range q.Pending() {
					if p.Path == "instructions" {
						t.Error("instructions still pending")
					}
				}
			},
		},
		{
			name: "SetKind on a quiz without one",
			src:  "questions: []\n",
			in:   quiz.SetKind{Kind: "starter"},
			check: func(t *testing.T, q *quiz.Quiz, res session.Result) {
				wantOutputs(t, res, quiz.Set{Field: "kind", Value: "starter"})
				if render(t, q) != "kind: starter\nquestions: []\n" {
					t.Errorf("saved:\n%s", render(t, q))
				}
			},
		},
		{
			name:  "SetInstructions again after generation",
			setup: []session.Intent{quiz.SetInstructions{Instructions: "First try."}},
			in:    quiz.SetInstructions{Instructions: "Second try."},
			check: func(t *testing.T, q *quiz.Quiz, res session.Result) {
				if q.Instructions.Value != "Second try." {
					t.Errorf("instructions = %+v", q.Instructions)
				}
			},
		},
		{
			name: "AddQuestion fills the only placeholder",
			in: quiz.AddQuestion{Prompt: " Why did the army leave? ", Choices: choices([]string{" to defend Rome "}, "they were beaten", "the weather"),
				Feedback: "Rome itself was under attack."},
			check: func(t *testing.T, q *quiz.Quiz, res session.Result) {
				wantOutputs(t, res, quiz.Added{ID: "q2", Position: 3, PendingID: "p1"})
				wantIDs(t, q, "q1", "walls", "q2", "?p1")
				qu := question(t, q, "q2")
				if qu.Prompt.Value != "Why did the army leave?" || !reflect.DeepEqual(textsOf(qu.Answers.Value), []string{"to defend Rome"}) ||
					!reflect.DeepEqual(textsOf(qu.Distractors.Value), []string{"they were beaten", "the weather"}) || qu.Feedback.Value != "Rome itself was under attack." {
					t.Errorf("added %+v", qu)
				}
			},
		},
		{
			name: "AddQuestion with options in any order and no distractors",
			src:  plain,
			in:   quiz.AddQuestion{Prompt: "Which are Roman towns?", Choices: quiz.Choices{Options: []quiz.Option{{Text: "Londinium", Correct: true}, {Text: "Eboracum", Correct: true}}}},
			check: func(t *testing.T, q *quiz.Quiz, res session.Result) {
				wantOutputs(t, res, quiz.Added{ID: "q1", Position: 1})
				want := "kind: check\nquestions:\n  - id: q1\n    prompt: Which are Roman towns?\n    answers:\n      - Londinium\n      - Eboracum\n    distractors: []\n"
				if got := render(t, q); got != want {
					t.Errorf("saved:\n%s\nwant:\n%s", got, want)
				}
			},
		},
		{
			name: "AddQuestion into a pending list keeps its hint",
			src:  "questions: !pending \"three on Roman roads\"\n",
			in:   quiz.AddQuestion{Prompt: "Roads were…", Choices: choices([]string{"straight"}, "curved")},
			check: func(t *testing.T, q *quiz.Quiz, res session.Result) {
				wantOutputs(t, res, quiz.Added{ID: "q1", Position: 1, PendingID: "p1"})
				wantIDs(t, q, "q1", "?p1")
				if !strings.HasSuffix(render(t, q), "  - !pending \"three on Roman roads\"\n") {
					t.Errorf("saved:\n%s", render(t, q))
				}
			},
		},
		{
			name: "UpdateQuestion fills an authored question's pending fields",
			in:   quiz.UpdateQuestion{ID: "walls", NewChoices: quiz.NewChoices(choices([]string{"Hadrian's Wall"}, "the Great Wall", "Offa's Dyke")), Feedback: ptr("Hadrian ordered it.")},
			check: func(t *testing.T, q *quiz.Quiz, res session.Result) {
				wantOutputs(t, res, quiz.Changed{ID: "walls", Fields: []string{"feedback", "distractors"}})
				qu := question(t, q, "walls")
				if !reflect.DeepEqual(textsOf(qu.Distractors.Value), []string{"the Great Wall", "Offa's Dyke"}) || qu.Feedback.Value != "Hadrian ordered it." {
					t.Errorf("walls = %+v", qu)
				}
				for _, p := range q.Pending() {
					if strings.HasPrefix(p.Path, "questions[walls]") {
						t.Errorf("still pending: %+v", p)
					}
				}
			},
		},
		{
			name: "UpdateQuestion fills pending answers beside written distractors",
			src:  "questions:\n  - {id: a, prompt: The capital of Roman Britain, answers: !pending , distractors: [Rome]}\n",
			in:   quiz.UpdateQuestion{ID: "a", NewChoices: quiz.NewChoices(choices([]string{"Londinium"}, "Rome"))},
			check: func(t *testing.T, q *quiz.Quiz, res session.Result) {
				wantOutputs(t, res, quiz.Changed{ID: "a", Fields: []string{"answers"}})
			},
		},
		{
			name:  "UpdateQuestion rewrites a generated question",
			setup: addGen[:1],
			in:    quiz.UpdateQuestion{ID: "q2", Prompt: ptr("Who led the Iceni revolt?"), NewChoices: quiz.NewChoices(choices([]string{"Boudica"}, "Cartimandua", "Caratacus"))},
			check: func(t *testing.T, q *quiz.Quiz, res session.Result) {
				wantOutputs(t, res, quiz.Changed{ID: "q2", Fields: []string{"prompt", "distractors"}})
				if qu := question(t, q, "q2"); qu.Prompt.Value != "Who led the Iceni revolt?" || len(qu.Distractors.Value) != 2 {
					t.Errorf("q2 = %+v", qu)
				}
			},
		},
		{
			name:  "RemoveQuestion reopens its placeholder",
			setup: addGen[:1],
			in:    quiz.RemoveQuestion{ID: "q2"},
			check: func(t *testing.T, q *quiz.Quiz, res session.Result) {
				wantOutputs(t, res, quiz.Removed{ID: "q2"})
				wantIDs(t, q, "q1", "walls", "?p1")
				if ps := q.Pending(); ps[len(ps)-1].ID != "p1" {
					t.Errorf("placeholder not owed a question again: %+v", ps)
				}
			},
		},
		{
			name:  "MoveQuestion reorders among real questions",
			setup: addGen,
			in:    quiz.MoveQuestion{ID: "q3", Position: 1},
			check: func(t *testing.T, q *quiz.Quiz, res session.Result) {
				wantOutputs(t, res, quiz.Moved{ID: "q3", Position: 1})
				wantIDs(t, q, "q3", "q1", "walls", "q2", "?p1")
			},
		},
		{
			name:  "MoveQuestion to the end",
			setup: addGen,
			in:    quiz.MoveQuestion{ID: "q2", Position: 4},
			check: func(t *testing.T, q *quiz.Quiz, res session.Result) {
				wantIDs(t, q, "q1", "walls", "q3", "?p1", "q2")
			},
		},
		{
			name: "ApplyBinding sets unset instructions",
			src:  plain,
			in:   quiz.ApplyBinding{Property: "instructions", Value: "Work alone."},
			check: func(t *testing.T, q *quiz.Quiz, res session.Result) {
				wantOutputs(t, res, quiz.Set{Field: "instructions", Value: "Work alone."})
			},
		},
		{
			name: "ApplyBinding leaves a written kind",
			src:  plain,
			in:   quiz.ApplyBinding{Property: "kind", Value: "exit"},
			check: func(t *testing.T, q *quiz.Quiz, res session.Result) {
				if q.Kind.Value != "check" || len(res.Outputs) != 0 {
					t.Errorf("kind = %+v, outputs %v", q.Kind, res.Outputs)
				}
			},
		},
		{
			name:  "ClosePlaceholders removes filled placeholders",
			setup: addGen[:1],
			in:    quiz.ClosePlaceholders{},
			check: func(t *testing.T, q *quiz.Quiz, res session.Result) {
				wantOutputs(t, res, quiz.Closed{Placeholders: []string{"p1"}})
				wantIDs(t, q, "q1", "walls", "q2")
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.src
			if src == "" {
				src = romansSrc
			}
			s, q := newSession(t, src)
			for _, in := range tt.setup {
				dispatch(t, s, in)
			}
			v := s.Version()
			res := apply(t, s, q, tt.in)
			if res.Version != v+1 {
				t.Errorf("result version %d, want %d", res.Version, v+1)
			}
			tt.check(t, q, res)
			roundTrips(t, q)
		})
	}
}

// roundTrips checks that the saved quiz loads again, without errors, to the
// same saved form.
func roundTrips(t *testing.T, q *quiz.Quiz) {
	t.Helper()
	out := render(t, q)
	if got := render(t, decode(t, out)); got != out {
		t.Errorf("saved quiz does not round-trip:\n--- saved\n%s--- reloaded\n%s", out, got)
	}
}

type foreign struct{}

func (foreign) Spec() session.Spec { return session.Spec{} }

func TestIntentsReject(t *testing.T) {
	// After setup the quiz holds the author's q1 and walls, generated q2,
	// and the open placeholder p1.
	setup := []session.Intent{quiz.AddQuestion{Prompt: "Who led the revolt of AD 60?", Choices: choices([]string{"Boudica"}, "Caratacus")}}
	const allIDs = "question ids: q1, q2, walls"
	seven := choices([]string{"a"}, "b", "c", "d", "e", "f", "g")
	tests := []struct {
		name string
		in   session.Intent
		kind session.ErrorKind
		path string
		hint string
	}{
		{"unknown kind", quiz.SetKind{Kind: "pop"}, session.KindInvalidArgs, "kind", "use starter, check or exit"},
		{"authored kind", quiz.SetKind{Kind: "exit"}, session.KindPrecondition, "kind", "written by the author"},
		{"empty instructions", quiz.SetInstructions{Instructions: " "}, session.KindInvalidArgs, "instructions", "non-empty"},
		{"empty prompt", quiz.AddQuestion{Prompt: " ", Choices: choices([]string{"a"}, "b")}, session.KindInvalidArgs, "prompt", "non-empty"},
		{"no options", quiz.AddQuestion{Prompt: "P"}, session.KindInvalidArgs, "options", "a question has 2 to 6 options"},
		{"no answer", quiz.AddQuestion{Prompt: "P", Choices: choices(nil, "b", "c")}, session.KindInvalidArgs, "options", "give at least one correct answer"},
		{"one option", quiz.AddQuestion{Prompt: "P", Choices: choices([]string{"a"})}, session.KindInvalidArgs, "options", "add distractors"},
		{"seven options", quiz.AddQuestion{Prompt: "P", Choices: seven}, session.KindInvalidArgs, "options", "remove some"},
		{"an answer twice", quiz.AddQuestion{Prompt: "P", Choices: choices([]string{"a", "A"}, "b")}, session.KindInvalidArgs, "options[1]", "keep one"},
		{"right and wrong", quiz.AddQuestion{Prompt: "P", Choices: choices([]string{"a"}, "b", " a")}, session.KindInvalidArgs, "options[2]", "either right or wrong"},
		{"an empty option", quiz.AddQuestion{Prompt: "P", Choices: choices([]string{"a"}, "")}, session.KindInvalidArgs, "options[1]", "write the option"},
		{"unknown placeholder", quiz.AddQuestion{Prompt: "P", Choices: choices([]string{"a"}, "b"), Placing: quiz.Placing{PendingID: "p9"}}, session.KindNotFound, "pending_id", "open placeholders: p1"},
		{"update unknown", quiz.UpdateQuestion{ID: "ghost", Prompt: ptr("x")}, session.KindNotFound, "id", allIDs},
		{"update an authored prompt", quiz.UpdateQuestion{ID: "q1", Prompt: ptr("x")}, session.KindPrecondition, "prompt", "only the author's pending fields"},
		{"update an authored feedback", quiz.UpdateQuestion{ID: "q1", Feedback: ptr("x")}, session.KindPrecondition, "feedback", "only the author's pending fields"},
		{"change the author's answers", quiz.UpdateQuestion{ID: "walls", NewChoices: quiz.NewChoices(choices([]string{"Antonine Wall"}, "b"))}, session.KindPrecondition, "options", `repeat the author's answers unchanged ("Hadrian's Wall") as options marked correct`},
		{"change the author's distractors", quiz.UpdateQuestion{ID: "q1", NewChoices: quiz.NewChoices(choices([]string{"around AD 410"}, "AD 43"))}, session.KindPrecondition, "options", `repeat the author's distractors unchanged ("AD 43", "AD 1066") as options marked not correct`},
		{"update breaks a rule", quiz.UpdateQuestion{ID: "q2", NewChoices: quiz.NewChoices(seven)}, session.KindInvalidArgs, "options", "remove some"},
		{"update nothing", quiz.UpdateQuestion{ID: "q2"}, session.KindInvalidArgs, "", "set at least one"},
		{"update to the same options", quiz.UpdateQuestion{ID: "q2", NewChoices: quiz.NewChoices(choices([]string{"Boudica"}, "Caratacus"))}, session.KindInvalidArgs, "", "with something new"},
		{"update half valid", quiz.UpdateQuestion{ID: "walls", Feedback: ptr("ok"), Prompt: ptr("x")}, session.KindPrecondition, "prompt", "only the author's pending fields"},
		{"remove authored", quiz.RemoveQuestion{ID: "q1"}, session.KindPrecondition, "id", "the author's questions stay as written"},
		{"remove unknown", quiz.RemoveQuestion{ID: "ghost"}, session.KindNotFound, "id", allIDs},
		{"move authored", quiz.MoveQuestion{ID: "walls", Position: 1}, session.KindPrecondition, "id", "the author's questions"},
		{"move out of range", quiz.MoveQuestion{ID: "q2", Position: 4}, session.KindInvalidArgs, "position", "between 1 and 3"},
		{"bind an unknown property", quiz.ApplyBinding{Property: "title", Value: "x"}, session.KindInvalidArgs, "property", "bindable: kind, instructions"},
		{"bind an unknown kind", quiz.ApplyBinding{Property: "kind", Value: "pop"}, session.KindInvalidArgs, "value", "starter, check or exit"},
		{"foreign intent", foreign{}, session.KindInvalidArgs, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, q := newSession(t, romansSrc)
			for _, in := range setup {
				dispatch(t, s, in)
			}
			sessiontest.Rejected(t, s, tt.in, tt.kind, tt.path, tt.hint, observe(t, q))
			// The last commit is still the one undo takes back.
			dispatch(t, s, session.Undo{})
			if _, ok := q.Question("q2"); ok {
				t.Error("undo after a rejection did not undo the last real change")
			}
		})
	}
}

func TestEmptyQuizNotFoundHint(t *testing.T) {
	s, _ := newSession(t, "kind: exit\n")
	_, err := s.Dispatch(context.Background(), quiz.RemoveQuestion{ID: "x"})
	if e, ok := session.AsError(err); !ok || e.Hint != "the quiz has no questions yet" {
		t.Errorf("err = %v", err)
	}
	_, err = s.Dispatch(context.Background(), quiz.AddQuestion{Prompt: "P", Choices: choices([]string{"a"}, "b"), Placing: quiz.Placing{PendingID: "p1"}})
	if e, ok := session.AsError(err); !ok || e.Kind != session.KindNotFound || !strings.Contains(e.Hint, "no placeholders") {
		t.Errorf("err = %v", err)
	}
}

func TestUnprotectedQuizEditsAuthoredQuestions(t *testing.T) {
	s, q := newSession(t, romansSrc)
	q.Protect = false
	apply(t, s, q, quiz.UpdateQuestion{ID: "q1", Prompt: ptr("When did the legions go?"), NewChoices: quiz.NewChoices(choices([]string{"AD 410"}, "AD 43"))})
	apply(t, s, q, quiz.MoveQuestion{ID: "walls", Position: 1})
	apply(t, s, q, quiz.RemoveQuestion{ID: "q1"})
	apply(t, s, q, quiz.SetKind{Kind: "exit"})
	wantIDs(t, q, "walls", "?p1")
}

func TestPlaceholdersFillInOrder(t *testing.T) {
	src := "questions:\n  - !pending \"one on roads\"\n  - {id: a, prompt: P, answers: [x], distractors: [y]}\n  - !pending \"two on towns\"\n"
	s, q := newSession(t, src)
	apply(t, s, q, quiz.AddQuestion{Prompt: "Roads?", Choices: choices([]string{"straight"}, "curved"), Placing: quiz.Placing{PendingID: "p1"}})
	apply(t, s, q, quiz.AddQuestion{Prompt: "Towns?", Choices: choices([]string{"walled"}, "open"), Placing: quiz.Placing{PendingID: "p2"}})
	wantIDs(t, q, "q1", "?p1", "a", "q2", "?p2")
	// With two open placeholders and no pending_id, a question goes at the end.
	s2, q2 := newSession(t, src)
	res := apply(t, s2, q2, quiz.AddQuestion{Prompt: "Anything?", Choices: choices([]string{"x"}, "z")})
	wantOutputs(t, res, quiz.Added{ID: "q1", Position: 2})
	wantIDs(t, q2, "?p1", "a", "?p2", "q1")
	// Closing keeps placeholders still owed questions.
	apply(t, s, q, quiz.ClosePlaceholders{})
	wantIDs(t, q, "q1", "a", "q2")
	if len(q.Pending()) != 0 {
		t.Errorf("pending = %+v", q.Pending())
	}
}

func TestGeneratedIDsSkipTheAuthors(t *testing.T) {
	s, q := newSession(t, "questions:\n  - {id: q1, prompt: P, answers: [x], distractors: [y]}\n  - {id: q2, prompt: P, answers: [x], distractors: [y]}\n")
	res := dispatch(t, s, quiz.AddQuestion{Prompt: "P", Choices: choices([]string{"a"}, "b")})
	wantOutputs(t, res, quiz.Added{ID: "q3", Position: 3})
	wantIDs(t, q, "q1", "q2", "q3")
}

func TestReadOnlyIntentsReport(t *testing.T) {
	s, q := newSession(t, romansSrc)
	wantOutputs(t, dispatch(t, s, quiz.DescribeQuiz{}), q.Describe())
	wantOutputs(t, dispatch(t, s, quiz.ListPending{}), q.Pending())
	if s.Version() != 0 {
		t.Errorf("read-only intents committed: version %d", s.Version())
	}
}

// Every intent in the closed set is one the quiz knows how to apply: a zero
// value may be refused as invalid, never as foreign.
func TestEveryIntentIsHandled(t *testing.T) {
	for _, in := range quiz.Intents() {
		sp := in.Spec()
		if sp.Doc == "" || sp.Capability == "" {
			t.Errorf("%T: spec lacks a doc or capability: %+v", in, sp)
		}
		if c := sp.Capability; c != session.CapHistory && c != quiz.CapRead && c != quiz.CapMetadata && c != quiz.CapNode {
			t.Errorf("%T: capability %q is not the quiz's", in, c)
		}
		switch in.(type) {
		case session.Undo, session.Redo:
			continue
		}
		s, _ := newSession(t, romansSrc)
		_, err := s.Dispatch(context.Background(), in)
		if err != nil && strings.Contains(err.Error(), "cannot apply") {
			t.Errorf("%T: %v", in, err)
		}
	}
}

func TestBindableProperties(t *testing.T) {
	q := decode(t, "kind: check\ninstructions: !pending\n")
	for _, p := range quiz.Bindable() {
		if got, want := q.PropertySet(p), p == "kind"; got != want {
			t.Errorf("PropertySet(%q) = %v, want %v", p, got, want)
		}
	}
	if q.PropertySet("heading") {
		t.Error("an unknown property is set")
	}
}
