package quiz_test

import (
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/sessiontest"
	"github.com/lessongen/lessongen/quiz"
	"github.com/lessongen/lessongen/session"
)

func TestQuestionSourcesFormCheckedAtLoad(t *testing.T) {
	src := strings.Replace(romansSrc, "    feedback: The legions", "    sources:\n      - notes.md:4\n      - notes.md:7-5\n    feedback: The legions", 1)
	ps := decodeProblems(t, src)
	if len(ps) != 1 || !strings.HasPrefix(ps[0].String(), `quiz.yaml:10:9: quiz: question "q1" (1).sources: citation "notes.md:7-5"`) {
		t.Errorf("problems = %v, want one at the bad citation", ps)
	}
}

func TestAddAndUpdateQuestionCiteSources(t *testing.T) {
	src := strings.Replace(romansSrc, "    feedback: The legions", "    sources: [notes.md:4]\n    feedback: The legions", 1)
	s, q := newSession(t, src)
	o := observe(t, q)
	sessiontest.Apply(t, s, quiz.AddQuestion{Prompt: "Who led the revolt of AD 60?", Choices: choices([]string{"Boudica"}, "Caratacus"),
		Sources: []string{"notes.md:10-12"}}, o)
	if !strings.Contains(render(t, q), "sources:\n      - notes.md:10-12") {
		t.Errorf("saved form lacks the citation:\n%s", render(t, q))
	}
	sessiontest.Rejected(t, s, quiz.AddQuestion{Prompt: "Why?", Choices: choices([]string{"a"}, "b"), Sources: []string{"notes.md"}},
		session.KindInvalidArgs, "sources", "path:line", o)
	sessiontest.Rejected(t, s, quiz.UpdateQuestion{ID: "q1", Sources: []string{"notes.md:5"}}, session.KindPrecondition, "sources", "author's citations", o)
	sessiontest.Apply(t, s, quiz.UpdateQuestion{ID: "walls", Sources: []string{"notes.md:20"}}, o)
	var refs []string
	for _, r := range q.Citations() {
		refs = append(refs, r.Where+"="+r.Text)
	}
	if got := strings.Join(refs, " "); got != `question "q1" (1).sources=notes.md:4 question "walls" (2).sources=notes.md:20 question "q2" (3).sources=notes.md:10-12` {
		t.Errorf("citations = %s", got)
	}
	notes := quiz.Render(q, nil).Notes
	if !strings.Contains(notes, "<li>question q2: notes.md:10-12</li>") || !strings.Contains(notes, "<li>question q1: notes.md:4</li>") {
		t.Errorf("notes lack the citations:\n%s", notes)
	}
	// describe_quiz shows the model what each question cites.
	desc := dispatch(t, s, quiz.DescribeQuiz{}).Outputs[0].(string)
	if !strings.HasSuffix(desc, q.Describe()+"\n"+`question "q1" (1) cites notes.md:4`+"\n"+`question "walls" (2) cites notes.md:20`+"\n"+`question "q2" (3) cites notes.md:10-12`) {
		t.Errorf("describe_quiz:\n%s", desc)
	}
}
