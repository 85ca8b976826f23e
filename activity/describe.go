package activity

import (
	"fmt"
	"strings"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// Describe says in plain sentences what the activity holds, for a model's
// context and for `lessongen plan`: its Content, then the author's brief
// while the activity is pending as a whole.
func (a *Activity) Describe() string { return a.describe(true) }

// Content is Describe without the brief, which the saved file does not
// keep once the activity is touched: what resume compares.
func (a *Activity) Content() string { return a.describe(false) }

func (a *Activity) describe(briefs bool) string {
	var s strings.Builder
	s.WriteString("An activity")
	if g, ok := a.Grouping.Get(); ok {
		fmt.Fprintf(&s, " for %s", groupingPhrase(g))
	}
	if d, ok := a.DurationMinutes.Get(); ok {
		fmt.Fprintf(&s, ", %d minutes", d)
	}
	if in, ok := a.Instructions.Get(); ok {
		fmt.Fprintf(&s, "; pupils are asked: %q", strings.TrimSpace(in))
	} else {
		s.WriteString("; instructions not written yet")
	}
	s.WriteString(".")
	if cs := a.criteria(); len(cs) > 0 {
		fmt.Fprintf(&s, "\nSuccess criteria: %s.", strings.Join(cs, "; "))
	}
	for _, f := range []struct{ label, v string }{{"Support", a.Support.Value}, {"Stretch", a.Stretch.Value}} {
		if f.v != "" {
			fmt.Fprintf(&s, "\n%s: %s", f.label, f.v)
		}
	}
	// The model answer is the teacher's: a later subagent hears that it
	// exists, not what it says, so no pupil-facing text can repeat it.
	if a.ModelAnswer.Set {
		s.WriteString("\nA model answer is written (teacher-only).")
	}
	if hint := a.Hint(); briefs && hint != "" && a.Instructions.Pending {
		fmt.Fprintf(&s, "\nBrief for this activity: %s.", strings.TrimSuffix(hint, "."))
	}
	return s.String()
}

func groupingPhrase(g string) string {
	switch g {
	case "individual":
		return "pupils working alone"
	case "class":
		return "the whole class"
	}
	return "pupils in " + g
}

// Pending lists what is still to be generated, metadata first.
func (a *Activity) Pending() []session.Pending {
	var ps []session.Pending
	add := func(level session.Level, path, hint string, pending bool) {
		if pending {
			ps = append(ps, session.Pending{Level: level, Path: path, Hint: hint})
		}
	}
	add(session.LevelMetadata, "instructions", a.Instructions.Hint, a.Instructions.Pending)
	add(session.LevelMetadata, "grouping", a.Grouping.Hint, a.Grouping.Pending)
	add(session.LevelMetadata, "duration_minutes", a.DurationMinutes.Hint, a.DurationMinutes.Pending)
	add(session.LevelNode, "model_answer", a.ModelAnswer.Hint, a.ModelAnswer.Pending)
	add(session.LevelNode, "success_criteria", a.SuccessCriteria.Hint, a.SuccessCriteria.Pending)
	for _, sp := range yamlsrc.OpenSpots(a.SuccessCriteria.Value) {
		where := "at the start"
		if sp.After > 0 {
			where = fmt.Sprintf("after criterion %d", sp.After)
		}
		ps = append(ps, session.Pending{Level: session.LevelNode, Path: fmt.Sprintf("success_criteria[%d]", sp.Index), Hint: sp.Hint, ID: sp.PlaceholderID,
			Label: "new success criteria " + where})
	}
	add(session.LevelNode, "support", a.Support.Hint, a.Support.Pending)
	add(session.LevelNode, "stretch", a.Stretch.Hint, a.Stretch.Pending)
	return ps
}
