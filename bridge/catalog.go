// Package bridge turns intent types into the tools a model sees and tool
// calls back into intents, under a policy: each subagent level is granted a
// set of capabilities, and mutations pass an approval gate. The intent types
// are the single source of truth: names, descriptions and schemas all come
// from them.
package bridge

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/tool"
)

// Form selects how tool schemas are written.
type Form int

const (
	// Strict: every object closed, every property required, optional ones
	// nullable, no keywords strict mode rejects. For OpenAI and servers that
	// support strict function calling.
	Strict Form = iota
	// Compatible: plain JSON Schema, for servers without strict mode.
	Compatible
)

// ParseForm reads "strict" or "compatible".
func ParseForm(s string) (Form, error) {
	switch s {
	case "strict", "":
		return Strict, nil
	case "compatible":
		return Compatible, nil
	}
	return 0, fmt.Errorf("tool schema form %q: use strict or compatible", s)
}

// entry is one intent type with its derived tool.
type entry struct {
	name     string
	typ      reflect.Type
	spec     session.Spec
	compat   *jsonschema.Schema
	resolved *jsonschema.Resolved
	strict   json.RawMessage
	plain    json.RawMessage
	// uncited is compat without its "sources" parameters, and
	// uncitedStrict, uncitedPlain its wire forms: what a run without
	// --sources offers, where a citation can only be refused. nil when
	// the intent cites nothing.
	uncited                     *jsonschema.Schema
	uncitedStrict, uncitedPlain json.RawMessage
}

// Catalog holds the intents of one modality, keyed by tool name.
type Catalog struct {
	Modality string
	entries  []*entry
	byName   map[string]*entry

	// cache holds the tool lists handed to subagents, by level, form,
	// focus and the tools left out, in two parts (see offering): built
	// once per run, not per subagent or turn, and the same definitions
	// (so the same wire form) for every subagent offered the same tools.
	mu    sync.Mutex
	cache map[offerKey]offering
	// schemas holds bounded's results: every board of one canvas size gets
	// the same, and deriving them costs more than a model turn's own work.
	schemas map[boundKey]json.RawMessage
}

type boundKey struct {
	tool   string
	form   Form
	bounds string // the bounds as fmt prints a map: keys sorted
	// uncited: without "sources" (see entry.uncited).
	uncited bool
}

// offering is a trimmed tool list in two parts: the tools every such
// subagent gets, and the setters, which vary with what is pending.
type offering struct{ fixed, setters []tool.Def }

type offerKey struct {
	level   string
	form    Form
	focused bool
	// pictures: the level may place pictures (see withPictures).
	pictures bool
	// left lists the tools left out because nothing they fill is pending.
	left string
	// uncited: the run has no sources (see entry.uncited).
	uncited bool
}

// Bridge holds the tool catalog of every registered modality. It is built
// once per run from the registry: schemas are derived by reflection.
type Bridge struct {
	reg      *modality.Registry
	catalogs map[string]*Catalog
	// local holds the tools every level may be granted beside its
	// modality's: the sources and the author (local.go).
	local *Catalog
}

// New derives a catalog for every modality in reg.
func New(reg *modality.Registry) (*Bridge, error) {
	b := &Bridge{reg: reg, catalogs: map[string]*Catalog{}}
	for _, d := range reg.All() {
		c, err := NewCatalog(d.Name, d.Intents)
		if err != nil {
			return nil, err
		}
		if err := c.addBriefs(reg); err != nil {
			return nil, err
		}
		b.catalogs[d.Name] = c
	}
	local, err := NewCatalog("local", localTools)
	if err != nil {
		return nil, err
	}
	for _, c := range b.catalogs {
		for _, e := range local.entries {
			if _, dup := c.byName[e.name]; dup {
				return nil, fmt.Errorf("%s: an intent is named %s, as a built-in tool is", c.Modality, e.name)
			}
		}
	}
	b.local = local
	return b, nil
}

