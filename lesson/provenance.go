package lesson

import (
	"github.com/lessongen/lessongen/internal/nodemeta"
	"github.com/lessongen/lessongen/session"
)

// metaValue is one metadata value, by the name setField gives it.
type metaValue struct {
	name  string
	value any
	set   bool
}

// metaValues lists the lesson's metadata values in file order.
func (p *Plan) metaValues() []metaValue {
	m := &p.Metadata
	return []metaValue{
		{"title", m.Title.Value, m.Title.Set},
		{"subject", m.Subject.Value, m.Subject.Set},
		{"grade", m.Grade.Value, m.Grade.Set},
		{"duration_minutes", m.DurationMinutes.Value, m.DurationMinutes.Set},
		{"language", m.Language.Value, m.Language.Set},
		{"objectives", m.Objectives.Value, m.Objectives.Set},
		{"vocabulary", m.Vocabulary.Value, m.Vocabulary.Set},
		{"prerequisites", m.Prerequisites.Value, m.Prerequisites.Set},
		{"standards", m.Standards.Value, m.Standards.Set},
		{"key_learning_points", m.KeyLearningPoints.Value, m.KeyLearningPoints.Set},
		{"misconceptions", m.Misconceptions.Value, m.Misconceptions.Set},
		{"materials", m.Materials.Value, m.Materials.Set},
		{"outcome", m.Outcome.Value, m.Outcome.Set},
		{"key_questions", m.KeyQuestions.Value, m.KeyQuestions.Set},
		{"sections", m.Sections.Value, m.Sections.Set},
		{"licence", m.Licence.Value, m.Licence.Set},
		{"attribution", m.Attribution.Value, m.Attribution.Set},
	}
}

func slideKey(id string) string { return "slides[" + id + "]" }

// slideContent is what a slide's provenance hash covers: its own fields,
// not its children (each has its own record) nor the bookkeeping of an
// open placeholder.
func slideContent(s *Slide) any {
	return struct {
		Title, Section, Notes string
		Minutes               int
		Sources               []string
		Props                 map[string]string
	}{s.Title.Value, s.Section.Value, s.Notes.Value, s.DurationMinutes.Value, s.Sources, s.Props}
}

// Generated maps what generation wrote in the lesson to its hash; see
// session.Provenance.
func (p *Plan) Generated() map[string]string {
	out := map[string]string{}
	for _, v := range p.metaValues() {
		if v.set && p.generated[v.name] {
			out[v.name] = session.ContentHash(v.value)
		}
		if t, ok := nodemeta.Tail(v.value, p.appended[v.name]); v.set && ok {
			out[nodemeta.AppendedKey(v.name, p.appended[v.name])] = session.ContentHash(t)
		}
	}
	p.list().Hashes(out, slideKey, slideContent)
	return out
}

// Adopt marks what an earlier run generated, and nobody changed since, as
// generated; see session.Provenance.
func (p *Plan) Adopt(marks map[string]string) {
	for _, v := range p.metaValues() {
		if v.set && marks[v.name] != "" && marks[v.name] == session.ContentHash(v.value) {
			if p.generated == nil {
				p.generated = map[string]bool{}
			}
			p.generated[v.name] = true
		}
		for key, mark := range marks {
			n, ok := nodemeta.AppendedCount(key, v.name)
			if !ok || !v.set || p.generated[v.name] {
				continue
			}
			if t, ok := nodemeta.Tail(v.value, n); ok && session.ContentHash(t) == mark {
				if p.appended == nil {
					p.appended = map[string]int{}
				}
				p.appended[v.name] = n
			}
		}
	}
	p.list().Adopt(marks, slideKey, slideContent)
}

// Ownership names the author's values (locked) and generation's
// (editable); see session.Provenance.
func (p *Plan) Ownership(level session.Level) (locked, editable []string) {
	if level == session.LevelNode {
		return p.list().Owners()
	}
	for _, v := range p.metaValues() {
		switch {
		case !v.set:
		case p.generated[v.name]:
			editable = append(editable, v.name)
		default:
			locked = append(locked, v.name)
			if n := p.appended[v.name]; n > 0 {
				editable = append(editable, nodemeta.AppendedOwner(v.name, n))
			}
		}
	}
	return locked, editable
}

// SetProtect turns the protection of the author's slides and values on or
// off; see session.Guarded.
func (p *Plan) SetProtect(on bool) { p.Protect = on }
