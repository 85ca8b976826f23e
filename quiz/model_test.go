package quiz_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/quiz"
	"github.com/lessongen/lessongen/session"
)

// everyShape has flow and block lists, quoted and block text, comments,
// and a value pending in every position a question allows.
const everyShape = `# a starter quiz
kind: starter
instructions: "Choose one answer, then check with a partner."
questions:
  - id: q1
    prompt: >
      Which gas do plants
      take in?
    answers:
      - carbon dioxide   # CO2
    distractors:
      - oxygen
      - 'nitrogen'
  - {id: q2, prompt: !pending "on chlorophyll", answers: !pending , distractors: [sunlight]}
  - id: q3
    prompt: Pick every product of photosynthesis.
    answers: [glucose, oxygen]
    feedback: |
      Both leave the leaf:
      oxygen as gas, glucose as sugar.
  - !pending
`

func TestLoadSaveKeepsEveryByte(t *testing.T) {
	for name, src := range map[string]string{"romans": romansSrc, "every shape": everyShape, "pending list": "kind: exit\nquestions: !pending \"five questions\"\n"} {
		s, err := yamlsrc.Parse("quiz.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		q := decode(t, src)
		n, _ := q.EncodeNode()
		if !yamlsrc.Equal(s.Root, n) {
			t.Errorf("%s: encoding loses or changes data:\n--- in\n%s--- out\n%s", name, src, render(t, q))
		}
		if patched, err := s.Patch(n); err != nil || string(patched) != src {
			t.Errorf("%s: saving the unchanged quiz changed the file (err %v):\n%s", name, err, patched)
		}
	}
}

func TestGeneratedQuestionsSpliceIntoTheAuthorsBytes(t *testing.T) {
	s, err := yamlsrc.Parse("quiz.yaml", []byte(romansSrc))
	if err != nil {
		t.Fatal(err)
	}
	sess, q := newSession(t, romansSrc)
	dispatch(t, sess, quiz.SetInstructions{Instructions: "Choose one answer for each question."})
	dispatch(t, sess, quiz.UpdateQuestion{ID: "walls", NewChoices: quiz.NewChoices(choices([]string{"Hadrian's Wall"}, "the Great Wall", "Offa's Dyke")), Feedback: ptr("Hadrian ordered it in AD 122.")})
	dispatch(t, sess, quiz.AddQuestion{Prompt: "What did towns do once the army left?", Choices: choices([]string{"shrank"}, "grew fast")})
	dispatch(t, sess, quiz.ClosePlaceholders{})
	n, _ := q.EncodeNode()
	out, err := s.Patch(n)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	// Every author line stays, comments included.
	for _, line := range strings.Split(romansSrc, "\n") {
		if strings.Contains(line, "!pending") || line == "" {
			continue
		}
		if !strings.Contains(got, line+"\n") {
			t.Errorf("author line lost: %q\n%s", line, got)
		}
	}
	for _, want := range []string{
		"instructions: Choose one answer for each question.\n",
		"    distractors:\n      - the Great Wall\n      - Offa's Dyke\n",
		"    feedback: Hadrian ordered it in AD 122.\n",
		"  - id: q2\n    prompt: What did towns do once the army left?\n    answers:\n      - shrank\n    distractors:\n      - grew fast\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("saved file lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "!pending") {
		t.Errorf("pending spots left:\n%s", got)
	}
}

func TestDecodeEveryShape(t *testing.T) {
	q := decode(t, everyShape)
	if q.Kind.Value != "starter" || q.Instructions.Value != "Choose one answer, then check with a partner." {
		t.Errorf("metadata = %+v %+v", q.Kind, q.Instructions)
	}
	if qu := question(t, q, "q1"); qu.Prompt.Value != "Which gas do plants take in?\n" || !reflect.DeepEqual(textsOf(qu.Distractors.Value), []string{"oxygen", "nitrogen"}) {
		t.Errorf("q1 = %+v", qu)
	}
	if qu := question(t, q, "q3"); len(qu.Answers.Value) != 2 || qu.Distractors.Set || qu.Distractors.Pending {
		t.Errorf("q3 = %+v", qu)
	}
}

// Pending may stand for the whole quiz, the metadata, the question list, a
// question, or any field of an authored question except its id.
func TestPendingInEveryPosition(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []session.Pending
	}{
		{"metadata", "kind: !pending \"to open the lesson\"\ninstructions:\nquestions: []\n", []session.Pending{
			{Level: session.LevelMetadata, Path: "kind", Hint: "to open the lesson"},
			{Level: session.LevelMetadata, Path: "instructions"},
		}},
		{"the question list", "kind: exit\nquestions: !pending \"three on the water cycle\"\n", []session.Pending{
			{Level: session.LevelNode, Path: "questions", Hint: "three on the water cycle", ID: "p1"},
		}},
		{"placeholders", "questions:\n  - !pending \"one\"\n  - {id: a, prompt: P, answers: [x], distractors: [y]}\n  - !pending\n", []session.Pending{
			{Level: session.LevelNode, Path: "questions[0]", Hint: "one", ID: "p1"},
			{Level: session.LevelNode, Path: "questions[2]", ID: "p2"},
		}},
		{"every question field", "questions:\n  - id: a\n    prompt: !pending \"on evaporation\"\n    answers: !pending\n    distractors: !pending \"two misconceptions\"\n    feedback:\n", []session.Pending{
			{Level: session.LevelNode, Path: "questions[a].prompt", Hint: "on evaporation", Label: `question "a" (1).prompt`},
			{Level: session.LevelNode, Path: "questions[a].answers", Label: `question "a" (1).answers`},
			{Level: session.LevelNode, Path: "questions[a].distractors", Hint: "two misconceptions", Label: `question "a" (1).distractors`},
			{Level: session.LevelNode, Path: "questions[a].feedback", Label: `question "a" (1).feedback`},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := decode(t, tt.src)
			if got := q.Pending(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("pending = %+v\nwant %+v", got, tt.want)
			}
			// Pending spots are saved as they were written.
			s, _ := yamlsrc.Parse("quiz.yaml", []byte(tt.src))
			n, _ := q.EncodeNode()
			if out, err := s.Patch(n); err != nil || string(out) != tt.src {
				t.Errorf("saved as %q (err %v)", out, err)
			}
		})
	}
}

