package lesson

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/yamlsrc"

	"github.com/lessongen/lessongen/internal/rule"
)

// UpdateSlide repeats AddSlide's duration; the checks read AddSlide's.
func TestRepeatedRulesAgree(t *testing.T) {
	if got, want := rule.Of[UpdateSlide]("duration_minutes").Range(), slideMinutes().Range(); got != want {
		t.Errorf("update_slide says %s, the check uses %s", got, want)
	}
}

// Slide minutes that do not add up to the lesson's duration are a warning
// at the lesson's duration, saying by how much.
func TestMinutesAddUp(t *testing.T) {
	slide := func(id string, minutes int) string {
		return fmt.Sprintf("  - {id: %s, title: T, duration_minutes: %d}\n", id, minutes)
	}
	tests := []struct {
		name, slides, want string
	}{
		{"agree", slide("a", 20) + slide("b", 25), ""},
		{"over", slide("a", 90) + slide("b", 90), "lesson.yaml:5:21: warning: metadata.duration_minutes: the slides take 180 minutes, 135 more than the lesson's 45; shorten slides"},
		{"short", slide("a", 10) + slide("b", 5), "lesson.yaml:5:21: warning: metadata.duration_minutes: the slides take 15 minutes, 30 fewer than the lesson's 45; lengthen slides"},
		// A pending slide may take the rest; it cannot take minutes back.
		{"short with a slide pending", slide("a", 10) + "  - !pending more\n", ""},
		{"over with a slide pending", slide("a", 50) + "  - !pending more\n", "the slides take 50 minutes, 5 more than the lesson's 45"},
		{"short with minutes pending", slide("a", 10) + "  - {id: b, title: T, duration_minutes: !pending }\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "version: 1\nmetadata:\n  title: L\n  # the duration\n  duration_minutes: 45\nslides:\n" + tt.slides
			s, err := yamlsrc.Parse("lesson.yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			r := &yamlsrc.Reporter{File: "lesson.yaml"}
			Decode(s.Root, r, nil, nil)
			if err := r.Problems.Err(); err != nil {
				t.Fatalf("decode: %v", err)
			}
			var got []string
			for _, w := range r.Problems.Warnings() {
				got = append(got, w.String())
			}
			switch {
			case tt.want == "" && len(got) != 0:
				t.Errorf("warnings %q, want none", got)
			case tt.want != "" && (len(got) != 1 || !strings.Contains(got[0], tt.want)):
				t.Errorf("warnings %q, want one containing %q", got, tt.want)
			}
		})
	}
}

// The minutes are a defect a subagent is told about too.
func TestMinutesAreADefect(t *testing.T) {
	src := "version: 1\nmetadata:\n  title: L\n  duration_minutes: 10\nslides:\n  - {id: a, title: T, duration_minutes: 90}\n"
	s, err := yamlsrc.Parse("lesson.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p := Decode(s.Root, &yamlsrc.Reporter{File: "lesson.yaml"}, nil, nil)
	ds := p.Defects()
	if len(ds) != 1 || ds[0].Path != "metadata.duration_minutes" || !strings.Contains(ds[0].Message, "80 more than the lesson's 10") {
		t.Errorf("defects = %+v", ds)
	}
}
