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
// is described whole).
func TestSiblingsSeeSummaries(t *testing.T) {
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
	activity := first["slides/s1/activity activity.metadata"]
	for _, want := range []string{`Beside it on this slide: A 1280x720 whiteboard, headed "Board 1".`, `- text text1: reading "T"`, `- q1: "Which is half?"`} {
		if !strings.Contains(activity, want) {
			t.Errorf("the activity's chain lacks %q:\n%s", want, activity)
		}
	}
	for _, leak := range []string{"text text1 at (", `answer "1/2"`, "distractor"} {
		if strings.Contains(activity, leak) {
			t.Errorf("the activity's chain has its siblings whole (%q):\n%s", leak, activity)
		}
	}
	// A later child sees the board as the board left it, summarised.
	if quiz := first["slides/s3/quiz quiz.node"]; !strings.Contains(quiz, `- text text1: reading "T"`) || strings.Contains(quiz, "text text1 at (") {
		t.Errorf("the quiz's chain:\n%s", quiz)
	}
}
