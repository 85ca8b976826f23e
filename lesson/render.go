package lesson

import (
	"fmt"
	"html"
	"strings"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/modality"
)

// Render draws the lesson's overview page for `lessongen render`: title,
// audience, duration, outcome and key questions, objectives, key learning
// points, vocabulary, materials, the learning cycles, a timeline of
// slides with minutes, and the licence and credit a reuse must honour.
// Pending fields are shown with their hints. What is for the teacher
// alone (misconceptions with their responses, the items' citations) goes
// in Notes, never in Body, so a pupil's copy that shows Body only has
// none of it.
func Render(p *Plan, _ map[string]string) modality.Rendered {
	m := p.Metadata
	var b, notes strings.Builder
	fmt.Fprintf(&b, "<h1>%s</h1>\n", text(m.Title))
	var facts []string
	if aud := audience(m); aud != "" {
		facts = append(facts, "<span class=\"audience\">"+aud+"</span>")
	}
	switch {
	case m.DurationMinutes.Set:
		facts = append(facts, fmt.Sprintf("<span class=\"duration\">%d minutes</span>", m.DurationMinutes.Value))
	case m.DurationMinutes.Pending:
		facts = append(facts, pending("duration", m.DurationMinutes.Hint))
	}
	if len(facts) > 0 {
		fmt.Fprintf(&b, "<p class=\"facts\">%s</p>\n", strings.Join(facts, " · "))
	}
	b.WriteString(outcomeHTML(m.Outcome))
	b.WriteString("<div class=\"overview-grid\">\n")
	list(&b, "Key questions", m.KeyQuestions, Item.html)
	list(&b, "Objectives", m.Objectives, Item.html)
	list(&b, "Key learning points", m.KeyLearningPoints, Item.html)
	list(&b, "Vocabulary", m.Vocabulary, Term.html)
	list(&notes, "Misconceptions", m.Misconceptions, Misconception.html)
	list(&b, "Materials", m.Materials, Item.html)
	list(&b, "Prerequisites", m.Prerequisites, html.EscapeString)
	list(&b, "Standards", m.Standards, html.EscapeString)
	b.WriteString("</div>\n")
	b.WriteString(p.sectionsHTML())
	b.WriteString(p.timeline())
	b.WriteString(termsHTML(m))
	notes.WriteString(modality.CitationNotes("Sources of the overview", m.cited()))
	return modality.Rendered{Body: b.String(), Notes: notes.String()}
}

// timeline lists the slides by section with their minutes, and the total.
func (p *Plan) timeline() string {
	var b strings.Builder
	b.WriteString("<h2>Timeline</h2>\n")
	if p.Slides.Pending {
		return b.String() + "<p>" + pending("slides", p.Slides.Hint) + "</p>\n"
	}
	b.WriteString("<table class=\"timeline\"><thead><tr><th>#</th><th>Section</th><th>Slide</th><th>Minutes</th></tr></thead><tbody>\n")
	total, pos := 0, 0
	for _, s := range p.slides() {
		if s.IsPlaceholder {
			fmt.Fprintf(&b, "<tr><td></td><td colspan=\"3\">%s</td></tr>\n", pending("slides", s.Hint))
			continue
		}
		pos++
		total += s.DurationMinutes.Value // 0 unless set
		fmt.Fprintf(&b, "<tr><td>%d</td><td>%s</td><td><a href=\"#slide-%s\">%s</a></td><td class=\"num\">%s</td></tr>\n",
			pos, text(s.Section), html.EscapeString(s.ID), text(s.Title), minutesCell(s.DurationMinutes))
	}
	fmt.Fprintf(&b, "</tbody><tfoot><tr><td></td><td></td><td>Total</td><td class=\"num\">%d</td></tr></tfoot></table>\n", total)
	return b.String()
}

// Page is one slide as a render draws it, without its children.
type Page struct {
	// ID is the slide's id; "" for a pending slide placeholder.
	ID string
	// Head is the title, section and minutes; Notes the speaker notes.
	Head, Notes string
	// Title is the slide's title as text ("" while pending).
	Title string
}

