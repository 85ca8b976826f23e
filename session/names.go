package session

import "fmt"

// ItemName is how messages, plan and prompts name an item of
// a document's list: by its id (written or derived) and 1-based position
// among the list's real items, `slide "light" (3)`, `element "arrow1" (4)`;
// by position alone when it has no id, `slide 3`. Each modality names its
// items through it (lesson.SlideName, whiteboard.ElementName,
// quiz.QuestionName).
func ItemName(noun, id string, pos int) string {
	if id == "" {
		return fmt.Sprintf("%s %d", noun, pos)
	}
	return fmt.Sprintf("%s %q (%d)", noun, id, pos)
}
