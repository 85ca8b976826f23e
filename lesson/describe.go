package lesson

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/lessongen/lessongen/internal/clip"
)

// Describe says in a few sentences what the lesson is. It stays the same size
// however many slides there are, because every subagent's context starts
// with it. Every value in it, here and below, is clipped (clip.Text): a
// huge note is shown by its start, never whole.
func (p *Plan) Describe() string { return p.describe(true) }

// MetadataContent is the lesson's metadata as its metadata level's saved
// conversation is compared with it: Describe without the outline (the
// slide count, the sections), which the lesson's node level changes and
// which is that conversation's context, not its identity.
func (p *Plan) MetadataContent() string { return p.describe(false) }

func (p *Plan) describe(outline bool) string {
	m := &p.Metadata
	var s strings.Builder
	s.WriteString(lessonPhrase(clip.Text(m.Grade.Value), clip.Text(m.Subject.Value)))
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
	if outline {
		_, count := p.Position("")
		facts = append(facts, plural(count, "slide"))
	}
	if len(facts) > 0 {
		fmt.Fprintf(&s, ", %s", strings.Join(facts, ", "))
	}
	s.WriteString(".")
	s.WriteString(m.describeOutcome())
	if o := Texts(m.Objectives.Value); len(o) > 0 {
		fmt.Fprintf(&s, " Objectives: %s.", joinSentences(o))
	}
	if k := m.KeyLearningPoints.Value; len(Texts(k)) > 0 {
		fmt.Fprintf(&s, " Key learning points: %s.", joinSentences(Texts(k)))
	}
	var terms []string
	for _, t := range m.Vocabulary.Value {
		if t.IsPlaceholder {
			continue
		}
		term := clip.Text(t.Term)
		if t.definitionPending {
			term += " (definition to be written)"
		}
		terms = append(terms, term)
	}
	if len(terms) > 0 {
		fmt.Fprintf(&s, " Key vocabulary: %s.", strings.Join(terms, ", "))
	}
	var items []string
	for _, c := range m.Misconceptions.Value {
		switch {
		case c.IsPlaceholder:
		case c.responsePending:
			items = append(items, fmt.Sprintf("%q (response to be written)", strings.TrimSpace(c.Misconception)))
		default:
			items = append(items, fmt.Sprintf("%q (answered: %s)", strings.TrimSpace(c.Misconception), strings.TrimSuffix(strings.TrimSpace(c.Response), ".")))
		}
	}
	if len(items) > 0 {
		fmt.Fprintf(&s, " Common misconceptions: %s.", strings.Join(items, "; "))
	}
	if pr, ok := m.Prerequisites.Get(); ok && len(pr) > 0 {
		fmt.Fprintf(&s, " Students already know: %s.", joinSentences(pr))
	}
	if st, ok := m.Standards.Get(); ok && len(st) > 0 {
		fmt.Fprintf(&s, " Standards: %s.", strings.Join(clipAll(st), ", "))
	}
	if ma := Texts(m.Materials.Value); len(ma) > 0 {
		fmt.Fprintf(&s, " Materials in the room: %s.", joinSentences(ma))
	}
	if outline {
		s.WriteString(m.describeSections())
	}
	return s.String()
}

// joinAnd joins "a", "b", "c" as "a, b and c".
func joinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// lessonPhrase names the lesson by its grade and subject as a person would:
// "A grade 7 biology lesson", "A KS1 history lesson", "A biology lesson for
// adult learners". Grade is free text, so its shape decides where it goes.
func lessonPhrase(grade, subject string) string {
	grade, subject = strings.TrimSpace(grade), strings.TrimSpace(subject)
	var before, after string
	switch {
	case grade == "":
	case isNumber(grade):
		before = "grade " + grade
	case strings.EqualFold(grade, "k"):
		before = "kindergarten"
	case gradeWord(grade) || !strings.Contains(grade, " ") && !isGroup(grade):
		before = grade // KS1, Year 3, 7th grade, P4, university
	default:
		after = " for " + grade // adult learners, beginners
	}
	words := strings.Fields(before + " " + subject + " lesson")
	phrase := strings.Join(words, " ")
	return article(phrase) + " " + phrase + after
}

// GradeText is the grade as a page or slide shows it: as the author wrote
// it ("Year 5", "adult learners", "KS1"), with "Grade" before a bare
// number only ("7" alone says nothing).
func GradeText(grade string) string {
	if g := strings.TrimSpace(grade); isNumber(g) {
		return "Grade " + g
	}
	return grade
}

