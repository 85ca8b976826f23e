package lesson

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"text/template"

	"github.com/lessongen/lessongen/modality"
)

// pendingMark stands in for a value that is still pending while a binding is
// evaluated, so "uses a pending value" is told apart from "names no value".
const pendingMark = "\x00pending\x00"

type tpl struct {
	text string
	t    *template.Template
}

type boundProps struct {
	epoch  int
	values map[string]string
	err    error
}

// templateFuncs are the functions a binding may call.
func templateFuncs() template.FuncMap {
	return template.FuncMap{
		"upper": strings.ToUpper,
		"lower": strings.ToLower,
		"join":  func(sep string, items []string) string { return strings.Join(items, sep) },
	}
}

// compileProps parses every binding. Names no child kind lets a slide bind
// (bindable, from the registry) and templates that do not parse are errors.
func compileProps(props map[string]string, kinds []string, bindable map[string][]string) (map[string]tpl, error) {
	out := make(map[string]tpl, len(props))
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(props)) {
		text := props[name]
		if !bindableBy(name, kinds, bindable) {
			errs = append(errs, fmt.Errorf("props.%s: no child of a slide has a property %q; bindable: %s", name, name, bindableList(kinds, bindable)))
			continue
		}
		t, err := template.New(name).Option("missingkey=error").Funcs(templateFuncs()).Parse(text)
		if err != nil {
			errs = append(errs, fmt.Errorf("props.%s: template does not parse: %v", name, cleanTemplateErr(err)))
			continue
		}
		out[name] = tpl{text: text, t: t}
	}
	return out, errors.Join(errs...)
}

func bindableBy(name string, kinds []string, bindable map[string][]string) bool {
	for _, k := range kinds {
		if slices.Contains(bindable[k], name) {
			return true
		}
	}
	return false
}

// bindableList says what props may bind, kind by kind: "heading, layout
// (whiteboard); kind, instructions (quiz)".
func bindableList(kinds []string, bindable map[string][]string) string {
	var parts []string
	for _, k := range kinds {
		if len(bindable[k]) > 0 {
			parts = append(parts, strings.Join(bindable[k], ", ")+" ("+k+")")
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, "; ")
}

// cleanTemplateErr drops text/template's "template: NAME:" prefix, keeping
// the line within the template and the reason.
func cleanTemplateErr(err error) string {
	msg := strings.TrimPrefix(err.Error(), "template: ")
	if _, rest, ok := strings.Cut(msg, ":"); ok {
		return "template line " + rest
	}
	return msg
}

// templateData is what a binding may read: .lesson.* and .slide.*.
func (p *Plan) templateData(s *Slide) map[string]any {
	str := func(v string, set bool) any {
		if !set {
			return pendingMark
		}
		return v
	}
	list := func(v []string, set bool) any {
		if !set {
			return []string{pendingMark}
		}
		return v
	}
	m := &p.Metadata
	var vocab []map[string]string
	for _, t := range m.Vocabulary.Value {
		if t.IsPlaceholder {
			continue
		}
		vocab = append(vocab, map[string]string{"term": t.Term, "definition": t.Definition})
	}
	pos, count := p.Position(s.ID)
	return map[string]any{
		"lesson": map[string]any{
			"title":            str(m.Title.Value, m.Title.Set),
			"subject":          str(m.Subject.Value, m.Subject.Set),
			"grade":            str(m.Grade.Value, m.Grade.Set),
			"duration_minutes": str(fmt.Sprint(m.DurationMinutes.Value), m.DurationMinutes.Set),
			"language":         str(m.Language.Value, m.Language.Set),
			"objectives":       list(Texts(m.Objectives.Value), m.Objectives.Set),
			"prerequisites":    list(m.Prerequisites.Value, m.Prerequisites.Set),
			"standards":        list(m.Standards.Value, m.Standards.Set),
			"vocabulary":       vocab,
		},
		"slide": map[string]any{
			"id":               s.ID,
			"title":            str(s.Title.Value, s.Title.Set),
			"section":          str(s.Section.Value, s.Section.Set),
			"duration_minutes": str(fmt.Sprint(s.DurationMinutes.Value), s.DurationMinutes.Set),
			"notes":            str(s.Notes.Value, s.Notes.Set),
			"number":           pos,
			"count":            count,
		},
	}
}

// ErrBindingPending means a binding reads a value that is still pending; it
// resolves once that value has been generated.
var ErrBindingPending = modality.ErrBindingPending

// Bindings evaluates slide id's props: whiteboard property → value. Results
// are cached until metadata, the slide order, or the slide itself changes.
func (p *Plan) Bindings(id string) (map[string]string, error) {
	s, ok := p.byID[id]
	if !ok {
		return nil, fmt.Errorf("no slide %q", id)
	}
	if len(s.compiled) == 0 {
		return nil, nil
	}
	if b, ok := p.bindCache.get(id); ok && b.epoch == p.metaEpoch {
		return b.values, b.err
	}
	values, err := p.evalProps(s)
	p.bindCache.put(id, &boundProps{epoch: p.metaEpoch, values: values, err: err})
	return values, err
}

// bindingCache holds evaluated bindings by slide id. It lives behind a
// pointer with its own lock because Bindings fills it while callers hold
// only the session's read lock, and readers such as a checkpoint copy the
// plan's structs meanwhile: nothing it guards may sit inside them.
type bindingCache struct {
	mu sync.Mutex
	m  map[string]*boundProps
}

func newBindingCache() *bindingCache { return &bindingCache{m: map[string]*boundProps{}} }

func (c *bindingCache) get(id string) (*boundProps, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[id]
	return b, ok
}

func (c *bindingCache) put(id string, b *boundProps) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[id] = b
}

// forget drops a slide's entry after it changed.
func (c *bindingCache) forget(id string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, id)
}

func (p *Plan) evalProps(s *Slide) (map[string]string, error) {
	data := p.templateData(s)
	values := map[string]string{}
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(s.Props)) {
		t, ok := s.compiled[name]
		if !ok {
			continue
		}
		var out strings.Builder
		if err := t.t.Execute(&out, data); err != nil {
			errs = append(errs, fmt.Errorf("props.%s of slide %q: %v", name, s.ID, cleanExecErr(err)))
			continue
		}
		if strings.Contains(out.String(), pendingMark) {
			errs = append(errs, fmt.Errorf("props.%s of slide %q: %w", name, s.ID, ErrBindingPending))
			continue
		}
		values[name] = strings.TrimSpace(out.String())
	}
	return values, errors.Join(errs...)
}

// cleanExecErr turns text/template's "map has no entry for key" into words
// that name the missing value.
func cleanExecErr(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "map has no entry for key "); i >= 0 {
		key := strings.Trim(msg[i+len("map has no entry for key "):], `"`)
		return fmt.Sprintf("names %q, which is not a lesson or slide value (lesson: title, subject, grade, duration_minutes, language, objectives, prerequisites, standards, vocabulary; slide: id, title, section, duration_minutes, notes, number, count)", key)
	}
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		return msg[i+2:]
	}
	return msg
}
