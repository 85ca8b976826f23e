package orchestrate

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/lessongen/lessongen/internal/fakellm"
	"github.com/lessongen/lessongen/llm"
)

// TestReviewImagesQuizAndActivity: with --review-images, a quiz and an
// activity are reviewed as drawn too: each node subagent's review turn
// carries the picture of its own Render output, as the board's does.
func TestReviewImagesQuizAndActivity(t *testing.T) {
	script := fakellm.Script{Rules: []fakellm.Rule{
		{Match: []string{"(quiz.node)"}, Turns: []fakellm.Turn{
			{ToolCalls: []fakellm.FakeCall{{Name: "add_true_false_question", Arguments: `{"prompt":"Two halves make a whole.","answer":true,"why":"1/2 + 1/2 = 1."}`}}},
			{Content: "Looks right."}}},
		{Match: []string{"(activity.node)"}, Turns: []fakellm.Turn{
			{ToolCalls: []fakellm.FakeCall{
				{Name: "set_model_answer", Arguments: `{"model_answer":"Two quarters make a half."}`},
				{Name: "add_success_criteria", Arguments: `{"criteria":["names the fraction"]}`},
				{Name: "set_support", Arguments: `{"support":"Fold a paper strip."}`},
				{Name: "set_stretch", Arguments: `{"stretch":"How many eighths?"}`}}},
			{Content: "Looks right."}}},
	}}
	srv := fakellm.Start(t, script)
	model, err := llm.New(llm.Config{BaseURL: srv.URL(), APIKey: fakellm.DummyAPIKey, Model: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	doc := loadSrc(t, `version: 1
metadata:
  title: Fractions
slides:
  - id: check
    title: Check
    quiz:
      kind: check
      instructions: Say true or false.
      questions: !pending "one true/false question on halves"
  - id: fold
    title: Fold
    activity:
      instructions: Fold a strip into quarters and compare it with a half.
      grouping: pairs
      duration_minutes: 5
      model_answer: !pending
      success_criteria: !pending
      support: !pending
      stretch: !pending
`)
	var mu sync.Mutex
	var drawn []string
	shoot := func(_ context.Context, body string) ([]byte, error) {
		mu.Lock()
		defer mu.Unlock()
		drawn = append(drawn, body)
		return []byte("\x89PNG\r\n\x1a\n" + body[:20]), nil
	}
	opts := options(t, model, 1)
	opts.Review, opts.Shoot = true, shoot
	report, err := Run(context.Background(), doc, Scope{}, opts)
	if err != nil || len(report.Incomplete()) > 0 {
		t.Fatalf("%v %+v", err, report.Incomplete())
	}
	for _, want := range []struct{ node, class, shows string }{
		{"slides/check/quiz (quiz.node)", `<section class="quiz">`, "Two halves make a whole."},
		{"slides/fold/activity (activity.node)", `<section class="activity">`, "Fold a paper strip."},
	} {
		found := false
		for _, b := range drawn {
			if strings.HasPrefix(b, want.class) && strings.Contains(b, want.shows) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: not drawn for review as it stands (%q); drawn: %q", want.node, want.shows, drawn)
		}
		reviewed := false
		for _, r := range srv.Requests() {
			body := string(r.Body)
			if strings.Contains(body, want.node) && strings.Contains(body, "Review what you made") && len(imageURLs(t, r.Body)) == 1 {
				reviewed = true
			}
		}
		if !reviewed {
			t.Errorf("%s: no review turn with its picture", want.node)
		}
	}
}
