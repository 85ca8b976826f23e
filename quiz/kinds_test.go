package quiz_test

import (
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/sessiontest"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/quiz"
	"github.com/lessongen/lessongen/session"
)

// everyType is a quiz with a question of every type, as the three lessons
// re-translated for issue 27 write them: options with and without a why,
// numbers as written (7.20), a hint, flow and block mappings.
const everyType = `kind: exit
questions:
  - id: q1
    prompt: Which command renames a file?
    answers: [{text: mv, why: mv moves a file to a new name}]
    distractors:
      - {text: cp, why: cp leaves the old file behind}
      - rm
    hint: Think about what happens to the old name.
  - {id: q2, type: true_false, prompt: rm asks before it deletes a file., answer: false, why: Only rm -i asks.}
  - id: q3
    type: short
    prompt: What does rm -i do, and why would we want it?
    model_answer: It asks before deleting each file, so we do not lose one by mistake.
    marks: 2
  - {id: q4, type: numeric, prompt: 'What is the mean length, in cm?', answer: 7.20, tolerance: 0.05, unit: cm}
  - id: q5
    type: order
    prompt: Put the steps in order.
    items: [make a copy, edit the copy, delete the old file]   # the correct order
  - id: q6
    type: match
    prompt: Match each command to what it does.
    pairs:
      - {left: mv, right: move or rename}
      - {left: cp, right: copy}
      - {left: rm, right: remove}
`

// Every type loads, and saves unchanged byte for byte.
func TestEveryTypeLoadsAndSavesUnchanged(t *testing.T) {
	s, err := yamlsrc.Parse("quiz.yaml", []byte(everyType))
	if err != nil {
		t.Fatal(err)
	}
	q := decode(t, everyType)
	n, _ := q.EncodeNode()
	if out, err := s.Patch(n); err != nil || string(out) != everyType {
		t.Errorf("saving the unchanged quiz changed it (err %v):\n%s", err, out)
	}
	if v, ok := question(t, q, "q2").Answer.Value.Bool(); !ok || v {
		t.Errorf("q2 answer = %v %v", v, ok)
	}
	if v, ok := question(t, q, "q4").Answer.Value.Number(); !ok || v != 7.2 {
		t.Errorf("q4 answer = %v %v", v, ok)
	}
	d := q.Describe()
	for _, want := range []string{`q2: true/false "rm asks`, "answer false", "q3: short answer", "2 marks", "answer 7.20 cm", `in order "make a copy", "edit the copy", "delete the old file"`, "3 pairs", "with a hint"} {
		if !strings.Contains(d, want) {
			t.Errorf("description lacks %q:\n%s", want, d)
		}
	}
	if ps := q.Pending(); len(ps) != 0 {
		t.Errorf("pending: %+v", ps)
	}
}

