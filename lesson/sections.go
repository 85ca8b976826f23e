package lesson

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/rule"
	"github.com/lessongen/lessongen/internal/suggest"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// sectionsPending lists the sections' pending outcomes and minutes.
func (m *Metadata) sectionsPending() []session.Pending {
	var ps []session.Pending
	for _, s := range m.Sections.Value {
		if s.IsPlaceholder {
			continue
		}
		if s.Outcome.Pending {
			ps = append(ps, session.Pending{Level: session.LevelMetadata, Path: fmt.Sprintf("metadata.sections[%s].outcome", s.Name), Hint: s.Outcome.Hint})
		}
		if s.DurationMinutes.Pending {
			ps = append(ps, session.Pending{Level: session.LevelMetadata, Path: fmt.Sprintf("metadata.sections[%s].duration_minutes", s.Name), Hint: s.DurationMinutes.Hint})
		}
	}
	return ps
}

// checkMeta reports the new metadata's problems: sections named twice or
// out of range, slides naming no declared section (errors), and a
// licence off the SPDX list (a warning: free text is allowed).
func (p *Plan) checkMeta(r *yamlsrc.Reporter) {
	m := &p.Metadata
	if l, ok := m.Licence.Get(); ok {
		if msg := licenceWarning(l); msg != "" {
			r.WarnAt(yamlsrc.ValueAt(m.Src, "licence"), "metadata.licence %q %s", l, msg)
		}
	}
	seen := map[string]int{}
	for i, s := range m.Sections.Value {
		if s.IsPlaceholder {
			continue
		}
		path := fmt.Sprintf("metadata.sections[%d]", i)
		if first, dup := seen[s.Name]; dup {
			r.At(yamlsrc.ValueAt(s.Src, "name"), "%s.name %q is used by metadata.sections[%d] too; section names must be unique", path, s.Name, first)
		}
		seen[s.Name] = i
		if d, ok := s.DurationMinutes.Get(); ok && !lessonMinutes().In(float64(d)) {
			r.At(yamlsrc.ValueAt(s.Src, "duration_minutes"), "%s.duration_minutes must be %s, got %d", path, lessonMinutes().Range(), d)
		}
	}
	p.checkSlideSections(r)
	for _, d := range p.sectionDefects() {
		r.WarnAt(d.node, "%s: %s", d.path, d.msg)
	}
}

// checkSlideSections reports a slide whose section is not one the
// metadata declares, when it declares any.
func (p *Plan) checkSlideSections(r *yamlsrc.Reporter) {
	names := p.Metadata.sectionNames()
	if !p.Metadata.Sections.Set || len(names) == 0 {
		return
	}
	pos := 0
	for _, s := range p.slides() {
		if s.IsPlaceholder {
			continue
		}
		pos++
		if sec, ok := s.Section.Get(); ok && !slices.Contains(names, sec) {
			r.At(yamlsrc.ValueAt(s.Src, "section"), "%s.section %q is not one of metadata.sections (%s)%s",
				SlideName(s.ID, pos), sec, quoteAll(names), suggest.DidYouMean(sec, names, nil))
		}
	}
}

// sectionDefect is one disagreement of minutes, where to report it.
type sectionDefect struct {
	node      *yaml.Node
	path, msg string
}

// sectionDefects compares each section's minutes with its slides' and
// the sections' total with the lesson's. As with MinutesDefect, while
// slides or minutes are still to be written only minutes already over
// are a defect.
func (p *Plan) sectionDefects() []sectionDefect {
	m := &p.Metadata
	if !m.Sections.Set {
		return nil
	}
	bySection, open := p.slideMinutesBySection()
	var out []sectionDefect
	sum, sectionsOpen := 0, false
	for i, s := range m.Sections.Value {
		if s.IsPlaceholder {
			sectionsOpen = true
			continue
		}
		d, ok := s.DurationMinutes.Get()
		sectionsOpen = sectionsOpen || !ok
		sum += d
		if !ok {
			continue
		}
		path := fmt.Sprintf("metadata.sections[%d].duration_minutes", i)
		if msg := minutesGap(fmt.Sprintf("the slides of section %q", s.Name), bySection[s.Name], d, "the section's", open, path); msg != "" {
			out = append(out, sectionDefect{yamlsrc.ValueAt(s.Src, "duration_minutes"), path, msg})
		}
	}
	if total, ok := m.DurationMinutes.Get(); ok {
		if msg := minutesGap("the sections", sum, total, "the lesson's", sectionsOpen, "metadata.duration_minutes"); msg != "" {
			out = append(out, sectionDefect{yamlsrc.ValueAt(m.Src, "sections"), "metadata.sections", msg})
		}
	}
	return out
}

// slideMinutesBySection adds up the slides' minutes by section; open
// says whether a slide, its section or its minutes is still to be written.
func (p *Plan) slideMinutesBySection() (map[string]int, bool) {
	out := map[string]int{}
	open := p.Slides.Pending
	for _, s := range p.slides() {
		if s.IsPlaceholder {
			open = open || !p.list().Received(s)
			continue
		}
		d, set := s.DurationMinutes.Get()
		open = open || !set || s.Section.Pending
		out[s.Section.Value] += d
	}
	return out, open
}

// minutesGap says how far what's minutes (got) are from whose (want), ""
// when they agree or, with open, are not over yet.
func minutesGap(what string, got, want int, whose string, open bool, field string) string {
	switch {
	case got > want:
		return fmt.Sprintf("%s take %d minutes, %d more than %s %d; shorten them or raise %s", what, got, got-want, whose, want, field)
	case got < want && !open:
		return fmt.Sprintf("%s take %d minutes, %d fewer than %s %d; lengthen them or lower %s", what, got, want-got, whose, want, field)
	}
	return ""
}

