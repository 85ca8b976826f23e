package orchestrate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/session"
)

const answersLesson = `version: 1
metadata:
  title: Light
slides:
  - id: check
    title: Check
    whiteboard:
      heading: Where does each stage happen?
      elements:
        - {type: text, id: q1, x: 40, y: 40, w: 600, h: 60, text: "1. Where do the light reactions happen?"}
        - {type: text, id: a1, x: 40, y: 140, w: 600, h: 60, text: "Answer: the Thylakoid   membrane"}
    quiz:
      kind: check
      instructions: Choose one answer for each question.
      questions:
        - id: q1
          prompt: Where do the light reactions happen?
          answers: [thylakoid membrane]
          distractors: [stroma, nucleus]
        - id: q2
          prompt: How many?
          answers: ["2"]
          distractors: ["3", "4"]
`

func TestAnswersShownOnTheBoard(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lesson.yaml")
	if err := os.WriteFile(path, []byte(answersLesson), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := compose.Load(path, goldenRegistry(t))
	if err != nil {
		t.Fatal(err)
	}
	var kids []*session.Session
	for _, kind := range []string{"whiteboard", "quiz"} {
		s, err := doc.Child("check", kind)
		if err != nil {
			t.Fatal(err)
		}
		kids = append(kids, s)
	}
	notes := answersShown(kids)
	// The answer is found whatever its case and spacing; "2" is too short
	// to look for: it would be found in any number on the board.
	if len(notes) != 1 || notes[0].Node != "slides/check/whiteboard" || notes[0].About != "a1" || !strings.Contains(notes[0].Text, `"thylakoid membrane"`) {
		t.Errorf("notes %+v", notes)
	}
}

func TestContainsWords(t *testing.T) {
	for _, tc := range []struct {
		s, sub string
		want   bool
	}{
		{"the thylakoid membrane", "thylakoid membrane", true},
		{"thylakoid membranes", "thylakoid membrane", false},
		{"photosynthesis", "synthesis", false},
		{"co2 and water", "co2", true},
		{"x co2", "co2", true},
		{"αβγ stroma", "stroma", true},
	} {
		if got := containsWords(tc.s, tc.sub); got != tc.want {
			t.Errorf("containsWords(%q, %q) = %v", tc.s, tc.sub, got)
		}
	}
}
