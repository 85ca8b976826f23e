package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// What init writes passes validate and the lesson schema, with and without
// the fields given; the schema it writes is the one `schema` prints.
func TestInitLessonIsValid(t *testing.T) {
	reg, err := Registry()
	if err != nil {
		t.Fatal(err)
	}
	schemas := resolvedSchemas(t)
	for _, opts := range []initOptions{{}, {subject: "Science", grade: "7", title: `Light: "why" # not a comment`}} {
		dir := t.TempDir()
		files, err := initFiles(reg, &opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := writeNew(dir, files); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, "lesson.yaml")
		if _, problems := validateFile(&validateOptions{reg: reg}, file); hasError(problems) {
			t.Fatalf("%+v: init's lesson is invalid: %v", opts, problems)
		}
		data, _ := os.ReadFile(file)
		var n yaml.Node
		if err := yaml.Unmarshal(data, &n); err != nil {
			t.Fatal(err)
		}
		if err := schemas["lesson"].Validate(editorValue(&n)); err != nil {
			t.Errorf("%+v: init's lesson fails the schema: %v", opts, err)
		}
		var doc struct {
			Metadata map[string]any `yaml:"metadata"`
		}
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		if opts.title != "" && (doc.Metadata["title"] != opts.title || doc.Metadata["grade"] != opts.grade) {
			t.Errorf("flags not written as given: %v", doc.Metadata)
		}
		first, _, _ := strings.Cut(string(data), "\n")
		ref := strings.TrimPrefix(first, "# yaml-language-server: $schema=")
		if _, err := os.Stat(filepath.Join(dir, ref)); ref == first || err != nil {
			t.Errorf("first line %q does not name a schema init wrote (%v)", first, err)
		}
	}
}