// Registry is the registry the bridge was built from.
func (b *Bridge) Registry() *modality.Registry { return b.reg }

// Catalog returns the catalog of a registered modality.
func (b *Bridge) Catalog(name string) (*Catalog, error) {
	c, ok := b.catalogs[name]
	if !ok {
		return nil, fmt.Errorf("no modality %q", name)
	}
	return c, nil
}

// Levels lists every subagent level, in orchestration order.
func (b *Bridge) Levels() []modality.Level { return b.reg.Levels() }

// Level returns the level named name ("whiteboard.node").
func (b *Bridge) Level(name string) (modality.Level, bool) { return b.reg.Level(name) }

// NewCatalog derives a tool for every intent.
func NewCatalog(modality string, intents []session.Intent) (*Catalog, error) {
	c := &Catalog{Modality: modality, byName: map[string]*entry{}}
	for _, in := range intents {
		t := reflect.TypeOf(in)
		e := &entry{name: ToolName(t), typ: t, spec: in.Spec()}
		if _, dup := c.byName[e.name]; dup {
			return nil, fmt.Errorf("%s: two intents named %s", modality, e.name)
		}
		var err error
		if e.compat, err = compatibleSchema(t); err != nil {
			return nil, err
		}
		if err := e.derive(); err != nil {
			return nil, err
		}
		c.entries = append(c.entries, e)
		c.byName[e.name] = e
	}
	return c, nil
}

// derive makes what is sent and checked from the compatible schema.
func (e *entry) derive() error {
	var err error
	if e.resolved, err = e.compat.Resolve(nil); err != nil {
		return fmt.Errorf("resolve schema of %s: %w", e.name, err)
	}
	if e.plain, err = json.Marshal(e.compat); err != nil {
		return err
	}
	if e.strict, err = json.Marshal(strictSchema(e.compat)); err != nil {
		return err
	}
	if len(e.compat.Properties) == 0 {
		// OpenAI rejects an object schema without "properties", even for a
		// tool that takes no arguments.
		e.plain = json.RawMessage(noParams)
		e.strict = json.RawMessage(noParams)
	}
	e.uncited, e.uncitedPlain, e.uncitedStrict = nil, nil, nil
	if bare := e.compat.CloneSchemas(); withoutSources(bare) {
		e.uncited = bare
		if e.uncitedPlain, err = json.Marshal(bare); err != nil {
			return err
		}
		if e.uncitedStrict, err = json.Marshal(strictSchema(bare)); err != nil {
			return err
		}
	}
	return nil
}

// withoutSources removes every parameter named "sources" (the citations
// of add and update intents, at any depth), reporting whether there was
// one.
func withoutSources(s *jsonschema.Schema) bool {
	if s == nil {
		return false
	}
	found := false
	if _, ok := s.Properties["sources"]; ok {
		delete(s.Properties, "sources")
		// Cloned first: a cloned schema shares these slices' arrays.
		s.Required = slices.DeleteFunc(slices.Clone(s.Required), func(n string) bool { return n == "sources" })
		s.PropertyOrder = slices.DeleteFunc(slices.Clone(s.PropertyOrder), func(n string) bool { return n == "sources" })
		found = true
	}
	for _, p := range s.Properties {
		found = withoutSources(p) || found
	}
	found = withoutSources(s.Items) || found
	for _, a := range s.AnyOf {
		found = withoutSources(a) || found
	}
	return found
}

