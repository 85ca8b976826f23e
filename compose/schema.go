package compose

import (
	"fmt"
	"strings"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/modality"
)

// Schema is the JSON Schema (draft 2020-12) of a file of kind: the lesson
// (the registry's root) or a child kind given in its own file. It is
// derived from the field tables Load decodes with (see
// yamlsrc.SchemaBuilder), so it accepts every file Load accepts; what it
// cannot say (unique ids, arrow ends, layout) Load still reports.
func Schema(reg *modality.Registry, kind string) (map[string]any, error) {
	b := yamlsrc.NewSchemaBuilder()
	root := reg.Root().Name
	if kind == root {
		// A slide places each registered child kind inline, by file, or
		// pending.
		children := map[string]any{}
		for _, d := range reg.Children() {
			children[d.Name] = map[string]any{
				"description": fmt.Sprintf("the slide's %s: inline, {file: path} or !pending \"hint\"", d.Name),
				"anyOf": []any{
					b.OfType(d.Codec.Model),
					map[string]any{"type": "object", "additionalProperties": false, "required": []any{"file"},
						"properties": map[string]any{"file": map[string]any{"type": "string", "minLength": 1,
							"description": "path relative to the lesson file, inside its folder"}}},
					yamlsrc.PendingSchema(),
				},
			}
		}
		b.AddProperties(lesson.Slide{}, children)
		return b.Document(map[string]any{"title": "lessongen lesson", "$ref": b.Of(lesson.Plan{})["$ref"]}), nil
	}
	d, ok := reg.Child(kind)
	if !ok {
		return nil, fmt.Errorf("no file kind %q; kinds: %s", kind, strings.Join(Kinds(reg), ", "))
	}
	// A child file may be pending as a whole (a one-line `!pending "hint"`).
	return b.Document(map[string]any{
		"title": "lessongen " + kind,
		"anyOf": []any{b.OfType(d.Codec.Model), yamlsrc.PendingSchema()},
	}), nil
}

// Kinds names the kinds of file Schema describes: the lesson, then each
// child kind.
func Kinds(reg *modality.Registry) []string {
	var out []string
	for _, d := range reg.All() {
		out = append(out, d.Name)
	}
	return out
}