func TestTodoQuiz(t *testing.T) {
	q := quiz.Todo("three questions on photosynthesis")
	if got := render(t, q); got != "!pending \"three questions on photosynthesis\"\n" {
		t.Errorf("saved as %q", got)
	}
	if got := render(t, quiz.Todo("")); got != "!pending\n" {
		t.Errorf("saved as %q", got)
	}
	want := []session.Pending{
		{Level: session.LevelMetadata, Path: "kind"},
		{Level: session.LevelMetadata, Path: "instructions"},
		{Level: session.LevelNode, Path: "questions", Hint: "three questions on photosynthesis", ID: "p1"},
	}
	if got := q.Pending(); !reflect.DeepEqual(got, want) {
		t.Errorf("pending = %+v", got)
	}
	if q.Hint() != "three questions on photosynthesis" {
		t.Errorf("hint = %q", q.Hint())
	}
	d := q.Describe()
	for _, w := range []string{"A quiz (kind not written yet).", "It has no questions yet.", "Brief for this quiz: three questions on photosynthesis."} {
		if !strings.Contains(d, w) {
			t.Errorf("description lacks %q:\n%s", w, d)
		}
	}
	// Metadata alone makes it a written quiz, kept with its pending list.
	s := session.New("quiz", q)
	dispatch(t, s, quiz.SetKind{Kind: "exit"})
	if got := render(t, q); got != "kind: exit\ninstructions: !pending\nquestions: !pending \"three questions on photosynthesis\"\n" {
		t.Errorf("saved as %q", got)
	}
}