func isNumber(s string) bool {
	for _, r := range s {
		if (r < '0' || r > '9') && r != '-' && r != '–' {
			return false
		}
	}
	return s != "" && s[0] >= '0' && s[0] <= '9'
}

// gradeWord reports whether a grade of several words names a school year
// ("Year 3", "7th grade", "Key Stage 2") rather than a group of people.
func gradeWord(s string) bool {
	for _, w := range strings.Fields(strings.ToLower(s)) {
		switch w {
		case "grade", "year", "key", "stage", "form", "class", "level", "primary", "secondary", "p", "s":
			return true
		}
	}
	return false
}

// isGroup: one lowercase plural word names people ("adults", "beginners").
func isGroup(w string) bool {
	for _, r := range w {
		if !unicode.IsLower(r) {
			return false
		}
	}
	return strings.HasSuffix(w, "s")
}

// article is "A" or "An" for what follows, by how it is said: "An 8th
// grade", "An S2", "A KS1", "A history".
func article(phrase string) string {
	first, _, _ := strings.Cut(phrase, " ")
	if first == "" {
		return "A"
	}
	switch c := unicode.ToLower(rune(first[0])); {
	case strings.ContainsRune("aeio", c):
		return "An"
	case c == '8' || strings.HasPrefix(first, "11") || strings.HasPrefix(first, "18"):
		return "An"
	case strings.ContainsRune("fhlmnrsx", c) && isInitialism(first):
		return "An" // spelt out: an S2, an F1
	}
	return "A"
}

// isInitialism: a short token of capitals and digits, read letter by letter.
func isInitialism(w string) bool {
	if len(w) > 4 {
		return false
	}
	for _, r := range w {
		if !unicode.IsUpper(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
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
	fmt.Fprintf(&b, "S%s of %d", SlideName(s.ID, pos)[1:], count) // `Slide "light" (3) of 8`
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
	b.WriteString(s.describeCallouts())
	if len(s.Children) > 1 {
		kinds := make([]string, len(s.Children))
		for i, c := range s.Children {
			kinds[i] = strings.ToLower(article(c.Kind)) + " " + c.Kind
		}
		fmt.Fprintf(&b, " The slide holds %s.", joinAnd(kinds))
	}
	// The brief belongs to this slide: said before the neighbours, and by
	// name, so it cannot be read as the next slide's. It may have been
	// written by the author or by the subagent that wrote the slide.
	for _, c := range s.Children {
		if c.Pending && c.Hint != "" {
			fmt.Fprintf(&b, " Brief for this slide's %s: %s.", c.Kind, strings.TrimSuffix(clip.Text(c.Hint), "."))
		}
	}
	ids := p.neighbours(s)
	if ids[0] != nil {
		fmt.Fprintf(&b, " Previous slide: %q.", clip.Text(ids[0].Title.Value))
	}
	if ids[1] != nil {
		fmt.Fprintf(&b, " Next slide: %q.", clip.Text(ids[1].Title.Value))
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
		return fmt.Sprintf("Slides: none yet; the whole list is pending (placeholder p1: %s).", hint) + p.minutes() + p.sectionsOutline()
	}
	var b strings.Builder
	b.WriteString("Slides:")
	n := 0
	for _, s := range p.slides() {
		if s.IsPlaceholder {
			state := "pending"
			if s.Filled > 0 {
				state = fmt.Sprintf("filled with %s", plural(s.Filled, "slide"))
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
	return b.String() + p.minutes() + p.sectionsOutline()
}

// minutes says how the lesson's time is split, so the subagent writing
// slides need not add durations up: assigned to slides, and what is left.
func (p *Plan) minutes() string {
	assigned := 0
	for _, s := range p.slides() {
		if d, ok := s.DurationMinutes.Get(); ok && !s.IsPlaceholder {
			assigned += d
		}
	}
	total, ok := p.Metadata.DurationMinutes.Get()
	switch {
	case !ok:
		return fmt.Sprintf("\nMinutes: %d assigned to slides; the lesson's total is not set.", assigned)
	case assigned > total:
		return fmt.Sprintf("\nMinutes: %d in total, %d assigned to slides: %d over.", total, assigned, assigned-total)
	}
	return fmt.Sprintf("\nMinutes: %d in total, %d assigned to slides, %d unassigned.", total, assigned, total-assigned)
}

func fieldText(v string, pending bool) string {
	if pending {
		return "(pending)"
	}
	return fmt.Sprintf("%q", clip.Text(v))
}