func TestDecodeReportsEveryTypeRuleWithPosition(t *testing.T) {
	tests := []struct {
		name      string
		question  string // one question, as a flow mapping
		line, col int
		msg       string
	}{
		{"unknown type", "{id: a, type: essay, prompt: P, model_answer: M}", 3, 19, `quiz: question "a" (1).type must be one of choice, true_false, short, numeric, order or match, got "essay"`},
		{"true_false not a boolean", "{id: a, type: true_false, prompt: P, answer: 'no'}", 3, 50, `.answer of a true_false question must be true or false, got "no"`},
		{"true_false without answer", "{id: a, type: true_false, prompt: P}", 3, 5, `is missing the required key "answer"`},
		{"numeric not a number", "{id: a, type: numeric, prompt: P, answer: 7 cm}", 3, 47, `.answer of a numeric question must be a number, got "7 cm"`},
		{"numeric quoted", "{id: a, type: numeric, prompt: P, answer: '7'}", 3, 47, `must be a number, got "7"`},
		{"negative tolerance", "{id: a, type: numeric, prompt: P, answer: 7, tolerance: -0.5}", 3, 61, "tolerance -0.5 is below 0"},
		{"tolerance a list", "{id: a, type: numeric, prompt: P, answer: 7, tolerance: [1]}", 3, 61, "tolerance must be a number, got a list"},
		{"short without model answer", "{id: a, type: short, prompt: P}", 3, 5, `is missing the required key "model_answer"`},
		{"zero marks", "{id: a, type: short, prompt: P, model_answer: M, marks: 0}", 3, 61, "marks 0 is outside 1 to 10"},
		{"order of one", "{id: a, type: order, prompt: P, items: [x]}", 3, 44, "items: the question has 1 item; give 2 to 8 items"},
		{"order twice", "{id: a, type: order, prompt: P, items: [x, y, ' X']}", 3, 51, `items: "X" is listed twice`},
		{"match of one", "{id: a, type: match, prompt: P, pairs: [{left: a, right: b}]}", 3, 44, "the question has 1 pair; give 2 to 8 pairs"},
		{"match left twice", "{id: a, type: match, prompt: P, pairs: [{left: a, right: b}, {left: a, right: c}]}", 3, 66, `"a" is on the left twice`},
		{"match right twice", "{id: a, type: match, prompt: P, pairs: [{left: a, right: b}, {left: c, right: B}]}", 3, 66, `"B" is on the right twice`},
		{"key of another type", "{id: a, type: short, prompt: P, model_answer: M, answers: [x]}", 3, 54, "answers is not a key of a short question; remove it, or set the type whose key it is (choice)"},
		{"model answer on a choice", "{id: a, prompt: P, answers: [x], distractors: [y], model_answer: M}", 3, 56, "model_answer is not a key of a choice question; remove it, or set the type whose key it is (short)"},
		{"option neither text nor mapping", "{id: a, prompt: P, answers: [[x]], distractors: [y]}", 3, 34, "must be the option's text, or {text, why}"},
		{"pending option", "{id: a, prompt: P, answers: [x], distractors: [y, !pending ]}", 3, 55, "cannot be pending; write the option, or make the whole list pending"},
		{"option mapping misspelt", "{id: a, prompt: P, answers: [{text: x, whyy: r}], distractors: [y]}", 3, 44, `unknown key "whyy" in quiz: question "a" (1).answers[0]; did you mean "why"?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := decodeProblems(t, "kind: check\nquestions:\n  - "+tt.question+"\n")
			for _, p := range ps {
				if p.Line == tt.line && p.Col == tt.col && strings.Contains(p.Message, tt.msg) && !p.Warning {
					return
				}
			}
			t.Errorf("no error at %d:%d containing %q; got:\n%v", tt.line, tt.col, tt.msg, ps)
		})
	}
}

// pendingTypes has a pending spot in every place a new type allows.
const pendingTypes = `questions:
  - id: tf
    type: true_false
    prompt: Romans built straight roads.
    answer: !pending
    why: !pending "the reason"
  - id: sh
    type: short
    prompt: Why did the Romans leave?
    model_answer: !pending "two reasons"
    marks: 2
  - id: nu
    type: numeric
    prompt: How many years did they stay?
    answer: !pending
    tolerance: 0
    unit: !pending
  - {id: or, type: order, prompt: Put these in order., items: !pending "three events"}
  - {id: ma, type: match, prompt: Match the town to its Roman name., pairs: !pending }
  - id: ch
    prompt: Which wall?
    answers: [Hadrian's Wall]
    distractors: [{text: Offa's Dyke, why: !pending }]
    hint: !pending
`

// Every pending spot of the new types is listed, filled through its own
// tool, and the author's values stay.
func TestPendingTypesFillThroughTheirTools(t *testing.T) {
	s, q := newSession(t, pendingTypes)
	var paths []string
	for _, p := range q.Pending() {
		paths = append(paths, p.Path)
	}
	want := "questions[tf].answer questions[tf].why questions[sh].model_answer questions[nu].answer questions[nu].unit questions[or].items questions[ma].pairs questions[ch].hint questions[ch].distractors[0].why"
	if got := strings.Join(paths, " "); got != want {
		t.Errorf("pending:\n got %s\nwant %s", got, want)
	}
	wrote := "only the author's pending fields can be filled"
	o := observe(t, q)
	sessiontest.Rejected(t, s, quiz.SetModelAnswer{ID: "sh", Marks: ptr(3)}, session.KindPrecondition, "marks", wrote, o)
	sessiontest.Rejected(t, s, quiz.SetModelAnswer{ID: "tf", ModelAnswer: ptr("x")}, session.KindInvalidArgs, "id", "use the set_ tool of its type", o)
	sessiontest.Rejected(t, s, quiz.SetNumericAnswer{ID: "nu", Tolerance: ptr(0.5)}, session.KindPrecondition, "tolerance", wrote, o)
	sessiontest.Rejected(t, s, quiz.SetCorrectOrder{ID: "or", Order: quiz.Order{Items: []string{"AD 43", "ad 43"}}}, session.KindInvalidArgs, "items[1]", "keep one", o)
	sessiontest.Rejected(t, s, quiz.SetMatchPairs{ID: "ma", Matches: quiz.Matches{Pairs: []quiz.Pair{{Left: "York", Right: "Eboracum"}}}}, session.KindInvalidArgs, "pairs", "give 2 to 8 pairs", o)
	sessiontest.Rejected(t, s, quiz.SetNumericAnswer{ID: "nu"}, session.KindInvalidArgs, "", "set at least one of answer, tolerance, unit", o)
	for _, in := range []session.Intent{
		quiz.SetTrueFalseAnswer{ID: "tf", Answer: ptr(true), Why: ptr("They surveyed in straight lines.")},
		quiz.SetModelAnswer{ID: "sh", ModelAnswer: ptr("Rome needed its soldiers; Britain was hard to defend.")},
		quiz.SetNumericAnswer{ID: "nu", Answer: ptr(367.0), Unit: ptr("years")},
		quiz.SetCorrectOrder{ID: "or", Order: quiz.Order{Items: []string{"AD 43", "AD 122", "AD 410"}}},
		quiz.SetMatchPairs{ID: "ma", Matches: quiz.Matches{Pairs: []quiz.Pair{{Left: "York", Right: "Eboracum"}, {Left: "London", Right: "Londinium"}}}},
		quiz.UpdateQuestion{ID: "ch", Hint: ptr("It is named after an emperor."),
			NewChoices: quiz.NewChoices{Options: []quiz.Option{{Text: "Hadrian's Wall", Correct: true}, {Text: "Offa's Dyke", Why: "Offa was a Saxon king."}}}},
	} {
		apply(t, s, q, in)
	}
	if ps := q.Pending(); len(ps) != 0 {
		t.Errorf("still pending: %+v", ps)
	}
	// Saved over the file, every line the author wrote without a pending
	// spot stays as written.
	src, err := yamlsrc.Parse("quiz.yaml", []byte(pendingTypes))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := q.EncodeNode()
	patched, err := src.Patch(n)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(pendingTypes, "\n") {
		if !strings.Contains(line, "!pending") && !strings.Contains(string(patched), line+"\n") {
			t.Errorf("author line lost: %q\n%s", line, patched)
		}
	}
	got := render(t, q)
	for _, w := range []string{
		"answer: true", "why: They surveyed in straight lines.", "model_answer: Rome needed", "marks: 2",
		"answer: 367", "unit: years", "items:\n      - AD 43\n      - AD 122\n      - AD 410", "- left: York\n        right: Eboracum",
		"- text: Offa's Dyke\n        why: Offa was a Saxon king.", "hint: It is named after an emperor.",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("saved quiz lacks %q:\n%s", w, got)
		}
	}
}

// A model adds a question of every type through the tool named for it;
// each lands in the placeholder it names and saves in the author's shape.
func TestAddEveryTypeThroughItsTool(t *testing.T) {
	s, q := newSession(t, "kind: exit\nquestions:\n  - !pending \"one of each type\"\n")
	at := quiz.Asked{Placing: quiz.Placing{PendingID: "p1"}}
	for _, in := range []session.Intent{
		quiz.AddTrueFalseQuestion{Prompt: "The Romans left in AD 410.", Answer: true, Why: "The legions went home to defend Rome.", Asked: at},
		quiz.AddShortAnswerQuestion{Prompt: "Why did the Romans leave?", ModelAnswer: "Rome itself was under attack.", Marks: 1, Asked: at},
		quiz.AddNumericQuestion{Prompt: "How many years did they stay?", Answer: 367, Tolerance: 0, Unit: "years", Asked: at},
		quiz.AddOrderingQuestion{Prompt: "Put these in order.", Order: quiz.Order{Items: []string{"invasion", "Hadrian's Wall", "leaving"}}, Asked: at},
		quiz.AddMatchingQuestion{Prompt: "Match the towns.", Matches: quiz.Matches{Pairs: []quiz.Pair{{Left: "York", Right: "Eboracum"}, {Left: "London", Right: "Londinium"}}},
			Asked: quiz.Asked{Hint: "Say the Latin names aloud.", Placing: at.Placing}},
	} {
		apply(t, s, q, in)
	}
	wantIDs(t, q, "q1", "q2", "q3", "q4", "q5", "?p1")
	got := render(t, q)
	for _, w := range []string{
		"type: true_false\n    prompt: The Romans left in AD 410.\n    answer: true\n    why: The legions went home to defend Rome.\n",
		"type: short\n    prompt: Why did the Romans leave?\n    model_answer: Rome itself was under attack.\n    marks: 1\n",
		"type: numeric\n    prompt: How many years did they stay?\n    answer: 367\n    tolerance: 0\n    unit: years\n",
		"type: order\n", "type: match\n", "hint: Say the Latin names aloud.\n",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("saved quiz lacks %q:\n%s", w, got)
		}
	}
	// The saved quiz loads again with no problem.
	decode(t, got)
	o := observe(t, q)
	sessiontest.Rejected(t, s, quiz.AddNumericQuestion{Prompt: "P", Answer: 1, Tolerance: -1}, session.KindInvalidArgs, "tolerance", "", o)
	sessiontest.Rejected(t, s, quiz.AddShortAnswerQuestion{Prompt: "P", ModelAnswer: "M", Marks: 0}, session.KindInvalidArgs, "marks", "", o)
	sessiontest.Rejected(t, s, quiz.AddTrueFalseQuestion{Prompt: "P", Answer: true, Why: " "}, session.KindInvalidArgs, "why", "", o)
	sessiontest.Rejected(t, s, quiz.AddMatchingQuestion{Prompt: "P", Matches: quiz.Matches{Pairs: []quiz.Pair{{Left: "a", Right: "b"}, {Left: "c", Right: " "}}}}, session.KindInvalidArgs, "pairs[1]", "write both sides", o)
	sessiontest.Rejected(t, s, quiz.UpdateQuestion{ID: "q2", NewChoices: quiz.NewChoices(choices([]string{"a"}, "b"))}, session.KindInvalidArgs, "options", "set_ tool", o)
	// A hint is on the slide: one that writes the answer is refused.
	sessiontest.Rejected(t, s, quiz.AddNumericQuestion{Prompt: "How long?", Answer: 367, Unit: "years", Asked: quiz.Asked{Hint: "Nearly 367 years."}}, session.KindInvalidArgs, "hint", "without writing it", o)
	sessiontest.Rejected(t, s, quiz.UpdateQuestion{ID: "q2", Hint: ptr("It is because rome itself was under attack.")}, session.KindInvalidArgs, "hint", "without writing it", o)
	sessiontest.Rejected(t, s, quiz.AddQuestion{Prompt: "Which wall?", Choices: choices([]string{"Hadrian's Wall"}, "Offa's Dyke"), Hint: "Hadrian's wall, of course"}, session.KindInvalidArgs, "hint", "without writing it", o)
}

// The slide (Body) shows each question's face; the answer key (Notes)
// holds every answer, why, model answer and tolerance, and the body none.
func TestRenderKeepsEveryAnswerInTheNotes(t *testing.T) {
	q := decode(t, everyType)
	r := quiz.Render(q, nil)
	secret := []string{
		"mv moves a file to a new name", "cp leaves the old file behind", "Only rm -i asks.",
		"It asks before deleting each file", "7.20", "0.05", "In order: ", "(mv → move or rename)",
	}
	for _, s := range secret {
		if strings.Contains(r.Body, s) {
			t.Errorf("the slide shows %q", s)
		}
		if !strings.Contains(r.Notes, s) {
			t.Errorf("the answer key lacks %q:\n%s", s, r.Notes)
		}
	}
	for _, w := range []string{
		"<li>True</li><li>False</li>", `class="answer-space"`, "(2 marks)", "</span> cm</p>",
		`<div class="match"`, `<ol class="match-left" type="1"><li>mv</li><li>cp</li><li>rm</li></ol>`, `<ol class="match-right" type="A">`,
		`<p class="hint"><em>Hint:</em> Think about what happens to the old name.</p>`,
	} {
		if !strings.Contains(r.Body, w) {
			t.Errorf("the slide lacks %s:\n%s", w, r.Body)
		}
	}
	// The items are on the slide, not in their correct order.
	if strings.Contains(r.Body, "<li>make a copy</li><li>edit the copy</li><li>delete the old file</li>") {
		t.Errorf("order items shown in the correct order:\n%s", r.Body)
	}
	for _, it := range []string{"<li>make a copy</li>", "<li>edit the copy</li>", "<li>delete the old file</li>"} {
		if !strings.Contains(r.Body, it) {
			t.Errorf("slide lacks item %s", it)
		}
	}
	// The present mode's reveal finds the true/false answer where it is.
	if !strings.Contains(r.Notes, `<li data-correct="2">B. False (Only rm -i asks.)</li>`) {
		t.Errorf("key of q2:\n%s", r.Notes)
	}
	if again := quiz.Render(decode(t, everyType), nil); again.Body != r.Body || again.Notes != r.Notes {
		t.Error("two renders differ: the shuffles are not seeded")
	}
}

// The answer key a board must not show holds each type's written answer:
// choice answers, a numeric answer as written and a model answer; not a
// true/false word or an order's items, which any board may hold.
func TestAnswerKeyHoldsEveryTypesAnswer(t *testing.T) {
	got := strings.Join(decode(t, everyType).AnswerKey(), "|")
	if want := "mv|It asks before deleting each file, so we do not lose one by mistake.|7.20"; got != want {
		t.Errorf("answer key = %q, want %q", got, want)
	}
}

// A hint is checked against the answer whenever either changes: a model
// that writes the hint while the answer is pending, then an answer (or a
// true/false why) the hint already holds, is refused at the answer. An
// author's own hint is the author's: the model's answer is not refused
// for it.
func TestHintIsCheckedWhenTheAnswerComesAfterIt(t *testing.T) {
	const src = `questions:
  - id: sh
    type: short
    prompt: Why did the Romans leave?
    model_answer: !pending
    hint: !pending
  - id: nu
    type: numeric
    prompt: How many years did they stay?
    answer: !pending
    hint: !pending
  - id: tf
    type: true_false
    prompt: Romans built straight roads.
    answer: !pending
    why: !pending
    hint: !pending
  - id: au
    type: short
    prompt: Why walls?
    model_answer: !pending
    hint: Walls keep raiders out.
`
	s, q := newSession(t, src)
	apply(t, s, q, quiz.UpdateQuestion{ID: "sh", Hint: ptr("Rome needed its soldiers at home.")})
	apply(t, s, q, quiz.UpdateQuestion{ID: "nu", Hint: ptr("More than 366 years.")})
	apply(t, s, q, quiz.UpdateQuestion{ID: "tf", Hint: ptr("They surveyed in straight lines.")})
	o := observe(t, q)
	sessiontest.Rejected(t, s, quiz.SetModelAnswer{ID: "sh", ModelAnswer: ptr("Rome needed its soldiers at home")}, session.KindInvalidArgs, "hint", "without writing it", o)
	sessiontest.Rejected(t, s, quiz.SetNumericAnswer{ID: "nu", Answer: ptr(366.0)}, session.KindInvalidArgs, "hint", "without writing it", o)
	sessiontest.Rejected(t, s, quiz.SetTrueFalseAnswer{ID: "tf", Answer: ptr(true), Why: ptr("They surveyed in straight lines.")}, session.KindInvalidArgs, "hint", "without writing it", o)
	apply(t, s, q, quiz.SetModelAnswer{ID: "sh", ModelAnswer: ptr("The empire was attacked; Rome called its legions back.")})
	apply(t, s, q, quiz.SetModelAnswer{ID: "au", ModelAnswer: ptr("Walls keep raiders out")})
}

// The author's hint on a pending true/false answer speaks of the answer
// ("true: the roads ran straight"): like a numeric answer's, it goes to the
// answer key, never on the slide, in HTML and PowerPoint alike.
func TestPendingAnswerHintStaysInTheKey(t *testing.T) {
	q := decode(t, `questions:
  - id: tf
    type: true_false
    prompt: Romans built straight roads.
    answer: !pending "true, they surveyed in lines"
`)
	r := quiz.Render(q, nil)
	if strings.Contains(r.Body, "they surveyed in lines") || !strings.Contains(r.Notes, "they surveyed in lines") {
		t.Errorf("the pending answer's hint is not in the key alone:\nbody %s\nnotes %s", r.Body, r.Notes)
	}
	if k := quiz.Key(q.Questions.Value[0], false); !strings.Contains(strings.Join(k, " "), "they surveyed in lines") {
		t.Errorf("key = %q", k)
	}
	if seen := quiz.Seen(q.Questions.Value[0], false); strings.Contains(strings.Join(seen, " "), "surveyed") {
		t.Errorf("seen = %q", seen)
	}
}
