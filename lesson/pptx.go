package lesson

import (
	"fmt"
	"strings"

	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/modality"
)

// RenderPPTX draws the lesson's overview slide for a PowerPoint deck: the
// audience, duration and outcome, then key questions, objectives, key
// learning points and materials on the left, vocabulary, the learning
// cycles, prerequisites and standards on the right, each a native text box, and the licence and credit
// along the foot. The misconceptions with their responses (the
// teacher's) and the timeline go to its notes, which a handout leaves
// out. Pending fields show their hints.
func RenderPPTX(p *Plan, _ map[string]string, frame pptx.Box) modality.PPTXRendered {
	m := p.Metadata
	var left, right []pptx.Para
	var facts []string
	if m.Grade.Set {
		facts = append(facts, GradeText(m.Grade.Value))
	}
	if m.Subject.Set {
		facts = append(facts, m.Subject.Value)
	}
	switch {
	case m.DurationMinutes.Set:
		facts = append(facts, fmt.Sprintf("%d minutes", m.DurationMinutes.Value))
	case m.DurationMinutes.Pending:
		facts = append(facts, pendingText("duration", m.DurationMinutes.Hint))
	}
	if len(facts) > 0 {
		left = append(left, pptx.Text(strings.Join(facts, " · "), 16, false, pptx.RGB("4A5560")))
	}
	if m.Outcome.Set || m.Outcome.Pending {
		left = append(left, pptx.Para{Runs: []pptx.Run{{Text: "Outcome: ", Size: 16, Bold: true}, {Text: plain(m.Outcome), Size: 16}}})
	}
	overviewList(&left, "Key questions", m.KeyQuestions.Pending, m.KeyQuestions.Hint, itemTexts(m.KeyQuestions))
	overviewList(&left, "Objectives", m.Objectives.Pending, m.Objectives.Hint, itemTexts(m.Objectives))
	overviewList(&left, "Key learning points", m.KeyLearningPoints.Pending, m.KeyLearningPoints.Hint, itemTexts(m.KeyLearningPoints))
	overviewList(&left, "Materials", m.Materials.Pending, m.Materials.Hint, itemTexts(m.Materials))
	var vocab []string
	for _, t := range m.Vocabulary.Value {
		s := t.Term
		if hint, ok := t.PendingDefinition(); ok {
			s += " — " + pendingText("definition", hint)
		} else if t.Definition != "" {
			s += " — " + t.Definition
		}
		vocab = append(vocab, s)
	}
	overviewList(&right, "Vocabulary", m.Vocabulary.Pending, m.Vocabulary.Hint, vocab)
	overviewList(&right, "Learning cycles", m.Sections.Pending, m.Sections.Hint, sectionTexts(m.Sections.Value))
	// As the HTML overview lists them (Render).
	overviewList(&right, "Prerequisites", m.Prerequisites.Pending, m.Prerequisites.Hint, m.Prerequisites.Value)
	overviewList(&right, "Standards", m.Standards.Pending, m.Standards.Hint, m.Standards.Value)
	out := modality.PPTXRendered{Shapes: overviewShapes(frame, left, right, termsLines(m, func(s string) string { return s }, pendingText), m.Attribution.Value.URL)}
	var notes []pptx.Para
	overviewList(&notes, "Misconceptions", m.Misconceptions.Pending, m.Misconceptions.Hint, misconceptionTexts(m.Misconceptions.Value))
	out.Notes = append(notes, p.timelineText()...)
	return out
}

// timelineText is the timeline as notes paragraphs: each slide with its
// section and minutes, and the total.
func (p *Plan) timelineText() []pptx.Para {
	if p.Slides.Pending {
		return []pptx.Para{pptx.Text("Timeline: "+pendingText("slides", p.Slides.Hint), 0, false, pptx.Color{})}
	}
	out := []pptx.Para{pptx.Text("Timeline", 0, true, pptx.Color{})}
	total, pos := 0, 0
	for _, s := range p.slides() {
		if s.IsPlaceholder {
			out = append(out, pptx.Text(pendingText("slides", s.Hint), 0, false, pptx.Color{}))
			continue
		}
		pos++
		line := fmt.Sprintf("%d. %s", pos, plain(s.Title))
		if s.Section.Set || s.Section.Pending {
			line += " (" + plain(s.Section) + ")"
		}
		switch {
		case s.DurationMinutes.Set:
			line += fmt.Sprintf(" — %d min", s.DurationMinutes.Value)
			total += s.DurationMinutes.Value
		case s.DurationMinutes.Pending:
			line += " — " + pendingText("minutes", s.DurationMinutes.Hint)
		}
		out = append(out, pptx.Text(line, 0, false, pptx.Color{}))
	}
	return append(out, pptx.Text(fmt.Sprintf("Total: %d min", total), 0, false, pptx.Color{}))
}

// SlidePage is one slide as a PowerPoint deck draws it, without its
// children: plain text, not HTML.
type SlidePage struct {
	// ID is the slide's id; "" for a pending slide placeholder, whose
	// Title says what is pending.
	ID, Title string
	// Notes are the speaker notes (line breaks kept), the section and
	// minutes, and the slide's sources.
	Notes []pptx.Para
	// Callouts are the callouts shown on the slide (show: slide); the
	// teacher's are in Notes.
	Callouts []pptx.Para
}

// SlidePages lists the slides in order for a PowerPoint deck, pending
// slide placeholders included.
func (p *Plan) SlidePages() []SlidePage {
	var out []SlidePage
	for i, s := range p.slides() {
		if s.IsPlaceholder {
			out = append(out, SlidePage{Title: pendingText(fmt.Sprintf("slides (placeholder %d)", i+1), s.Hint)})
			continue
		}
		pg := SlidePage{ID: s.ID, Title: plain(s.Title)}
		var meta []string
		if s.Section.Set || s.Section.Pending {
			meta = append(meta, "Section: "+plain(s.Section))
		}
		switch {
		case s.DurationMinutes.Set:
			meta = append(meta, fmt.Sprintf("%d min", s.DurationMinutes.Value))
		case s.DurationMinutes.Pending:
			meta = append(meta, pendingText("minutes", s.DurationMinutes.Hint))
		}
		if len(meta) > 0 {
			pg.Notes = append(pg.Notes, pptx.Text(strings.Join(meta, " · "), 0, true, pptx.Color{}))
		}
		switch {
		case s.Notes.Set:
			for _, para := range strings.Split(strings.TrimSpace(s.Notes.Value), "\n\n") {
				pg.Notes = append(pg.Notes, pptx.Text(strings.TrimSpace(para), 0, false, pptx.Color{}))
			}
		case s.Notes.Pending:
			pg.Notes = append(pg.Notes, pptx.Text(pendingText("notes", s.Notes.Hint), 0, false, pptx.Color{}))
		}
		onSlide, teacher := s.calloutsPPTX()
		pg.Callouts, pg.Notes = onSlide, append(pg.Notes, teacher...)
		if len(s.Sources) > 0 {
			pg.Notes = append(pg.Notes, pptx.Text("Sources: "+strings.Join(s.Sources, ", "), 0, false, pptx.Color{}))
		}
		out = append(out, pg)
	}
	return out
}

func plain(f yamlsrc.Field[string]) string {
	if f.Pending {
		return pendingText("", f.Hint)
	}
	return f.Value
}

// pendingText is a visible placeholder for something still to be
// generated, as plain text.
func pendingText(what, hint string) string {
	s := "pending"
	if what != "" {
		s += " " + what
	}
	if hint != "" {
		s += ": " + hint
	}
	return s
}
