package yamlsrc

import (
	"testing"

	"gopkg.in/yaml.v3"
)

// A changed scalar inside a flow collection is rewritten where it stands,
// quoted as flow style needs; the rest of the line keeps its bytes.
func TestPatchInsideFlowCollections(t *testing.T) {
	tests := []struct {
		name, src string
		change    func(root *yaml.Node)
		want      string
	}{
		{
			"a pending value in a flow mapping",
			"vocab: [chlorophyll, {term: stoma, definition: !pending }]   # two\n",
			func(r *yaml.Node) { r.Content[1].Content[1].Content[3] = str("a pore, in a leaf") },
			"vocab: [chlorophyll, {term: stoma, definition: 'a pore, in a leaf'}]   # two\n",
		},
		{
			"a pending value before a comma",
			"a: {x: !pending , y: 'kept'}\n",
			func(r *yaml.Node) { r.Content[1].Content[1] = str("plain") },
			"a: {x: plain, y: 'kept'}\n",
		},
		{
			"a hinted pending item in a flow list",
			"a: [x, !pending \"one more\", \"z\"]\n",
			func(r *yaml.Node) { r.Content[1].Content[1] = str("y") },
			"a: [x, y, \"z\"]\n",
		},
		{
			"keys in another order",
			"a: {definition: !pending , term: villa}\n",
			func(r *yaml.Node) {
				r.Content[1] = &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{str("term"), str("villa"), str("definition"), str("a house")}}
			},
			"a: {definition: a house, term: villa}\n",
		},
		{
			"a grown flow list is rewritten whole",
			"a: [x]   # note\n",
			func(r *yaml.Node) { r.Content[1].Content = append(r.Content[1].Content, str("y")) },
			"a: # note\n  - x\n  - y\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustParse(t, tt.src)
			cur := clone(s.Root)
			tt.change(cur)
			out, err := s.Patch(cur)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want {
				t.Errorf("patched:\n%s\nwant:\n%s", out, tt.want)
			}
		})
	}
}

// Items without ids (vocabulary mappings, say) are patched in place when
// the list keeps its length, so the untouched ones keep their bytes.
func TestPatchKeylessItemsInPlace(t *testing.T) {
	src := "terms:\n  - legion   # bare\n  - {term: empire, definition: lands}\n  - term: villa\n    definition: !pending\n"
	s := mustParse(t, src)
	cur := clone(s.Root)
	cur.Content[1].Content[2].Content[3] = str("a country house")
	out, err := s.Patch(cur)
	if err != nil {
		t.Fatal(err)
	}
	want := "terms:\n  - legion   # bare\n  - {term: empire, definition: lands}\n  - term: villa\n    definition: a country house\n"
	if string(out) != want {
		t.Errorf("patched:\n%s\nwant:\n%s", out, want)
	}
}

func str(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }
