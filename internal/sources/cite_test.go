package sources

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/yamlsrc"
)

func TestRefsPointAtEachCitation(t *testing.T) {
	var doc yaml.Node
	src := "id: t1\nsources:\n  - ch1.md:2\n  - ch1.md:x\n"
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	m := doc.Content[0]
	refs := Refs(m, []string{"ch1.md:2", "ch1.md:x"}, "elements[0].sources")
	r := &yamlsrc.Reporter{File: "b.yaml"}
	CheckRefs(refs, r)
	if len(r.Problems) != 1 {
		t.Fatalf("problems = %v, want one", r.Problems)
	}
	if got := r.Problems[0].String(); !strings.HasPrefix(got, "b.yaml:4:5: elements[0].sources: citation \"ch1.md:x\"") {
		t.Errorf("problem = %q, want it at the second citation", got)
	}
	// Too many citations are reported once.
	many := make([]string, MaxCitations+2)
	for i := range many {
		many[i] = "a.md:1"
	}
	r = &yamlsrc.Reporter{File: "b.yaml"}
	CheckRefs(Refs(m, many, "x.sources"), r)
	if len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Message, "more than 20 citations") {
		t.Errorf("problems = %v, want one about the count", r.Problems)
	}
}
