package yamlsrc

import (
	"reflect"
	"strconv"
	"strings"
)

// SchemaBuilder derives JSON Schemas (draft 2020-12) for the YAML the
// codec reads, from the same struct tables Decode uses: key names, required
// keys, Field[T] (may be pending), Placeholder list items (may be pending)
// and the `jsonschema`/`minimum`/`maximum`/`enum` tags the tool schemas
// read. Struct types become $defs named after the Go type. Editors read a
// `!pending "hint"` value as its hint string (a bare `!pending` as null), so
// wherever the codec accepts pending the schema also accepts a string or
// null; Decode stays the judge of the rest (ids, references, layout).
//
// A type with its own DecodeNode states its schema by implementing
// SchemaProvider; AddProperties adds the keys a KeySet takes (a slide's
// children), which the struct's fields do not name.
type SchemaBuilder struct {
	defs  map[string]any
	extra map[reflect.Type]map[string]any
}

func NewSchemaBuilder() *SchemaBuilder {
	return &SchemaBuilder{defs: map[string]any{}, extra: map[reflect.Type]map[string]any{}}
}

// Of returns the schema of v's type; structs are references into $defs.
func (b *SchemaBuilder) Of(v any) map[string]any { return b.of(reflect.TypeOf(v)) }

// OfType is Of for a type.
func (b *SchemaBuilder) OfType(t reflect.Type) map[string]any { return b.of(t) }

// AddProperties lets the struct type of v have props besides its fields.
// Call it before the type is first reached.
func (b *SchemaBuilder) AddProperties(v any, props map[string]any) {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	b.extra[t] = props
}

// Document makes root a schema document holding every definition reached.
func (b *SchemaBuilder) Document(root map[string]any) map[string]any {
	out := map[string]any{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": b.defs}
	for k, v := range root {
		out[k] = v
	}
	return out
}

// SchemaProvider is a type that states its own schema.
type SchemaProvider interface {
	JSONSchema() map[string]any
}

// PendingSchema is what an editor sees for a `!pending` value.
func PendingSchema() map[string]any {
	return map[string]any{"type": []any{"string", "null"}, "description": "!pending \"hint\": to be generated"}
}

// OrPending allows s or a pending value.
func OrPending(s map[string]any) map[string]any {
	return map[string]any{"anyOf": []any{s, PendingSchema()}}
}

var (
	providerType = reflect.TypeFor[SchemaProvider]()
	fieldPtrType = reflect.TypeFor[fieldPtr]()
	phItemType   = reflect.TypeFor[placeholderItem]()
)

func (g *SchemaBuilder) of(t reflect.Type) map[string]any {
	if t.Implements(providerType) {
		return reflect.Zero(t).Interface().(SchemaProvider).JSONSchema()
	}
	if reflect.PointerTo(t).Implements(fieldPtrType) {
		inner := reflect.New(t).Interface().(fieldPtr).valuePtr()
		return OrPending(g.of(reflect.TypeOf(inner).Elem()))
	}
	switch t.Kind() {
	case reflect.Pointer:
		return g.of(t.Elem())
	case reflect.String:
		// Decode takes any scalar as text (grade: 7 is the text "7").
		return map[string]any{"type": []any{"string", "number", "boolean"}}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice:
		item := g.of(t.Elem())
		if t.Elem().Implements(phItemType) || reflect.PointerTo(t.Elem()).Implements(phItemType) {
			item = OrPending(item)
		}
		return map[string]any{"type": "array", "items": item}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.of(t.Elem())}
	case reflect.Struct:
		name := t.String()
		if _, done := g.defs[name]; !done {
			g.defs[name] = true // a placeholder, so a recursive type ends
			g.defs[name] = g.structSchema(t)
		}
		return map[string]any{"$ref": "#/$defs/" + name}
	}
	return map[string]any{}
}

func (g *SchemaBuilder) structSchema(t reflect.Type) map[string]any {
	si := infoFor(t)
	props := map[string]any{}
	var required []any
	// A KeyOmitter drops keys by variant (an arrow has no box), which a
	// plain list of required keys cannot say; Decode reports those.
	omitter := t.Implements(reflect.TypeFor[KeyOmitter]())
	for _, f := range si.fields {
		sf := t.Field(f.index)
		s := g.of(sf.Type)
		addTags(s, sf.Tag)
		props[f.name] = s
		if !f.optional && !omitter {
			required = append(required, f.name)
		}
	}
	out := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	for k, v := range g.extra[t] {
		props[k] = v
	}
	if len(required) > 0 {
		out["required"] = required
	}
	if r, ok := reflect.Zero(t).Interface().(SchemaRefiner); ok {
		r.RefineSchema(out)
	}
	return out
}

// SchemaRefiner is a struct type that adds to the schema derived from its
// fields what the fields cannot say, such as the keys each variant of a
// KeyOmitter requires.
type SchemaRefiner interface {
	RefineSchema(s map[string]any)
}

// addTags copies the constraint tags shared with the tool schemas onto s
// (on the value, not its pending alternative).
func addTags(s map[string]any, tag reflect.StructTag) {
	target := s
	if alts, ok := s["anyOf"].([]any); ok {
		target = alts[0].(map[string]any)
	}
	if d := tag.Get("jsonschema"); d != "" {
		s["description"] = d
	}
	for _, k := range []string{"minimum", "maximum"} {
		if v, err := strconv.ParseFloat(tag.Get(k), 64); err == nil {
			target[k] = v
		}
	}
	if e := tag.Get("enum"); e != "" {
		var vals []any
		for _, v := range strings.Split(e, ",") {
			vals = append(vals, v)
		}
		target["enum"] = vals
	}
}
