package lesson

import (
	"fmt"
	"html"
	"strings"

	"github.com/lessongen/lessongen/internal/clip"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/modality"
)

// outcomeHTML is the lesson's outcome under its title, "" when absent.
func outcomeHTML(f yamlsrc.Field[string]) string {
	if !f.Set && !f.Pending {
		return ""
	}
	return "<p class=\"outcome\"><b>Outcome:</b> " + text(f) + "</p>\n"
}

func (t Term) html() string {
	s := "<b>" + html.EscapeString(t.Term) + "</b>"
	if hint, ok := t.PendingDefinition(); ok {
		return s + " — " + pending("definition", hint)
	}
	if t.Definition != "" {
		s += " — " + html.EscapeString(t.Definition)
	}
	return s
}

// html is a misconception with the teacher's response: teacher-only.
func (mc Misconception) html() string {
	s := html.EscapeString(mc.Misconception)
	if hint, ok := mc.PendingResponse(); ok {
		return s + "<br><span class=\"response\">" + pending("response", hint) + "</span>"
	}
	return s + "<br><span class=\"response\">" + html.EscapeString(mc.Response) + "</span>"
}

// sectionsHTML is the table of learning cycles: each with its outcome and
// minutes, and the minutes its slides take.
func (p *Plan) sectionsHTML() string {
	f := p.Metadata.Sections
	if !f.Set && !f.Pending {
		return ""
	}
	var b strings.Builder
	b.WriteString("<h2>Learning cycles</h2>\n")
	if f.Pending {
		return b.String() + "<p>" + pending("sections", f.Hint) + "</p>\n"
	}
	by, _ := p.slideMinutesBySection()
	b.WriteString("<table class=\"sections\"><thead><tr><th>#</th><th>Section</th><th>Outcome</th><th>Minutes</th><th>Slides' minutes</th></tr></thead><tbody>\n")
	n := 0
	for _, s := range f.Value {
		if s.IsPlaceholder {
			fmt.Fprintf(&b, "<tr><td></td><td colspan=\"4\">%s</td></tr>\n", pending("sections", s.Hint))
			continue
		}
		n++
		outcome := ""
		if s.Outcome.Set || s.Outcome.Pending {
			outcome = text(s.Outcome)
		}
		fmt.Fprintf(&b, "<tr><td>%d</td><td>%s</td><td>%s</td><td class=\"num\">%s</td><td class=\"num\">%d</td></tr>\n",
			n, html.EscapeString(s.Name), outcome, minutesCell(s.DurationMinutes), by[s.Name])
	}
	b.WriteString("</tbody></table>\n")
	return b.String()
}

// termsHTML is the licence and the credit a reuse must honour, on every
// copy: "" when the lesson names neither.
func termsHTML(m Metadata) string {
	lines := termsLines(m, func(s string) string { return html.EscapeString(s) }, pending)
	if a, ok := m.Attribution.Get(); ok && a.URL != "" {
		lines[len(lines)-1] += fmt.Sprintf(" (<a href=\"%s\">%s</a>)", html.EscapeString(a.URL), html.EscapeString(a.URL))
	}
	if len(lines) == 0 {
		return ""
	}
	return "<section class=\"reuse\"><h2>Licence and credit</h2>\n<p>" + strings.Join(lines, "<br>") + "</p></section>\n"
}

// termsLines says the licence and the attribution (its text; the link is
// the caller's), each through esc, or pend when pending: one line each,
// the attribution last.
func termsLines(m Metadata, esc func(string) string, pend func(what, hint string) string) []string {
	var out []string
	switch l := m.Licence; {
	case l.Pending:
		out = append(out, "Licence: "+pend("licence", l.Hint))
	case l.Set:
		line := "Licence: " + esc(l.Value)
		if id, ok := LicenceID(l.Value); ok && id != strings.TrimSpace(l.Value) {
			line += " (" + esc(id) + ")"
		}
		out = append(out, line)
	}
	switch a := m.Attribution; {
	case a.Pending:
		out = append(out, "Attribution: "+pend("attribution", a.Hint))
	case a.Set:
		out = append(out, esc(a.Value.Text))
	}
	return out
}

// cited lists the overview items' citations for the teacher's notes.
func (m *Metadata) cited() []modality.Cited {
	var out []modality.Cited
	items := func(name string, list []Item) {
		for _, it := range list {
			out = append(out, modality.Cited{Item: name + " " + clip.Text(it.Text), Sources: it.Sources})
		}
	}
	items("key question", m.KeyQuestions.Value)
	items("objective", m.Objectives.Value)
	items("key learning point", m.KeyLearningPoints.Value)
	items("material", m.Materials.Value)
	for _, t := range m.Vocabulary.Value {
		out = append(out, modality.Cited{Item: "term " + clip.Text(t.Term), Sources: t.Sources})
	}
	for _, c := range m.Misconceptions.Value {
		out = append(out, modality.Cited{Item: "misconception " + clip.Text(c.Misconception), Sources: c.Sources})
	}
	return out
}

// minutesCell is a table cell's minutes: the number, its pending hint,
// or nothing.
func minutesCell(f yamlsrc.Field[int]) string {
	switch {
	case f.Set:
		return fmt.Sprint(f.Value)
	case f.Pending:
		return pending("minutes", f.Hint)
	}
	return ""
}
