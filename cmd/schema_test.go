package cmd

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/rogpeppe/go-internal/txtar"
	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/yamlsrc"
)

// resolvedSchemas compiles `lessongen schema KIND` for every kind with
// google/jsonschema-go: already this module's JSON Schema library (tool
// schemas), it validates draft 2020-12, so no second library is needed.
func resolvedSchemas(t *testing.T) map[string]*jsonschema.Resolved {
	t.Helper()
	reg, err := Registry()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*jsonschema.Resolved{}
	for _, kind := range compose.Kinds(reg) {
		doc, err := compose.Schema(reg, kind)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatalf("%s schema does not parse: %v", kind, err)
		}
		rs, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s schema does not resolve: %v", kind, err)
		}
		out[kind] = rs
	}
	return out
}

// editorValue is what an editor's YAML extension hands a schema: plain
// JSON values, with a !pending value read as its hint (null when bare).
func editorValue(n *yaml.Node) any {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.DocumentNode:
		return editorValue(n.Content[0])
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = editorValue(n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		l := []any{}
		for _, c := range n.Content {
			l = append(l, editorValue(c))
		}
		return l
	}
	switch n.Tag {
	case yamlsrc.PendingTag:
		if n.Value == "" {
			return nil
		}
		return n.Value
	case "!!null":
		return nil
	case "!!bool", "!!int", "!!float":
		var v any
		_ = n.Decode(&v)
		// Through JSON, so numbers are float64 as a JSON reader has them.
		raw, _ := json.Marshal(v)
		_ = json.Unmarshal(raw, &v)
		return v
	}
	return n.Value
}