// addBriefs gives each Briefed intent of c (add_slide) one property per
// child kind of reg that has a Brief, named for the kind, before its
// pending_id: the registry, not the intent's type, says which kinds a
// new slide may ask for.
func (c *Catalog) addBriefs(reg *modality.Registry) error {
	for _, e := range c.entries {
		if _, ok := reflect.Zero(e.typ).Interface().(modality.Briefed); !ok {
			continue
		}
		var names []string
		for _, k := range reg.Children() {
			if k.Brief == "" {
				continue
			}
			if _, dup := e.compat.Properties[k.Name]; dup {
				return fmt.Errorf("%s: a parameter is named %s, as a child kind is", e.name, k.Name)
			}
			e.compat.Properties[k.Name] = &jsonschema.Schema{Type: "string", Description: k.Brief}
			names = append(names, k.Name)
			if k.BriefRequired {
				e.compat.Required = append(e.compat.Required, k.Name)
			}
		}
		at := slices.Index(e.compat.PropertyOrder, "pending_id")
		if at < 0 {
			at = len(e.compat.PropertyOrder)
		}
		e.compat.PropertyOrder = slices.Insert(e.compat.PropertyOrder, at, names...)
		if err := e.derive(); err != nil {
			return err
		}
	}
	return nil
}

// noParams is the schema of a tool without arguments.
const noParams = `{"type":"object","properties":{},"required":[],"additionalProperties":false}`

