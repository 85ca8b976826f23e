package templates_test

import (
	"strings"
	"testing"

	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/quiz"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/templates"
)

// A modality that brings its own prompts loads through LevelsOf with no
// template file, and its level renders its own prompt.
func TestLevelsOfTakesAModalitysOwnPrompts(t *testing.T) {
	poll := quiz.Modality()
	poll.Name = "poll"
	poll.Prompts = map[session.Level]string{
		session.LevelMetadata: "Poll question for {{ .Node }}.",
		session.LevelNode:     "Poll options for {{ .Node }}.",
	}
	reg, err := modality.New(lesson.Modality(), quiz.Modality(), poll)
	if err != nil {
		t.Fatal(err)
	}
	set, err := templates.Load("", templates.LevelsOf(reg))
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := set.Render("poll.node", templates.Data{Node: "slides/a/poll", Level: "poll.node"})
	if err != nil || !strings.Contains(got, "Poll options for slides/a/poll.") {
		t.Errorf("poll.node = %q, %v", got, err)
	}
	if _, got, err := set.Render("quiz.node", templates.Data{Node: "slides/a/quiz", Level: "quiz.node", MaxSteps: 3}); err != nil || !strings.Contains(got, "Node: slides/a/quiz (quiz.node)") {
		t.Errorf("quiz.node, from its embedded file = %q, %v", got, err)
	}
}
