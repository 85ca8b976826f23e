package yamlsrc

import (
	"math/rand/v2"
	"testing"

	"gopkg.in/yaml.v3"
)

// mutate makes a few random changes to a cloned tree: replace a value,
// drop a key, add a key, insert or drop a list item.
func mutate(root *yaml.Node, r *rand.Rand) {
	var nodes []*yaml.Node
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		nodes = append(nodes, n)
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(root)
	for range 1 + r.IntN(3) {
		n := nodes[r.IntN(len(nodes))]
		switch n.Kind {
		case yaml.MappingNode:
			switch r.IntN(3) {
			case 0:
				set(n, "added", seq(scalar("x"), mapping("id", "new", "v", "line one\nline two")))
			case 1:
				if len(n.Content) >= 2 {
					i := 2 * r.IntN(len(n.Content)/2)
					n.Content = append(n.Content[:i:i], n.Content[i+2:]...)
				}
			case 2:
				if len(n.Content) >= 2 {
					n.Content[2*r.IntN(len(n.Content)/2)+1] = scalar("replaced value")
				}
			}
		case yaml.SequenceNode:
			if r.IntN(2) == 0 || len(n.Content) == 0 {
				i := r.IntN(len(n.Content) + 1)
				n.Content = append(n.Content[:i:i], append([]*yaml.Node{mapping("id", "ins", "k", "v")}, n.Content[i:]...)...)
			} else {
				i := r.IntN(len(n.Content))
				n.Content = append(n.Content[:i:i], n.Content[i+1:]...)
			}
		case yaml.ScalarNode:
			n.Tag, n.Value, n.Style = "!!str", "changed: text", 0
		}
	}
}

func FuzzPatch(f *testing.F) {
	f.Add([]byte(lessonSrc), uint64(1))
	f.Add([]byte("a: 1\nb:\n- x\n- y\n"), uint64(2))
	f.Add([]byte("k: |\n  a\n  b\nl: [1, 2]\nm: {x: 1}\n"), uint64(3))
	f.Add([]byte("- - a\n  - b\n- c\n"), uint64(4))
	f.Add([]byte("v: [a, {term: b, definition: !pending }]\nw: {x: !pending , y: [1, 'two']}\n"), uint64(5))
	f.Add([]byte("terms:\n  - a   # bare\n  - {term: b, definition: c}\n  - term: d\n    definition: !pending\n"), uint64(6))
	f.Add([]byte("\ufeffa: 1\r\nb: [x]\r\n"), uint64(5))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		s, err := Parse("f.yaml", data)
		if err != nil || s.Root.Kind != yaml.MappingNode {
			return
		}
		if hasAliasOrMerge(s.Root) {
			return // aliases are expanded in clones, which changes shape
		}
		cur := clone(s.Root)
		mutate(cur, rand.New(rand.NewPCG(seed, seed)))
		out, err := s.Patch(cur)
		if err != nil {
			return // a refusal is fine; a wrong write is not
		}
		back, err := Parse("out.yaml", out)
		if err != nil {
			t.Fatalf("patched output does not parse: %v\n--- in\n%s\n--- out\n%s", err, data, out)
		}
		if !Equal(back.Root, cur) {
			t.Fatalf("patched output lost the change\n--- in\n%s\n--- out\n%s", data, out)
		}
	})
}

func hasAliasOrMerge(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode || n.Anchor != "" || n.Tag == "!!merge" {
		return true
	}
	for _, c := range n.Content {
		if hasAliasOrMerge(c) {
			return true
		}
	}
	return false
}