// ToolName is the snake_case of an intent's type name: AddText → add_text.
func ToolName(t reflect.Type) string {
	var b strings.Builder
	for i, r := range t.Name() {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Tools returns the tools a level is offered: the visible intents whose
// capability it holds, in catalog order.
func (c *Catalog) Tools(l modality.Level, form Form) []tool.Def {
	return c.tools(l, form, false)
}

// tools lists the level's tools; focused, only read-only and targeted ones.
func (c *Catalog) tools(l modality.Level, form Form, focused bool) []tool.Def {
	var tools []tool.Def
	for _, e := range c.offer(l, focused) {
		tools = append(tools, e.tool(form))
	}
	return tools
}

// offer lists the entries a subagent of level l may call.
func (c *Catalog) offer(l modality.Level, focused bool) []*entry {
	var out []*entry
	for _, e := range c.entries {
		if e.spec.Hidden || !l.Allows(e.spec.Capability) || e.places() && !l.Allows(tool.CapPictures) {
			continue
		}
		if focused && !e.spec.ReadOnly && !e.targeted() {
			continue
		}
		out = append(out, e)
	}
	return out
}

// offered is tools trimmed to what is pending, cached: subagents offered
// the same tools get the same slices.
func (c *Catalog) offered(l modality.Level, form Form, focused, every, uncited bool, pending []session.Pending) offering {
	var left []string
	var kept []*entry
	for _, e := range c.offer(l, focused) {
		if every || e.fillsAny(pending) {
			kept = append(kept, e)
		} else {
			left = append(left, e.name)
		}
	}
	key := offerKey{level: l.Name, form: form, focused: focused, pictures: l.Allows(tool.CapPictures), left: strings.Join(left, ","), uncited: uncited}
	c.mu.Lock()
	defer c.mu.Unlock()
	if o, ok := c.cache[key]; ok {
		return o
	}
	var o offering
	for _, e := range kept {
		if len(e.spec.Fills) == 0 {
			o.fixed = append(o.fixed, e.offer(form, uncited))
		} else {
			o.setters = append(o.setters, e.offer(form, uncited))
		}
	}
	if c.cache == nil {
		c.cache = map[offerKey]offering{}
	}
	c.cache[key] = o
	return o
}

// fillsAny reports whether the entry is worth offering with these items
// pending: it fills one of them, or it declares nothing it fills.
func (e *entry) fillsAny(pending []session.Pending) bool {
	if len(e.spec.Fills) == 0 {
		return true
	}
	for _, p := range pending {
		for _, pattern := range e.spec.Fills {
			if matchPath(pattern, p.Path) {
				return true
			}
		}
	}
	return false
}

// matchPath matches a pending path against a Fills pattern, where each "*"
// stands for one index or key: "vocabulary[*].definition",
// "slides[*].callouts[*]".
func matchPath(pattern, path string) bool {
	before, after, star := strings.Cut(pattern, "*")
	if !star {
		return path == pattern
	}
	if !strings.HasPrefix(path, before) {
		return false
	}
	rest := path[len(before):]
	for i := 0; i <= len(rest); i++ {
		if matchPath(after, rest[i:]) {
			return true
		}
		if i < len(rest) && strings.ContainsRune("[]", rune(rest[i])) {
			return false // a star stands for one index or key, no more
		}
	}
	return false
}

// bounded is d with the top-level number properties named in bounds
// narrowed to them: as minimum/maximum in the compatible form, in the
// description (with the numbers) in the strict one, as strictSchema writes
// every range.
func (c *Catalog) bounded(d tool.Def, bounds map[string][2]float64, form Form, uncited bool) tool.Def {
	e, ok := c.byName[d.Name]
	if !ok {
		return d
	}
	uncited = uncited && e.uncited != nil
	key := boundKey{d.Name, form, fmt.Sprint(bounds), uncited}
	c.mu.Lock()
	raw, done := c.schemas[key]
	c.mu.Unlock()
	if !done {
		raw = c.boundSchema(e, bounds, form, uncited)
		c.mu.Lock()
		if c.schemas == nil {
			c.schemas = map[boundKey]json.RawMessage{}
		}
		c.schemas[key] = raw
		c.mu.Unlock()
	}
	if raw != nil {
		d.Parameters = raw
	}
	return d
}

// boundSchema is e's schema in form with bounds applied; nil when no
// bound applies (or it cannot be written: the declared schema holds).
func (c *Catalog) boundSchema(e *entry, bounds map[string][2]float64, form Form, uncited bool) json.RawMessage {
	declared := e.compat
	if uncited {
		declared = e.uncited
	}
	var s *jsonschema.Schema
	for name, b := range bounds {
		p := declared.Properties[name]
		if p == nil || p.Type != "number" && p.Type != "integer" {
			continue
		}
		if s == nil {
			s = declared.CloneSchemas()
		}
		p = s.Properties[name]
		lo, hi := b[0], b[1]
		if p.Minimum != nil {
			lo = max(lo, *p.Minimum)
		}
		if p.Maximum != nil {
			hi = min(hi, *p.Maximum)
		}
		p.Minimum, p.Maximum = &lo, &hi
	}
	if s == nil {
		return nil
	}
	if form == Strict {
		s = strictSchema(s)
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil
	}
	return raw
}

func (e *entry) targeted() bool {
	_, ok := reflect.Zero(e.typ).Interface().(session.Targeted)
	return ok
}

// All returns every visible tool of the catalog regardless of level.
func (c *Catalog) All(form Form) []tool.Def {
	var tools []tool.Def
	for _, e := range c.entries {
		if !e.spec.Hidden {
			tools = append(tools, e.tool(form))
		}
	}
	return tools
}

func (e *entry) tool(form Form) tool.Def { return e.offer(form, false) }

// offer is the tool as a run offers it; uncited, in a run without
// sources: without its "sources" parameters.
func (e *entry) offer(form Form, uncited bool) tool.Def {
	t := tool.Def{Name: e.name, Description: e.spec.Doc, Parameters: e.plain}
	if e.spec.ReadOnly {
		t.Description += " Read-only."
	}
	if form == Strict {
		t.Parameters, t.Strict = e.strict, true
	}
	if uncited && e.uncited != nil {
		t.Parameters = e.uncitedPlain
		if form == Strict {
			t.Parameters = e.uncitedStrict
		}
	}
	return t
}

// Spec returns the spec of a named tool.
func (c *Catalog) Spec(name string) (session.Spec, bool) {
	e, ok := c.byName[name]
	if !ok {
		return session.Spec{}, false
	}
	return e.spec, true
}

// Signature lists a tool's parameters for people: optional ones end in "?".
func (c *Catalog) Signature(name string) string {
	e, ok := c.byName[name]
	if !ok {
		return ""
	}
	var parts []string
	for _, p := range propertyNames(e.compat) {
		if !slices.Contains(e.compat.Required, p) {
			p += "?"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}