// Pages lists the slides in order for a render, pending slide
// placeholders included (as a page showing their hint).
func (p *Plan) Pages() []Page {
	var out []Page
	for i, s := range p.slides() {
		if s.IsPlaceholder {
			out = append(out, Page{Head: fmt.Sprintf("<h2 class=\"pending\">%s</h2>\n", pending(fmt.Sprintf("slides (placeholder %d)", i+1), s.Hint))})
			continue
		}
		var h strings.Builder
		fmt.Fprintf(&h, "<h2>%s</h2>\n<p class=\"slide-meta\">", text(s.Title))
		if s.Section.Set || s.Section.Pending {
			fmt.Fprintf(&h, "<span class=\"section\">%s</span>", text(s.Section))
		}
		switch {
		case s.DurationMinutes.Set:
			fmt.Fprintf(&h, " <span class=\"minutes\">%d min</span>", s.DurationMinutes.Value)
		case s.DurationMinutes.Pending:
			h.WriteString(" " + pending("minutes", s.DurationMinutes.Hint))
		}
		h.WriteString("</p>\n")
		onSlide, teacher := s.calloutsHTML()
		h.WriteString(onSlide)
		notes := ""
		switch {
		case s.Notes.Set:
			notes = "<div class=\"speaker\">" + paragraphs(s.Notes.Value) + "</div>\n"
		case s.Notes.Pending:
			notes = "<p>" + pending("notes", s.Notes.Hint) + "</p>\n"
		}
		notes += teacher
		if len(s.Sources) > 0 {
			notes += "<p class=\"sources\">Sources: " + html.EscapeString(strings.Join(s.Sources, ", ")) + "</p>\n"
		}
		out = append(out, Page{ID: s.ID, Head: h.String(), Notes: notes, Title: s.Title.Value})
	}
	return out
}

// Title is the lesson's title, "" while pending.
func (p *Plan) Title() string { return p.Metadata.Title.Value }

func audience(m Metadata) string {
	var parts []string
	if m.Grade.Set {
		parts = append(parts, html.EscapeString(GradeText(m.Grade.Value)))
	}
	if m.Subject.Set {
		parts = append(parts, html.EscapeString(m.Subject.Value))
	}
	return strings.Join(parts, " · ")
}

func text(f yamlsrc.Field[string]) string {
	if f.Pending {
		return pending("", f.Hint)
	}
	return html.EscapeString(f.Value)
}

func list[T any](b *strings.Builder, title string, f yamlsrc.Field[[]T], item func(T) string) {
	if !f.Set && !f.Pending {
		return
	}
	fmt.Fprintf(b, "<section><h2>%s</h2>", title)
	if f.Pending || (f.Set && len(f.Value) == 0 && f.Hint != "") {
		fmt.Fprintf(b, "<p>%s</p></section>\n", pending(strings.ToLower(title), f.Hint))
		return
	}
	b.WriteString("<ul>")
	for _, v := range f.Value {
		if ph, ok := any(&v).(interface{ IsOpen() (string, bool) }); ok {
			if hint, open := ph.IsOpen(); open {
				b.WriteString("<li>" + pending("more "+strings.ToLower(title), hint) + "</li>")
				continue
			}
		}
		b.WriteString("<li>" + item(v) + "</li>")
	}
	b.WriteString("</ul></section>\n")
}

func (it Item) html() string { return html.EscapeString(it.Text) }

// pending is a visible placeholder for something still to be generated.
func pending(what, hint string) string {
	s := "pending"
	if what != "" {
		s += " " + what
	}
	if hint != "" {
		s += ": " + hint
	}
	return "<span class=\"pending\">" + html.EscapeString(s) + "</span>"
}

func paragraphs(s string) string {
	var b strings.Builder
	for _, para := range strings.Split(strings.TrimSpace(s), "\n\n") {
		b.WriteString("<p>" + strings.ReplaceAll(html.EscapeString(strings.TrimSpace(para)), "\n", "<br>") + "</p>")
	}
	return b.String()
}
