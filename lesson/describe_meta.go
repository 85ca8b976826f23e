package lesson

import (
	"fmt"
	"strings"

	"github.com/lessongen/lessongen/internal/clip"
)

// describeOutcome says the lesson's outcome and key questions, for
// Describe.
func (m *Metadata) describeOutcome() string {
	var b strings.Builder
	if o, ok := m.Outcome.Get(); ok {
		fmt.Fprintf(&b, " Lesson outcome: %s.", strings.TrimSuffix(strings.TrimSpace(clip.Text(o)), "."))
	}
	if q := Texts(m.KeyQuestions.Value); len(q) > 0 {
		// Quoted: a question ends in its own mark, not the sentence's.
		quoted := make([]string, len(q))
		for i, s := range q {
			quoted[i] = fmt.Sprintf("%q", strings.TrimSpace(clip.Text(s)))
		}
		fmt.Fprintf(&b, " Key questions: %s.", strings.Join(quoted, "; "))
	}
	return b.String()
}

// describeSections says the learning cycles and the terms of reuse, for
// Describe.
func (m *Metadata) describeSections() string {
	var b strings.Builder
	var cycles []string
	for _, s := range m.Sections.Value {
		if s.IsPlaceholder {
			continue
		}
		c := fmt.Sprintf("%q", clip.Text(s.Name))
		var facts []string
		if d, ok := s.DurationMinutes.Get(); ok {
			facts = append(facts, fmt.Sprintf("%d minutes", d))
		}
		switch {
		case s.Outcome.Set:
			facts = append(facts, "outcome: "+strings.TrimSuffix(strings.TrimSpace(clip.Text(s.Outcome.Value)), "."))
		case s.Outcome.Pending:
			facts = append(facts, "outcome to be written")
		}
		if len(facts) > 0 {
			c += " (" + strings.Join(facts, "; ") + ")"
		}
		cycles = append(cycles, c)
	}
	if len(cycles) > 0 {
		fmt.Fprintf(&b, " Learning cycles (sections), in order: %s.", strings.Join(cycles, "; "))
	}
	if l, ok := m.Licence.Get(); ok {
		fmt.Fprintf(&b, " Licence: %s.", clip.Text(l))
	}
	if a, ok := m.Attribution.Get(); ok {
		fmt.Fprintf(&b, " Attribution: %s.", strings.TrimSuffix(clip.Text(a.Text), "."))
	}
	return b.String()
}

// sectionsOutline lists the sections with the minutes their slides take,
// for Outline: a slide's section must be one of them.
func (p *Plan) sectionsOutline() string {
	names := p.Metadata.sectionNames()
	if len(names) == 0 {
		return ""
	}
	by, _ := p.slideMinutesBySection()
	var b strings.Builder
	b.WriteString("\nSections (a slide's section is one of these names):")
	for _, s := range p.Metadata.Sections.Value {
		if s.IsPlaceholder {
			continue
		}
		fmt.Fprintf(&b, "\n  %q", clip.Text(s.Name))
		if d, ok := s.DurationMinutes.Get(); ok {
			fmt.Fprintf(&b, " %d min, %d assigned to slides", d, by[s.Name])
		}
	}
	return b.String()
}
