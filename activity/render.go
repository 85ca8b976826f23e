package activity

import (
	"fmt"
	"html"
	"strings"

	"github.com/lessongen/lessongen/modality"
)

// Render draws the activity for `lessongen render`: the task, its grouping
// and minutes, success criteria, support and stretch in Body, which pupils
// see (the handout, present mode); the model answer in Notes only, the
// teacher's, revealed after the task. Pending spots show their hints.
func Render(a *Activity, _ map[string]string) modality.Rendered {
	var b strings.Builder
	b.WriteString("<section class=\"activity\">\n<p class=\"activity-meta\">Activity")
	if g, ok := a.Grouping.Get(); ok {
		fmt.Fprintf(&b, " · <span class=\"grouping\">%s</span>", html.EscapeString(g))
	} else if a.Grouping.Pending {
		b.WriteString(" · " + pendingHTML("grouping", a.Grouping.Hint))
	}
	if d, ok := a.DurationMinutes.Get(); ok {
		fmt.Fprintf(&b, " · <span class=\"minutes\">%d min</span>", d)
	} else if a.DurationMinutes.Pending {
		b.WriteString(" · " + pendingHTML("minutes", a.DurationMinutes.Hint))
	}
	b.WriteString("</p>\n")
	para(&b, "activity-instructions", "instructions", a.Instructions.Value, a.Instructions.Set, a.Instructions.Pending, a.Instructions.Hint)
	if a.SuccessCriteria.Pending || len(a.SuccessCriteria.Value) > 0 {
		b.WriteString("<h4>Success criteria</h4>\n<ul class=\"success-criteria\">\n")
		if a.SuccessCriteria.Pending {
			fmt.Fprintf(&b, "<li>%s</li>\n", pendingHTML("success criteria", a.SuccessCriteria.Hint))
		}
		for _, c := range a.SuccessCriteria.Value {
			if c.IsPlaceholder {
				fmt.Fprintf(&b, "<li>%s</li>\n", pendingHTML("success criteria", c.Hint))
			} else {
				fmt.Fprintf(&b, "<li>%s</li>\n", html.EscapeString(c.Text))
			}
		}
		b.WriteString("</ul>\n")
	}
	labelled(&b, "support", "Support", a.Support.Value, a.Support.Set, a.Support.Pending, a.Support.Hint)
	labelled(&b, "stretch", "Stretch", a.Stretch.Value, a.Stretch.Set, a.Stretch.Pending, a.Stretch.Hint)
	b.WriteString("</section>\n")
	var notes string
	switch {
	case a.ModelAnswer.Set:
		notes = "<div class=\"model-answer\"><h4>Model answer</h4>\n<p>" + html.EscapeString(a.ModelAnswer.Value) + "</p></div>\n"
	case a.ModelAnswer.Pending:
		notes = "<div class=\"model-answer\"><h4>Model answer</h4>\n<p>" + pendingHTML("model answer", a.ModelAnswer.Hint) + "</p></div>\n"
	}
	return modality.Rendered{Body: b.String(), Notes: notes}
}

// para writes a paragraph of class holding v, or what is pending.
func para(b *strings.Builder, class, what, v string, set, pending bool, hint string) {
	switch {
	case set:
		fmt.Fprintf(b, "<p class=\"%s\">%s</p>\n", class, html.EscapeString(v))
	case pending:
		fmt.Fprintf(b, "<p class=\"%s\">%s</p>\n", class, pendingHTML(what, hint))
	}
}

// labelled writes a labelled paragraph (Support: …), or what is pending.
func labelled(b *strings.Builder, class, label, v string, set, pending bool, hint string) {
	switch {
	case set:
		fmt.Fprintf(b, "<p class=\"%s\"><strong>%s:</strong> %s</p>\n", class, label, html.EscapeString(v))
	case pending:
		fmt.Fprintf(b, "<p class=\"%s\"><strong>%s:</strong> %s</p>\n", class, label, pendingHTML(strings.ToLower(label), hint))
	}
}

func pendingHTML(what, hint string) string {
	return "<span class=\"pending\">pending " + html.EscapeString(what) + hintSuffix(hint) + "</span>"
}

func hintSuffix(hint string) string {
	if hint == "" {
		return ""
	}
	return ": " + html.EscapeString(hint)
}
