package nodemeta

import (
	"slices"
	"testing"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// node is a toy child node with two values a slide's props may bind.
type node struct {
	meta            Meta
	heading, layout yamlsrc.Field[string]
}

func (n *node) field(name string) *yamlsrc.Field[string] {
	if name == "heading" {
		return &n.heading
	}
	return &n.layout
}

func (n *node) value(name string) (any, bool) { f := n.field(name); return f.Value, f.Set }

var names = []string{"heading", "layout"}

func TestABoundValueIsNeitherGenerationsNorSaved(t *testing.T) {
	n := &node{heading: yamlsrc.Todo[string]("a title"), layout: yamlsrc.Todo[string]("")}
	n.meta.Bind("heading", &n.heading, "Photosynthesis")
	n.meta.Mark("heading") // even if generation later set it again
	n.layout = yamlsrc.Val("two columns")
	n.meta.Mark("layout")
	if n.meta.Own("heading") || !n.meta.Own("layout") {
		t.Fatalf("Own(heading) %v, Own(layout) %v", n.meta.Own("heading"), n.meta.Own("layout"))
	}
	if h := n.meta.Hashes(names, n.value); len(h) != 1 || h["layout"] == "" {
		t.Fatalf("Hashes = %v; only layout is generation's", h)
	}
	locked, editable := n.meta.Owners(names, n.value)
	if !slices.Equal(locked, []string{"heading"}) || !slices.Equal(editable, []string{"layout"}) {
		t.Fatalf("Owners = %v, %v", locked, editable)
	}
	saved := *n
	saved.meta.Unbind(saved.field)
	if !saved.heading.Pending || saved.heading.Hint != "a title" || n.heading.Value != "Photosynthesis" {
		t.Fatalf("Unbind: saved %+v, live %+v", saved.heading, n.heading)
	}
}

func TestAdoptAndWritable(t *testing.T) {
	n := &node{heading: yamlsrc.Val("Water"), layout: yamlsrc.Val("grid")}
	marks := map[string]string{"heading": session.ContentHash("Water"), "layout": session.ContentHash("changed since")}
	n.meta.Adopt(names, n.value, marks)
	if !n.meta.Own("heading") || n.meta.Own("layout") {
		t.Fatalf("Adopt: heading %v, layout %v", n.meta.Own("heading"), n.meta.Own("layout"))
	}
	if err := n.meta.Writable("layout", true, true); err == nil {
		t.Fatal("the author's layout was writable")
	}
	if err := n.meta.Writable("heading", true, true); err != nil {
		t.Fatalf("generation's heading: %v", err)
	}
	if _, err := NonEmpty("heading", "  "); err == nil {
		t.Fatal("a blank value was accepted")
	}
}

func TestWholeNodeBindingSavesNothing(t *testing.T) {
	n := &node{heading: yamlsrc.Todo[string](""), layout: yamlsrc.Todo[string]("")}
	n.meta.PendingWhole("a board about water")
	n.meta.Bind("heading", &n.heading, "Water")
	saved := *n
	saved.meta.Unbind(saved.field)
	if saved.heading.Pending || saved.heading.Set {
		t.Fatalf("pending only because the whole node was, yet saved as %+v", saved.heading)
	}
	if hint, whole := n.meta.Whole(); !whole || hint != "a board about water" {
		t.Fatalf("Whole = %q, %v", hint, whole)
	}
	if y, _ := n.meta.Encode(struct{}{}, true); y.Tag != yamlsrc.PendingTag || y.Value != "a board about water" {
		t.Fatalf("Encode untouched = %s %q", y.Tag, y.Value)
	}
}
