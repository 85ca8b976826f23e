package compose

import (
	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// warnMinutes flags a child that takes more minutes than its slide has:
// its minutes count toward the slide's, which count toward the lesson's.
func warnMinutes(s *lesson.Slide, kind string, st session.State, src *yaml.Node, r *yamlsrc.Reporter, path string) {
	t, ok := st.(modality.Timed)
	if !ok {
		return
	}
	m, set := t.Minutes()
	slide, slideSet := s.DurationMinutes.Get()
	if set && slideSet && m > slide {
		r.WarnAt(yamlsrc.ValueAt(src, "duration_minutes"), "%s.%s.duration_minutes: the %s takes %d minutes, more than the slide's %d; shorten it or lengthen the slide", path, kind, kind, m, slide)
	}
}
