package whiteboard

import (
	"testing"

	"github.com/lessongen/lessongen/internal/rule"
)

// An intent that repeats a value another intent declares a range for must
// declare the same range: the checks read only the first.
func TestRepeatedRulesAgree(t *testing.T) {
	for _, tc := range []struct {
		name      string
		got, want rule.Rule
	}{
		{"move x", rule.Of[MoveElement]("x"), sizeOrPos("x")},
		{"move y", rule.Of[MoveElement]("y"), sizeOrPos("y")},
		{"resize w", rule.Of[ResizeElement]("w"), sizeOrPos("w")},
		{"resize h", rule.Of[ResizeElement]("h"), sizeOrPos("h")},
		{"canvas height", rule.Of[SetCanvas]("height"), canvasSide()},
	} {
		if tc.got.Range() != tc.want.Range() {
			t.Errorf("%s: %s, but the check uses %s", tc.name, tc.got.Range(), tc.want.Range())
		}
	}
}

func sizeOrPos(field string) rule.Rule { return rule.Of[Box](field) }
