package lesson

import (
	"fmt"

	"github.com/lessongen/lessongen/internal/rule"
	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// Every range below is declared once, as a struct tag on the intent that
// sets the value (intents.go): the tool schema, the load check (check) and
// the dispatch check (reduce.go) all read it from there.

// lessonMinutes is the range of a lesson's duration.
func lessonMinutes() rule.Rule { return rule.Of[SetDuration]("minutes") }

// slideMinutes is the range of a slide's duration.
func slideMinutes() rule.Rule { return rule.Of[AddSlide]("duration_minutes") }

// check reports values the author wrote outside the declared ranges.
func (p *Plan) check(r *yamlsrc.Reporter) {
	sources.CheckRefs(p.metadataCitations(), r)
	if d, ok := p.Metadata.DurationMinutes.Get(); ok && !lessonMinutes().In(float64(d)) {
		r.At(yamlsrc.ValueAt(p.Metadata.Src, "duration_minutes"), "metadata.duration_minutes must be %s, got %d", lessonMinutes().Range(), d)
	}
	pos := 0 // p.Name(s), counted here: a lookup per slide is quadratic
	for _, s := range p.slides() {
		if s.IsPlaceholder {
			continue
		}
		pos++
		name := SlideName(s.ID, pos)
		if d, ok := s.DurationMinutes.Get(); ok && !slideMinutes().In(float64(d)) {
			r.At(yamlsrc.ValueAt(s.Src, "duration_minutes"), "%s.duration_minutes must be %s, got %d", name, slideMinutes().Range(), d)
		}
		sources.CheckRefs(sources.Refs(s.Src, s.Sources, name+".sources"), r)
	}
	if msg := p.MinutesDefect(); msg != "" {
		r.WarnAt(yamlsrc.ValueAt(p.Metadata.Src, "duration_minutes"), "metadata.duration_minutes: %s", msg)
	}
}

// MinutesDefect says how far the slides' minutes are from the lesson's
// duration, "" when they agree or cannot be judged yet. While slides or
// their minutes are still pending, only minutes already over the duration
// are a defect: generation can add slides but not take minutes back. A
// placeholder that has received slides counts as filled, so the node
// subagent that added them hears of minutes left short while it can still
// act, and not only once its turn is over.
func (p *Plan) MinutesDefect() string {
	total, ok := p.Metadata.DurationMinutes.Get()
	if !ok {
		return ""
	}
	sum, open := 0, p.Slides.Pending
	for _, s := range p.slides() {
		if s.IsPlaceholder {
			open = open || !p.list().Received(s)
			continue
		}
		d, set := s.DurationMinutes.Get()
		open = open || !set
		sum += d
	}
	switch {
	case sum > total:
		return fmt.Sprintf("the slides take %d minutes, %d more than the lesson's %d; shorten slides or raise metadata.duration_minutes", sum, sum-total, total)
	case sum < total && !open:
		return fmt.Sprintf("the slides take %d minutes, %d fewer than the lesson's %d; lengthen slides or lower metadata.duration_minutes", sum, total-sum, total)
	}
	return ""
}

// Defects lists the lesson's own defects (its minutes), so a subagent that
// leaves them is told, as the whiteboard's layout defects are.
func (p *Plan) Defects() []session.Warning {
	var out []session.Warning
	if msg := p.MinutesDefect(); msg != "" {
		out = append(out, session.Warning{Path: "metadata.duration_minutes", Message: msg})
	}
	for _, d := range p.sectionDefects() {
		out = append(out, session.Warning{Path: d.path, Message: d.msg})
	}
	return out
}

// Citations lists every citation in the lesson itself (its children hold
// their own), for validate --sources.
func (p *Plan) Citations() []sources.Ref {
	return append(p.metadataCitations(), p.list().Citations()...)
}

// metadataCitations lists the citations of the metadata's list items.
func (p *Plan) metadataCitations() []sources.Ref {
	m := &p.Metadata
	var out []sources.Ref
	items := func(name string, list []Item) {
		for i, it := range list {
			out = append(out, sources.Refs(it.src, it.Sources, fmt.Sprintf("metadata.%s[%d].sources", name, i))...)
		}
	}
	items("objectives", m.Objectives.Value)
	items("key_learning_points", m.KeyLearningPoints.Value)
	items("materials", m.Materials.Value)
	items("key_questions", m.KeyQuestions.Value)
	for i, t := range m.Vocabulary.Value {
		out = append(out, sources.Refs(t.src, t.Sources, fmt.Sprintf("metadata.vocabulary[%d].sources", i))...)
	}
	for i, c := range m.Misconceptions.Value {
		out = append(out, sources.Refs(c.src, c.Sources, fmt.Sprintf("metadata.misconceptions[%d].sources", i))...)
	}
	return out
}
