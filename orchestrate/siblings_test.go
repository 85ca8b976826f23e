package orchestrate

import (
	"context"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/fakellm"
)

// A child's describe chain gives its slide's other children by their
// Summary: a board's words without each element's box, a quiz's questions
// without the key (whiteboard and quiz tests check that their own node
// is described whole); at the metadata level, without the items.
func TestSiblingsSeeSummaries(t *testing.T) {
	first := firstPrompts(t)
	// A node subagent sees what its siblings hold; a metadata one what
	// they are (see withoutItems).
	activity := first["slides/s1/activity activity.node"]
	for _, want := range []string{`Beside it on this slide: A 1280x720 whiteboard, headed "Board 1".`, `- text text1: reading "Plants make`, `- q1: "Which is half?"`} {
		if !strings.Contains(activity, want) {
			t.Errorf("the activity's chain lacks %q:\n%s", want, activity)
		}
	}
	for _, leak := range []string{"text text1 at (", `answer "1/2"`, "distractor"} {
		if strings.Contains(activity, leak) {
			t.Errorf("the activity's chain has its siblings whole (%q):\n%s", leak, activity)
		}
	}
	meta := first["slides/s1/activity activity.metadata"]
	for _, want := range []string{`Beside it on this slide: A 1280x720 whiteboard, headed "Board 1". Layout: L. It has 6 elements.` + "\n", "It has 2 questions.\n"} {
		if !strings.Contains(meta, want) {
			t.Errorf("the activity metadata's chain lacks %q:\n%s", want, meta)
		}
	}
	if strings.Contains(meta, "- text text1") || strings.Contains(meta, "- q1") {
		t.Errorf("the activity metadata's chain lists its siblings' items:\n%s", meta)
	}
	// A later child sees the board as the board left it, summarised.
	if quiz := first["slides/s3/quiz quiz.node"]; !strings.Contains(quiz, `- text text1: reading "Plants make`) || strings.Contains(quiz, "text text1 at (") {
		t.Errorf("the quiz's chain:\n%s", quiz)
	}
}

// firstPrompts runs a lesson whose slides each hold a whiteboard, a quiz
// and an activity, and returns each level's first prompt.
func firstPrompts(t *testing.T) map[string]string {
	t.Helper()
	srv := fakellm.Start(t, allLevelsScript())
	doc := loadSrc(t, prefixLesson("whiteboard", "quiz", "activity"))
	if _, err := Run(context.Background(), doc, Scope{}, options(t, benchModel(t, srv), 1)); err != nil {
		t.Fatal(err)
	}
	first := map[string]string{}
	for _, r := range srv.Requests() {
		if p, _, lv, _ := promptOf(r.Body); first[lv] == "" {
			first[lv] = p
		}
	}
	return first
}
