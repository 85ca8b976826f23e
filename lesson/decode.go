package lesson

import (
	"errors"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/yamlsrc"
)

// Decode reads a lesson from its root node, reporting every problem to r:
// its fields, slide ids, props bindings (against what each child kind lets
// a slide bind) and which registered kinds each slide places. The children
// themselves are the document's to read.
func Decode(n *yaml.Node, r *yamlsrc.Reporter, kinds []string, bindable map[string][]string) *Plan {
	p := NewPlan(kinds, bindable)
	if n.Kind != yaml.MappingNode {
		r.At(n, "a lesson file is a mapping with version, metadata and slides")
		return p
	}
	yamlsrc.Decode(n, p, r, "")
	p.Src = n
	if p.Version != FormatVersion && hasKey(n, "version") {
		r.At(yamlsrc.ValueAt(n, "version"), "version %d is not supported; this lessongen reads version %d", p.Version, FormatVersion)
	}
	p.list().Load(yamlsrc.ValueAt(n, "slides"), SlideIDs)
	seen := map[string]*yaml.Node{}
	pos := 0 // p.Name(s), counted here: a lookup per slide is quadratic
	for _, s := range p.slides() {
		if s.IsPlaceholder {
			continue
		}
		pos++
		path := SlideName(s.ID, pos)
		idNode := yamlsrc.ValueAt(s.Src, "id")
		switch first, dup := seen[s.ID]; {
		case s.Src == nil, s.IDDerived:
		case !idPattern.MatchString(s.ID):
			r.At(idNode, "%s.id %q must use only letters, digits, - and _", path, s.ID)
		case dup:
			r.At(idNode, "duplicate slide id %q (first at line %d); ids must be unique", s.ID, first.Line)
		default:
			seen[s.ID] = idNode
		}
		compiled, err := compileProps(s.Props, p.kinds, p.bindable)
		for _, e := range unjoin(err) {
			r.At(yamlsrc.ValueAt(s.Src, "props"), "%s.%v", path, e)
		}
		s.compiled = compiled
		p.resolveChildren(s, r, path)
		s.numberCallouts()
	}
	p.Metadata.numberLists()
	p.check(r)
	p.checkMeta(r)
	// Evaluate bindings once now, so a name that no value has is caught here
	// and not when the slide's children are generated.
	for _, s := range p.slides() {
		if s.IsPlaceholder || len(s.compiled) == 0 {
			continue
		}
		if _, err := p.evalProps(s); err != nil {
			for _, e := range unjoin(err) {
				if !errors.Is(e, ErrBindingPending) {
					r.At(yamlsrc.ValueAt(s.Src, "props"), "%v", e)
				}
			}
		}
	}
	return p
}

func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

func hasKey(m *yaml.Node, key string) bool {
	return yamlsrc.Value(m, key) != nil
}
