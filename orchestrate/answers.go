package orchestrate

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/tool"
)

// minAnswerLen is the shortest answer looked for on a board: "4" or "no"
// would be found in any text.
const minAnswerLen = 3

// answersShown checks a slide's children: a right answer of a quiz that
// appears word for word on a board of the same slide gives the task away.
// Each finding is a note for the author, as the check cannot know whether
// the board was meant to be read after the quiz.
func answersShown(kids []*session.Session) []tool.Note {
	var answers []string
	for _, s := range kids {
		s.View(func(st session.State) {
			if a, ok := st.(modality.AnswerKeyed); ok {
				answers = append(answers, a.AnswerKey()...)
			}
		})
	}
	if len(answers) == 0 {
		return nil // most slides have no quiz: no board text to gather
	}
	shown := map[string]map[string]string{} // node -> where -> text
	for _, s := range kids {
		s.View(func(st session.State) {
			if t, ok := st.(modality.TextShown); ok {
				shown[s.Name()] = t.VisibleText()
			}
		})
	}
	var notes []tool.Note
	for _, answer := range answers {
		want := normalize(answer)
		if len([]rune(want)) < minAnswerLen {
			continue
		}
		for _, node := range slices.Sorted(maps.Keys(shown)) {
			for _, where := range slices.Sorted(maps.Keys(shown[node])) {
				if containsWords(normalize(shown[node][where]), want) {
					notes = append(notes, tool.Note{Node: node, Level: "check", About: where,
						Text: fmt.Sprintf("the quiz answer %q is on this slide's board: students would see it while they answer; move it to the speaker notes", answer)})
				}
			}
		}
	}
	return notes
}

// normalize lowercases s and folds runs of spaces, so "Light  energy"
// matches "light energy".
func normalize(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// containsWords reports whether sub occurs in s as whole words.
func containsWords(s, sub string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], sub)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(sub)
		if (start == 0 || !wordRune(lastRune(s[:start]))) && (end == len(s) || !wordRune(firstRune(s[end:]))) {
			return true
		}
		i = start + 1
	}
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func lastRune(s string) rune {
	r := []rune(s)
	return r[len(r)-1]
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}
