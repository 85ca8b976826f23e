package lesson

import (
	"fmt"
	"strings"

	"github.com/lessongen/lessongen/internal/clip"
)

// Describe says in a few sentences what the lesson is. It stays the same size
// however many slides there are, because every subagent's context starts
// with it. Every value in it, here and below, is clipped (clip.Text): a
// huge note is shown by its start, never whole.
func (p *Plan) Describe() string {
	m := &p.Metadata
	var s strings.Builder
	s.WriteString("A")
	if g, ok := m.Grade.Get(); ok {
		fmt.Fprintf(&s, " grade %s", clip.Text(g))
	}
	if sub, ok := m.Subject.Get(); ok {
		fmt.Fprintf(&s, " %s", clip.Text(sub))
	}
	s.WriteString(" lesson")
	if t, ok := m.Title.Get(); ok {
		fmt.Fprintf(&s, " titled %q", clip.Text(t))
	} else {
		s.WriteString(" (title not written yet)")
	}
	var facts []string
	if d, ok := m.DurationMinutes.Get(); ok {
		facts = append(facts, fmt.Sprintf("%d minutes", d))
	}
	if l, ok := m.Language.Get(); ok {
		facts = append(facts, "taught in "+clip.Text(l))
	}
	_, count := p.Position("")
	facts = append(facts, plural(count, "slide"))
	fmt.Fprintf(&s, ", %s.", strings.Join(facts, ", "))
	if o, ok := m.Objectives.Get(); ok && len(o) > 0 {
		fmt.Fprintf(&s, " Objectives: %s.", joinSentences(o))
	}
	if v, ok := m.Vocabulary.Get(); ok && len(v) > 0 {
		terms := make([]string, len(v))
		for i, t := range v {
			terms[i] = clip.Text(t.Term)
		}
		fmt.Fprintf(&s, " Key vocabulary: %s.", strings.Join(terms, ", "))
	}
	if pr, ok := m.Prerequisites.Get(); ok && len(pr) > 0 {
		fmt.Fprintf(&s, " Students already know: %s.", joinSentences(pr))
	}
	if st, ok := m.Standards.Get(); ok && len(st) > 0 {
		fmt.Fprintf(&s, " Standards: %s.", strings.Join(clipAll(st), ", "))
	}
	return s.String()
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func joinSentences(items []string) string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = strings.TrimSuffix(strings.TrimSpace(clip.Text(it)), ".")
	}
	return strings.Join(out, "; ")
}

func clipAll(items []string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = clip.Text(it)
	}
	return out
}

// DescribeSlide places one slide in the lesson: its position, fields and
// neighbours (for continuity), in constant size.
func (p *Plan) DescribeSlide(id string) string {
	s, ok := p.byID[id]
	if !ok {
		return fmt.Sprintf("Slide %q (not in the lesson).", id)
	}
	pos, count := p.Position(id)
	var b strings.Builder
	fmt.Fprintf(&b, "Slide %d of %d (id %s)", pos, count, s.ID)
	if t, ok := s.Title.Get(); ok {
		fmt.Fprintf(&b, ", %q", clip.Text(t))
	}
	var facts []string
	if sec, ok := s.Section.Get(); ok {
		facts = append(facts, clip.Text(sec)+" phase")
	}
	if d, ok := s.DurationMinutes.Get(); ok {
		facts = append(facts, fmt.Sprintf("%d minutes", d))
	}
	if len(facts) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(facts, ", "))
	}
	b.WriteString(".")
	if n, ok := s.Notes.Get(); ok {
		n = strings.TrimSpace(clip.Text(n))
		fmt.Fprintf(&b, " Speaker notes: %s", n)
		if !strings.HasSuffix(n, ".") {
			b.WriteString(".")
		}
	}
	ids := p.neighbours(s)
	if ids[0] != nil {
		fmt.Fprintf(&b, " Previous slide: %q.", clip.Text(ids[0].Title.Value))
	}
	if ids[1] != nil {
		fmt.Fprintf(&b, " Next slide: %q.", clip.Text(ids[1].Title.Value))
	}
	if s.Whiteboard.Pending && s.Whiteboard.Hint != "" {
		fmt.Fprintf(&b, " Its whiteboard should show: %s.", strings.TrimSuffix(clip.Text(s.Whiteboard.Hint), "."))
	}
	return b.String()
}

func (p *Plan) neighbours(s *Slide) [2]*Slide {
	var prev *Slide
	list := p.slides()
	for i, x := range list {
		if x != s {
			if !x.IsPlaceholder {
				prev = x
			}
			continue
		}
		var next *Slide
		for _, y := range list[i+1:] {
			if !y.IsPlaceholder {
				next = y
				break
			}
		}
		return [2]*Slide{prev, next}
	}
	return [2]*Slide{}
}

// Outline lists the slides one per line, with placeholders where slides are
// still to be written. The lesson's node subagent works from it.
func (p *Plan) Outline() string {
	if p.Slides.Pending {
		hint := clip.Text(p.Slides.Hint)
		if hint == "" {
			hint = "no hint"
		}
		return fmt.Sprintf("Slides: none yet; the whole list is pending (placeholder p1: %s).", hint)
	}
	var b strings.Builder
	b.WriteString("Slides:")
	n := 0
	for _, s := range p.slides() {
		if s.IsPlaceholder {
			state := "pending"
			if s.filled > 0 {
				state = fmt.Sprintf("filled with %s", plural(s.filled, "slide"))
			}
			fmt.Fprintf(&b, "\n  [placeholder %s, %s] %s", s.PlaceholderID, state, clip.Text(s.Hint))
			continue
		}
		n++
		fmt.Fprintf(&b, "\n  %d. %s: %s", n, s.ID, fieldText(s.Title.Value, s.Title.Pending))
		if sec, ok := s.Section.Get(); ok {
			fmt.Fprintf(&b, " [%s]", clip.Text(sec))
		}
		if d, ok := s.DurationMinutes.Get(); ok {
			fmt.Fprintf(&b, " %d min", d)
		}
	}
	return b.String()
}

func fieldText(v string, pending bool) string {
	if pending {
		return "(pending)"
	}
	return fmt.Sprintf("%q", clip.Text(v))
}
