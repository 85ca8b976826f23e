package lesson

import (
	"testing"

	"github.com/lessongen/lessongen/internal/rule"
)

// UpdateSlide repeats AddSlide's duration; the checks read AddSlide's.
func TestRepeatedRulesAgree(t *testing.T) {
	if got, want := rule.Of[UpdateSlide]("duration_minutes").Range(), slideMinutes().Range(); got != want {
		t.Errorf("update_slide says %s, the check uses %s", got, want)
	}
}
