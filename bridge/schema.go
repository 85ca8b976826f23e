package bridge

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/lessongen/lessongen/internal/rule"
)

// Schemas come from the intent types through github.com/google/jsonschema-go,
// a well-kept implementation that both infers schemas from Go types (json
// names, `jsonschema` descriptions, embedded structs, field order) and
// validates against them, so what a model is shown and what is checked
// cannot drift. It has no tags for constraints, so enum, minimum, maximum,
// minItems and maxItems come from struct tags of the same names, read by
// internal/rule, which the modalities' own checks read too.

// compatibleSchema is the plain JSON Schema for an intent type: optional
// fields are simply not required.
func compatibleSchema(t reflect.Type) (*jsonschema.Schema, error) {
	own, err := ownSchemas(t, map[reflect.Type]*jsonschema.Schema{}, map[reflect.Type]bool{})
	if err != nil {
		return nil, fmt.Errorf("schema for %s: %w", t, err)
	}
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: own})
	if err != nil {
		return nil, fmt.Errorf("schema for %s: %w", t, err)
	}
	if err := applyTags(s, t); err != nil {
		return nil, fmt.Errorf("schema for %s: %w", t, err)
	}
	dropNull(s)
	return s, nil
}

// toolSchemer is a type that states its own tool schema: a value a call
// may give in more than one shape, such as a list item written as text or
// as {text, sources}. Reflection cannot say that.
type toolSchemer interface {
	ToolSchema() map[string]any
}