func TestDecodeReportsEveryRuleWithPosition(t *testing.T) {
	tests := []struct {
		name      string
		question  string // one question, as a flow mapping
		line, col int    // where the error points, in the whole file
		msg       string
	}{
		{"no answer", "{id: a, prompt: P, answers: [], distractors: [x, y]}", 3, 5, "quiz: question \"a\" (1): the question has no answer; give at least one correct answer"},
		{"too few options", "{id: a, prompt: P, answers: [x]}", 3, 5, "the question has 1 option; a question has 2 to 6 options, answers and distractors together; add distractors"},
		{"too many options", "{id: a, prompt: P, answers: [a, b], distractors: [c, d, e, f, g]}", 3, 5, "the question has 7 options; a question has 2 to 6 options"},
		{"an answer twice", "{id: a, prompt: P, answers: [x, ' X '], distractors: [y]}", 3, 37, `"X" is listed twice in answers; keep one`},
		{"a distractor twice", "{id: a, prompt: P, answers: [x], distractors: [y, z, y]}", 3, 58, `"y" is listed twice in distractors; keep one`},
		{"both right and wrong", "{id: a, prompt: P, answers: [AD 43], distractors: [AD 410, ad 43]}", 3, 64, `"ad 43" is both an answer and a distractor; an option is either right or wrong; keep it in one list`},
		{"an empty option", "{id: a, prompt: P, answers: [x], distractors: ['']}", 3, 52, "a distractor is empty; write the option or remove it"},
		{"a bad id", "{id: 1a, prompt: P, answers: [x], distractors: [y]}", 3, 10, `quiz: question "1a" (1).id "1a" must start with a letter`},
		{"too many before distractors are written", "{id: a, prompt: P, answers: [a, b, c, d, e, f, g], distractors: !pending }", 3, 5, "the question has 7 options"},
		{"no room for the pending answers", "{id: a, prompt: P, answers: !pending , distractors: [b, c, d, e, f, g]}", 3, 5, "the question has 6 distractors and its answers are still to come; a question has 2 to 6 options, answers and distractors together; leave room for an answer"},
		{"no answer key", "{id: a, prompt: P, distractors: [x]}", 3, 5, `quiz: question "a" (1) is missing the required key "answers"`},
		{"misspelt key", "{id: a, prompt: P, answer: [x], distractors: [y]}", 3, 24, `unknown key "answer" in quiz: question "a" (1); did you mean "answers"?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "kind: check\nquestions:\n  - " + tt.question + "\n"
			ps := decodeProblems(t, src)
			for _, p := range ps {
				if p.Line == tt.line && p.Col == tt.col && strings.Contains(p.Message, tt.msg) && !p.Warning && p.File == "quiz.yaml" {
					return
				}
			}
			t.Errorf("no error at %d:%d containing %q; got:\n%v", tt.line, tt.col, tt.msg, ps)
		})
	}
}

func TestDecodeQuizLevelProblems(t *testing.T) {
	src := `kind: quiz
questions:
  - {id: a, prompt: P, answers: [x], distractors: [y]}
  - {id: a, prompt: Q, answers: [x], distractors: [y]}
`
	ps := decodeProblems(t, src)
	want := []string{
		`1:7: quiz.kind must be one of starter, check or exit, got "quiz"`,
		`4:10: duplicate question id "a" (first at line 3); ids must be unique in a quiz`,
	}
	for _, w := range want {
		found := false
		for _, p := range ps {
			found = found || strings.Contains(p.String(), w)
		}
		if !found {
			t.Errorf("no problem %q in:\n%v", w, ps)
		}
	}
	// A valid quiz with pending answers waits for them before counting.
	if ps := decodeProblems(t, "questions:\n  - {id: a, prompt: P, answers: !pending , distractors: [y]}\n"); len(ps) != 0 {
		t.Errorf("pending answers reported: %v", ps)
	}
}

func TestDescribe(t *testing.T) {
	q := decode(t, romansSrc)
	want := `A check-for-understanding quiz. It has 2 questions:
- q1: "About when did the Roman army leave Britain?"; answer "around AD 410"; 2 distractors
- walls: "Which wall did the Romans build across northern Britain?"; answer "Hadrian's Wall"; distractors (pending); feedback (pending)
Brief for this quiz: two questions on what changed after they left.`
	if got := q.Describe(); got != want {
		t.Errorf("description:\n%s\nwant:\n%s", got, want)
	}
	// Summary, for the slide's other children, leaves out the key.
	want = `A check-for-understanding quiz. It has 2 questions:
- q1: "About when did the Roman army leave Britain?"
- walls: "Which wall did the Romans build across northern Britain?"
Brief for this quiz: two questions on what changed after they left.`
	if got := q.Summary(); got != want {
		t.Errorf("summary:\n%s\nwant:\n%s", got, want)
	}
	q = decode(t, "kind: exit\ninstructions: Answer on your own.\nquestions:\n  - {id: a, prompt: "+strings.Repeat("word ", 40)+", answers: [x, y]}\n")
	d := q.Describe()
	for _, w := range []string{`An exit quiz (what students learnt, at the end); students are told: "Answer on your own.".`, "It has 1 question:", `answers "x", "y"`, "word…\""} {
		if !strings.Contains(d, w) {
			t.Errorf("description lacks %q:\n%s", w, d)
		}
	}
	if strings.Count(d, "word") > 30 {
		t.Errorf("long prompt not shortened:\n%s", d)
	}
	if d := decode(t, "questions: []\n").Describe(); d != "A quiz. It has no questions yet." {
		t.Errorf("description = %q", d)
	}
}

// The limits live in the intents' tags; these are the values docs/reference.md
// documents.
func TestLimitsComeFromTheTags(t *testing.T) {
	if least, most := quiz.OptionLimits(); least != 2 || most != 6 {
		t.Errorf("option limits = %d..%d", least, most)
	}
	if k := quiz.Kinds(); !reflect.DeepEqual(k, []string{"starter", "check", "exit"}) {
		t.Errorf("kinds = %v", k)
	}
}