// lessonFiles lists every lesson in the repository's examples and testdata,
// extracting txtar archives (the testscript scenarios) to temp folders.
func lessonFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	isLesson := func(path string) bool {
		var top map[string]any
		data, err := os.ReadFile(path)
		if err != nil || yaml.Unmarshal(data, &top) != nil {
			return strings.HasSuffix(path, "lesson.yaml")
		}
		_, slides := top["slides"]
		_, meta := top["metadata"]
		return slides || meta
	}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		inData := strings.Contains(path, "testdata") || strings.Contains(path, "examples")
		switch {
		case d.IsDir() || !inData:
		case strings.HasSuffix(path, ".yaml") && isLesson(path):
			out = append(out, path)
		case strings.HasSuffix(path, ".txtar"):
			ar, err := txtar.ParseFile(path)
			if err != nil {
				return err
			}
			dir := filepath.Join(t.TempDir(), filepath.Base(path))
			for _, f := range ar.Files {
				p := filepath.Join(dir, f.Name)
				if !filepath.IsLocal(f.Name) || os.MkdirAll(filepath.Dir(p), 0o755) != nil || os.WriteFile(p, f.Data, 0o644) != nil {
					continue
				}
				if strings.HasSuffix(f.Name, ".yaml") && isLesson(p) {
					out = append(out, p)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Every lesson in the repository that validate accepts passes the schema,
// and so does each child file it names (checked against its kind's schema);
// every lesson validate refuses is explained by validate's problems, and
// the count the schema also catches is logged.
func TestSchemaAcceptsWhatValidateAccepts(t *testing.T) {
	schemas := resolvedSchemas(t)
	reg, _ := Registry()
	files := lessonFiles(t)
	if len(files) < 20 {
		t.Fatalf("found only %d lessons; the walk is broken", len(files))
	}
	var valid, invalid, caught int
	for _, file := range files {
		opts := &validateOptions{reg: reg}
		_, problems := validateFile(opts, file)
		ok := !hasError(problems)
		data, _ := os.ReadFile(file)
		// Parsed as validate parses it (a bare !pending may touch a `}`).
		src, perr := yamlsrc.Parse(file, data)
		if perr != nil {
			if ok {
				t.Errorf("%s: validate accepts a file yamlsrc cannot parse", file)
			}
			invalid++
			continue
		}
		root := src.Root
		err := schemas["lesson"].Validate(editorValue(root))
		if !ok {
			invalid++
			if len(problems) == 0 {
				t.Errorf("%s: refused with no problem listed", file)
			}
			if err != nil {
				caught++
			}
			continue
		}
		valid++
		if err != nil {
			t.Errorf("%s: validate accepts it, the schema refuses: %v", file, err)
		}
		for kind, child := range childFiles(editorValue(root), reg.Root().Name) {
			path := filepath.Join(filepath.Dir(file), child)
			var n yaml.Node
			raw, err := os.ReadFile(path)
			if err != nil || yaml.Unmarshal(raw, &n) != nil || len(n.Content) == 0 {
				continue
			}
			if err := schemas[kind].Validate(editorValue(&n)); err != nil {
				t.Errorf("%s: %s file of a valid lesson refused by the schema: %v", path, kind, err)
			}
		}
	}
	t.Logf("%d lessons: %d valid, all passing the schema; %d invalid, all with validate's problems, %d also refused by the schema", len(files), valid, invalid, caught)
	if valid == 0 || invalid == 0 {
		t.Errorf("want both valid and invalid lessons, got %d and %d", valid, invalid)
	}
}

func hasError(ps yamlsrc.Problems) bool {
	for _, p := range ps {
		if !p.Warning {
			return true
		}
	}
	return false
}

// childFiles maps each {file: path} a lesson's slides name to its kind.
func childFiles(lesson any, _ string) map[string]string {
	out := map[string]string{}
	m, _ := lesson.(map[string]any)
	slides, _ := m["slides"].([]any)
	for _, s := range slides {
		sm, _ := s.(map[string]any)
		for k, v := range sm {
			if ref, ok := v.(map[string]any); ok {
				if f, ok := ref["file"].(string); ok && len(ref) == 1 {
					out[k] = f
				}
			}
		}
	}
	return out
}

// The schema is not a rubber stamp: wrong shapes a person makes are refused.
func TestSchemaRefusesWrongShapes(t *testing.T) {
	schemas := resolvedSchemas(t)
	for _, c := range []struct{ kind, src string }{
		{"lesson", "version: 1\nmetadata: {title: T}\nslides: []\nextra: 1\n"},
		// (A pending value reads as a string, so a pendable number cannot
		// refuse one: duration_minutes: long is validate's to refuse.)
		{"lesson", "version: 1\nmetadata: {title: T, duration_minutes: [1]}\nslides: []\n"},
		{"lesson", "version: 1\nmetadata: {title: T}\nslides:\n  - {id: a, title: A, whiteboard: 3}\n"},
		{"lesson", "version: 1\nslides: []\n"},
		{"lesson", "version: 1\nmetadata: {title: T, sections: [{name: A, minutes: 5}]}\nslides: []\n"},
		{"lesson", "version: 1\nmetadata: {title: T, sections: [{outcome: O}]}\nslides: []\n"},
		{"lesson", "version: 1\nmetadata: {title: T, attribution: [Oak]}\nslides: []\n"},
		{"whiteboard", "elements:\n  - {id: a, type: circle, x: 0, y: 0, w: 1, h: 1}\n"},
		{"whiteboard", "elements:\n  - {id: a, type: text, x: 0, y: 0, w: 1, h: 1, text: hi, style: {font_size: 2}}\n"},
		{"quiz", "questions:\n  - {id: q, prompt: P, answers: 3}\n"},
		{"whiteboard", "elements:\n  - {id: t, type: table, header: [x], rows: [1, 2], x: 0, y: 0, w: 1, h: 1}\n"},
		{"whiteboard", "elements:\n  - {id: c, type: code, code: [ls], x: 0, y: 0, w: 1, h: 1}\n"},
	} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(c.src), &n); err != nil {
			t.Fatal(err)
		}
		if err := schemas[c.kind].Validate(editorValue(&n)); err == nil {
			t.Errorf("%s schema accepts %q", c.kind, c.src)
		}
	}
	for _, c := range []struct{ kind, src string }{
		{"lesson", "version: 1\nmetadata:\n  title: T\n  subject: !pending\n  grade: !pending \"KS2\"\nslides:\n  - !pending \"two slides\"\n  - id: a\n    title: A\n    whiteboard: {file: a.yaml}\n    quiz: !pending\n"},
		{"whiteboard", "!pending \"a diagram\"\n"},
		{"whiteboard", "elements:\n  - {id: t, type: table, header: [x, n], rows: [[1, \"\"]], x: 0, y: 0, w: 1, h: 1}\n  - {id: c, type: code, language: bash, code: ls, output: !pending \"what it prints\", x: 0, y: 0, w: 1, h: 1}\n  - {id: b, type: blank, label: \"x̄ =\", x: 0, y: 0, w: 1, h: 1}\n"},
		{"quiz", "kind: !pending\nquestions:\n  - !pending \"one more\"\n"},
	} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(c.src), &n); err != nil {
			t.Fatal(err)
		}
		if err := schemas[c.kind].Validate(editorValue(&n)); err != nil {
			t.Errorf("%s schema refuses %q: %v", c.kind, c.src, err)
		}
	}
}
