package compose

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/session"
)

// reportAt is where a decoded child's problems go.
type reportAt struct{ file, path string }

// BoundWarnings reports the defects children have once their slides'
// props are bound, which decoding a child's own text cannot see: a heading
// bound from the lesson's title takes the heading band, so an element drawn
// there is a defect. Generation and render apply the same bindings, so
// validate agrees with them. Warnings already in d.Warnings are not
// repeated. It binds the children in memory: for a document that is not
// saved afterwards (validate), after LoadAll.
func (d *Document) BoundWarnings() (yamlsrc.Problems, error) {
	type slideBinds struct {
		id     string
		values map[string]string
	}
	var slides []slideBinds
	d.View(func(p *lesson.Plan) {
		for _, pg := range p.Pages() {
			// A binding that names a value still pending is applied by the
			// run once that value is written; here it is left out.
			if values, err := p.Bindings(pg.ID); err == nil && len(values) > 0 {
				slides = append(slides, slideBinds{pg.ID, values})
			}
		}
	})
	seen := map[string]bool{}
	for _, w := range d.Warnings {
		seen[w.String()] = true
	}
	var out yamlsrc.Problems
	for _, s := range slides {
		for _, kind := range d.reg.Children() {
			if kind.Codec == nil || kind.Codec.Report == nil {
				continue
			}
			key := session.Key{Placement: s.id, Kind: kind.Name}
			d.mu.Lock()
			at, decoded := d.decodedAt[key]
			d.mu.Unlock()
			if !decoded {
				continue // not placed, or pending as a whole
			}
			sess, err := d.Child(s.id, kind.Name)
			if err != nil {
				return nil, err
			}
			bound := false
			for _, name := range slices.Sorted(maps.Keys(s.values)) {
				if !slices.Contains(kind.Bindable, name) {
					continue
				}
				if _, err := sess.Dispatch(context.Background(), kind.Bind(name, s.values[name])); err != nil {
					return nil, fmt.Errorf("bind %s of slide %q: %w", name, s.id, err)
				}
				bound = true
			}
			if !bound {
				continue
			}
			r := &yamlsrc.Reporter{File: at.file}
			sess.View(func(st session.State) { kind.Codec.Report(st, r, at.path) })
			for _, w := range r.Problems.Warnings() {
				if !seen[w.String()] {
					seen[w.String()] = true
					out = append(out, w)
				}
			}
		}
	}
	return out, nil
}
