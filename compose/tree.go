package compose

import "github.com/lessongen/lessongen/lesson"

// The document as the orchestrator walks it: the root's session, its
// slides, and each slide's children by kind.

// Slides lists the real slides' ids in order.
func (d *Document) Slides() (ids []string) {
	d.View(func(p *lesson.Plan) { ids = p.SlideIDs() })
	return ids
}

// Lookup resolves a slide reference (an id or a 1-based position) to an id.
func (d *Document) Lookup(ref string) (id string, err error) {
	d.View(func(p *lesson.Plan) {
		var s *lesson.Slide
		if s, err = p.Lookup(ref); err == nil {
			id = s.ID
		}
	})
	return id, err
}

// Outline lists the slides, one per line, for the lesson's node subagent.
func (d *Document) Outline() (s string) {
	d.View(func(p *lesson.Plan) { s = p.Outline() })
	return s
}

// DescribeSlide places one slide in the lesson, in constant size.
func (d *Document) DescribeSlide(id string) (s string) {
	d.View(func(p *lesson.Plan) { s = p.DescribeSlide(id) })
	return s
}

// Bindings evaluates slide id's props: property → value.
func (d *Document) Bindings(id string) (values map[string]string, err error) {
	d.View(func(p *lesson.Plan) { values, err = p.Bindings(id) })
	return values, err
}