func quoteAll(list []string) string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(out, ", ")
}

// setSections sets the sections, or adds them at a placeholder. Each
// needs a name no other section has, an outcome and minutes in range;
// the sections the author's slides name must stay declared.
func (p *Plan) setSections(rc *session.Context, in SetSections) (func(), error) {
	if r := rule.Of[SetSections]("sections"); len(in.Sections) == 0 || !r.Count(len(in.Sections)) {
		return nil, session.Reject(session.KindInvalidArgs, "sections", "give "+r.Items()+" sections", "%d sections", len(in.Sections))
	}
	names := map[string]bool{}
	if in.PendingID != "" || len(yamlsrc.OpenSpots(p.Metadata.Sections.Value)) > 0 {
		for _, n := range p.Metadata.sectionNames() {
			names[sectionKey(n)] = true
		}
	}
	items := make([]Section, len(in.Sections))
	for i, a := range in.Sections {
		at := fmt.Sprintf("sections[%d]", i)
		s := Section{Name: strings.TrimSpace(a.Name), Outcome: optional(a.Outcome), DurationMinutes: yamlsrc.Val(a.DurationMinutes)}
		switch r := rule.Of[SectionArg]("duration_minutes"); {
		case s.Name == "" || !s.Outcome.Set:
			return nil, session.Reject(session.KindInvalidArgs, at, "every section needs a name and an outcome", "section %d is incomplete", i)
		case names[sectionKey(s.Name)]:
			return nil, session.Reject(session.KindInvalidArgs, at+".name", "give each section its own name", "section %q is named twice", s.Name)
		case !r.In(float64(a.DurationMinutes)):
			return nil, session.Reject(session.KindInvalidArgs, at+".duration_minutes", "a section takes "+r.Range()+" minutes", "%d minutes is out of range", a.DurationMinutes)
		}
		names[sectionKey(s.Name)] = true
		items[i] = s
	}
	if missing := p.undeclaredSlideSections(names); len(missing) > 0 {
		return nil, session.Reject(session.KindPrecondition, "sections", "the author's slides name these sections; include each by that name: "+quoteAll(missing), "sections leave slides without theirs")
	}
	return setList(p, rc, &p.Metadata.Sections, "sections", in.PendingID, items)
}

// undeclaredSlideSections lists the sections the slides name that names
// (compared by sameText) does not hold.
func (p *Plan) undeclaredSlideSections(names map[string]bool) []string {
	var out []string
	for _, s := range p.slides() {
		if sec, ok := s.Section.Get(); ok && !s.IsPlaceholder && !names[sectionKey(sec)] && !slices.Contains(out, sec) {
			out = append(out, sec)
		}
	}
	return out
}

// fillSection writes the pending outcome or minutes of one section.
func (p *Plan) fillSection(rc *session.Context, in FillSection) (func(), error) {
	f := &p.Metadata.Sections
	i, ok := p.Metadata.section(in.Name)
	if !ok {
		return nil, session.Reject(session.KindNotFound, "name", "sections: "+quoteAll(p.Metadata.sectionNames()), "no section %q%s", in.Name, suggest.DidYouMean(in.Name, p.Metadata.sectionNames(), nil))
	}
	s := f.Value[i]
	var fields []string
	if in.Outcome != nil {
		if p.Protect && !s.Outcome.Pending && !s.filled {
			return nil, session.Reject(session.KindPrecondition, "outcome", "the author wrote it; leave it", "section %q has an outcome", s.Name)
		}
		if v := strings.TrimSpace(*in.Outcome); v != "" {
			s.Outcome = yamlsrc.Val(v)
			fields = append(fields, "outcome")
		}
	}
	if in.DurationMinutes != nil {
		if p.Protect && !s.DurationMinutes.Pending && !s.filled {
			return nil, session.Reject(session.KindPrecondition, "duration_minutes", "the author wrote them; leave them", "section %q has its minutes", s.Name)
		}
		if r := rule.Of[FillSection]("duration_minutes"); !r.In(float64(*in.DurationMinutes)) {
			return nil, session.Reject(session.KindInvalidArgs, "duration_minutes", "a section takes "+r.Range()+" minutes", "%d minutes is out of range", *in.DurationMinutes)
		}
		s.DurationMinutes = yamlsrc.Val(*in.DurationMinutes)
		fields = append(fields, "duration_minutes")
	}
	if len(fields) == 0 {
		return nil, session.Reject(session.KindInvalidArgs, "", "give a non-empty outcome or duration_minutes", "nothing to fill")
	}
	s.filled = true
	old := f.Value
	f.Value = slices.Clone(old)
	f.Value[i] = s
	rc.Report(Set{Field: fmt.Sprintf("sections[%s]", s.Name), Value: s.arg()})
	return func() { f.Value = old }, nil
}

// checkSlideSection refuses a slide's section that is not declared, when
// the lesson declares sections; it returns the declared spelling.
func (p *Plan) checkSlideSection(sec string) (string, error) {
	names := p.Metadata.sectionNames()
	if sec = strings.TrimSpace(sec); sec == "" || !p.Metadata.Sections.Set || len(names) == 0 {
		return sec, nil
	}
	if i, ok := p.Metadata.section(sec); ok {
		return p.Metadata.Sections.Value[i].Name, nil
	}
	return "", session.Reject(session.KindInvalidArgs, "section", "give one of the lesson's sections: "+quoteAll(names), "no section %q%s", sec, suggest.DidYouMean(sec, names, nil))
}
