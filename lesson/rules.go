package lesson

import (
	"fmt"

	"github.com/lessongen/lessongen/internal/rule"
	"github.com/lessongen/lessongen/internal/yamlsrc"
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
	if d, ok := p.Metadata.DurationMinutes.Get(); ok && !lessonMinutes().In(float64(d)) {
		r.At(valueNode(p.Metadata.Src, "duration_minutes"), "metadata.duration_minutes must be %s, got %d", lessonMinutes().Range(), d)
	}
	for i, s := range p.slides() {
		if s.IsPlaceholder {
			continue
		}
		if d, ok := s.DurationMinutes.Get(); ok && !slideMinutes().In(float64(d)) {
			r.At(valueNode(s.Src, "duration_minutes"), "%s.duration_minutes must be %s, got %d", fmt.Sprintf("slides[%d]", i), slideMinutes().Range(), d)
		}
	}
}
