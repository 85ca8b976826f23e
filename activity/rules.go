package activity

import (
	"fmt"
	"strings"

	"github.com/lessongen/lessongen/internal/rule"
)

// The activity's limits are written once, as tags on the intents a model
// calls; the bridge turns them into the tool schema and these read the
// same tags (internal/rule), so the file check, the dispatch check and what
// a model is told agree.

func groupingRule() rule.Rule { return rule.Of[SetGrouping]("grouping") }
func minutesRule() rule.Rule  { return rule.Of[SetActivityMinutes]("duration_minutes") }
func criteriaRule() rule.Rule { return rule.Of[AddSuccessCriteria]("criteria") }
func blank(s string) bool     { return strings.TrimSpace(s) == "" }

// words is "a, b or c".
func words(ws []string) string {
	if len(ws) < 2 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " or " + ws[len(ws)-1]
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
