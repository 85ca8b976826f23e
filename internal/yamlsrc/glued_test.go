package yamlsrc

import (
	"testing"

	"gopkg.in/yaml.v3"
)

// `!pending}` in flow style is one tag to YAML; a bare marker glued to the
// `,`, `]` or `}` after it is read as the author meant it: pending, at its
// own position, and a write fills just that spot.
func TestGluedPendingIsAccepted(t *testing.T) {
	tests := []struct {
		src, want string
	}{
		{"a: {definition: !pending}\n", "a: {definition: v}\n"},
		{"a:\n  - {term: x, definition: !pending}\n  - y\n", "a:\n  - {term: x, definition: v}\n  - y\n"},
		{"a: {x: !pending, y: 1}\n", "a: {x: v, y: 1}\n"},
		{"a:\n  b: 1\n  c: [x, !pending]\n  d: 2\n", "a:\n  b: 1\n  c: [x, v]\n  d: 2\n"},
		{"a: [!pending, b]\n", "a: [v, b]\n"},
		{"a: [\"é\", !pending]\n", "a: [\"é\", v]\n"},
		// Quoted text holding the marker stays text beside a glued one.
		{"a: [\"!pending,\", !pending]\n", "a: [\"!pending,\", v]\n"},
		{"a: {x: '!pending}', y: !pending}\n", "a: {x: '!pending}', y: v}\n"},
		// A glued marker beside a spaced one with a hint.
		{"a: {x: !pending}\nb: [\"!pending\"]\n", "a: {x: v}\nb: [\"!pending\"]\n"},
	}
	for _, tt := range tests {
		s, err := Parse("f.yaml", []byte(tt.src))
		if err != nil {
			t.Errorf("%q: %v", tt.src, err)
			continue
		}
		var pending []*yaml.Node
		var walk func(n *yaml.Node)
		walk = func(n *yaml.Node) {
			if _, ok := Pending(n); ok && n.Tag == PendingTag {
				pending = append(pending, n)
			}
			for _, c := range n.Content {
				walk(c)
			}
		}
		walk(s.Root)
		if len(pending) != 1 {
			t.Errorf("%q: %d pending nodes", tt.src, len(pending))
			continue
		}
		cur := cloneNode(s.Root)
		var fill func(n *yaml.Node)
		fill = func(n *yaml.Node) {
			if n.Tag == PendingTag {
				*n = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "v"}
			}
			for _, c := range n.Content {
				fill(c)
			}
		}
		fill(cur)
		out, err := s.Patch(cur)
		if err != nil || string(out) != tt.want {
			t.Errorf("%q filled: got %q (%v), want %q", tt.src, out, err, tt.want)
		}
	}
}

// Text that merely contains the marker is text; a glued marker that is
// not a tag of its own is still reported with the fix.
func TestGluedPendingInTextIsText(t *testing.T) {
	s, err := Parse("f.yaml", []byte("a: [\"!pending,\", b]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if v := s.Root.Content[1].Content[0].Value; v != "!pending," {
		t.Errorf("quoted text read as %q", v)
	}
	_, err = Parse("f.yaml", []byte("a: {x: !pending}}\n"))
	if err == nil {
		t.Errorf("broken flow: %v", err)
	}
}

func cloneNode(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = nil
	for _, k := range n.Content {
		c.Content = append(c.Content, cloneNode(k))
	}
	return &c
}

// A glued marker in a file that also has a marker with a hint: both are
// pending (this once asked for a space).
func TestGluedPendingBesideHint(t *testing.T) {
	s, err := Parse("f.yaml", []byte("a: !pending \"x\"\nb: {d: !pending}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if h, ok := Pending(s.Root.Content[1]); !ok || h != "x" {
		t.Errorf("a: %q %v", h, ok)
	}
	if _, ok := Pending(s.Root.Content[3].Content[1]); !ok {
		t.Errorf("b.d not pending")
	}
}