// ownSchemas finds the types under t that state their own schema.
func ownSchemas(t reflect.Type, out map[reflect.Type]*jsonschema.Schema, seen map[reflect.Type]bool) (map[reflect.Type]*jsonschema.Schema, error) {
	if seen[t] {
		return out, nil
	}
	seen[t] = true
	if ts, ok := reflect.Zero(t).Interface().(toolSchemer); ok && t.Kind() == reflect.Struct {
		raw, err := json.Marshal(ts.ToolSchema())
		if err != nil {
			return nil, err
		}
		s := &jsonschema.Schema{}
		if err := json.Unmarshal(raw, s); err != nil {
			return nil, fmt.Errorf("%s.ToolSchema: %w", t, err)
		}
		out[t] = s
		return out, nil
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return ownSchemas(t.Elem(), out, seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if _, err := ownSchemas(t.Field(i).Type, out, seen); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// applyTags walks the struct's fields (embedded ones included) alongside the
// schema's properties and adds the constraint tags.
func applyTags(s *jsonschema.Schema, t reflect.Type) error {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		if t.Kind() == reflect.Slice && s.Items != nil {
			s = s.Items
		}
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || s.Properties == nil {
		return nil
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Tag.Get("json") == "" {
			if err := applyTags(s, f.Type); err != nil {
				return err
			}
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		prop := s.Properties[name]
		if prop == nil || name == "" || name == "-" {
			continue
		}
		if err := applyFieldTags(prop, f); err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
		if err := applyTags(prop, f.Type); err != nil {
			return err
		}
	}
	return nil
}

func applyFieldTags(prop *jsonschema.Schema, f reflect.StructField) error {
	r, err := rule.Parse(f)
	if err != nil {
		return err
	}
	prop.Minimum, prop.Maximum, prop.MinItems, prop.MaxItems = r.Min, r.Max, r.MinItems, r.MaxItems
	for _, e := range r.Enum {
		prop.Enum = append(prop.Enum, e)
	}
	applyPattern(prop, f.Type)
	return nil
}

// patterned is a string type that declares its own shape (a colour): the
// pattern goes into the compatible schema, and what it means in words into
// the description, which is all strict mode keeps.
type patterned interface {
	Pattern() (pattern, doc string)
}

func applyPattern(prop *jsonschema.Schema, t reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	p, ok := reflect.Zero(t).Interface().(patterned)
	if !ok {
		return
	}
	pattern, doc := p.Pattern()
	prop.Pattern = pattern
	prop.Description = withNote(prop.Description, doc)
}

// withNote adds note to a description in parentheses; it is the whole
// description when there is none.
func withNote(desc, note string) string {
	if desc = strings.TrimSpace(desc); desc == "" {
		return note
	}
	return desc + " (" + note + ")"
}

// dropNull removes the "null" jsonschema-go adds for pointers and slices:
// in the compatible form an optional field is simply left out.
func dropNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && slices.Contains(s.Types, "null") {
		s.Type = s.Types[0]
		if s.Type == "null" {
			s.Type = s.Types[1]
		}
		s.Types = nil
	}
	for _, p := range s.Properties {
		dropNull(p)
	}
	dropNull(s.Items)
	for _, a := range s.AnyOf {
		dropNull(a)
	}
}

// strictKeywords are the validation keywords strict mode does not accept;
// the strict form moves what they say into the description instead.
func strictSchema(compat *jsonschema.Schema) *jsonschema.Schema {
	s := compat.CloneSchemas()
	makeStrict(s)
	return s
}

func makeStrict(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	var notes []string
	if s.Minimum != nil || s.Maximum != nil {
		notes = append(notes, strictRange(numRange(s)))
	}
	if s.MinItems != nil || s.MaxItems != nil {
		notes = append(notes, strictRange(itemRange(s)))
	}
	if len(notes) > 0 {
		s.Description = withNote(s.Description, strings.Join(notes, "; "))
	}
	s.Minimum, s.Maximum, s.MinItems, s.MaxItems = nil, nil, nil, nil
	s.MinLength, s.MaxLength, s.Pattern, s.Format = nil, nil, "", ""

	if s.Type == "object" || s.Properties != nil {
		required := map[string]bool{}
		for _, r := range s.Required {
			required[r] = true
		}
		s.Required = nil
		for _, name := range propertyNames(s) {
			p := s.Properties[name]
			makeStrict(p)
			if !required[name] {
				nullable(p)
				p.Description = strictAbsent(p.Description)
			}
			s.Required = append(s.Required, name)
		}
		s.AdditionalProperties = falseSchema()
	}
	makeStrict(s.Items)
	for _, a := range s.AnyOf {
		makeStrict(a)
	}
}

// strictAbsent rewrites an optional property's description for the strict
// form, where every property is required and absent is null: the tags say
// "omit", which is what the compatible form means. That null keeps an
// update's field ("new title") as it is, every prompt's rules say once
// (templates' common.tmpl), not each field of each tool.
func strictAbsent(desc string) string {
	desc = strings.ReplaceAll(desc, "Omit ", "Pass null ")
	return strings.ReplaceAll(desc, "omit ", "pass null ")
}

// propertyNames returns properties in declaration order.
func propertyNames(s *jsonschema.Schema) []string {
	names := slices.Clone(s.PropertyOrder)
	for name := range s.Properties {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names[len(s.PropertyOrder):])
	return names
}

// nullable lets an optional property be sent as null, which is how strict
// mode says "not given".
func nullable(p *jsonschema.Schema) {
	if p.Type != "" {
		p.Types = []string{p.Type, "null"}
		p.Type = ""
	}
	if len(p.Enum) > 0 && !slices.Contains(p.Enum, any(nil)) {
		p.Enum = append(slices.Clone(p.Enum), nil)
	}
}

// strictRange is a range as numRange and itemRange word it, shorter for
// schemas, where it is repeated in every coordinate of every tool: "0 to
// 1280" for "between 0 and 1280".
func strictRange(r string) string {
	if rest, ok := strings.CutPrefix(r, "between "); ok {
		return strings.Replace(rest, " and ", " to ", 1)
	}
	return r
}

func falseSchema() *jsonschema.Schema { return &jsonschema.Schema{Not: &jsonschema.Schema{}} }
