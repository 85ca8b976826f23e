package yamlsrc

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// Conflict is a spot that both sides of a three-way merge changed, each
// differently.
type Conflict struct {
	// Path names the spot: metadata.objectives, slides[light].notes.
	Path string
	// Line is its line in theirs (0 when theirs deleted it).
	Line int
}

func (c Conflict) String() string {
	if c.Path == "" {
		return "the whole file"
	}
	return c.Path
}

// Merge3 merges two versions of one YAML tree that both started from base:
// ours (what this run made of it) and theirs (what is on disk now, e.g. the
// author's edit). A spot only one side changed takes that side's value; a
// spot both changed the same way is kept; a spot both changed differently
// is a Conflict, and the merged tree is then not to be used.
//
// Mappings merge key by key. Lists merge item by item when every item is
// identified — a mapping with an id, or a pending placeholder by its hint;
// theirs gives the order, and items ours added go after the item they
// follow in ours. Other lists (plain strings) are one value. A placeholder
// both sides removed is a conflict: both filled it.
//
// Nodes of the result are shared with the inputs; none is changed.
func Merge3(base, ours, theirs *yaml.Node) (*yaml.Node, []Conflict) {
	m := &merger{}
	out := m.merge("", deref(base), deref(ours), deref(theirs), deref(theirs))
	return out, m.conflicts
}

type merger struct {
	conflicts []Conflict
}

// merge merges one spot; a nil node is an absent one. at is where the spot
// is in theirs (its key, for a mapping value), for the conflict's line.
func (m *merger) merge(path string, b, o, t, at *yaml.Node) *yaml.Node {
	switch {
	case Equal(o, b):
		return t
	case Equal(t, b):
		return o
	case Equal(o, t):
		return t
	}
	b, o, t = deref(b), deref(o), deref(t)
	if b != nil && o != nil && t != nil && b.Kind == o.Kind && o.Kind == t.Kind && !isPending(b) && !isPending(o) && !isPending(t) {
		switch b.Kind {
		case yaml.MappingNode:
			if !dupKeys(b) && !dupKeys(o) && !dupKeys(t) {
				return m.mapping(path, b, o, t)
			}
		case yaml.SequenceNode:
			if out, ok := m.sequence(path, b, o, t); ok {
				return out
			}
		}
	}
	line := 0
	if at != nil {
		line = at.Line
	}
	m.conflicts = append(m.conflicts, Conflict{Path: path, Line: line})
	return t
}

func isPending(n *yaml.Node) bool {
	_, ok := Pending(n)
	return ok
}

func (m *merger) mapping(path string, b, o, t *yaml.Node) *yaml.Node {
	bv, ov := pairs(b), pairs(o)
	out := shallow(t)
	seen := map[string]bool{}
	for i := 0; i+1 < len(t.Content); i += 2 {
		k := t.Content[i].Value
		seen[k] = true
		if v := m.merge(keyPath(path, k), bv[k], ov[k], t.Content[i+1], t.Content[i]); v != nil {
			out.Content = append(out.Content, t.Content[i], v)
		}
	}
	for i := 0; i+1 < len(o.Content); i += 2 {
		k := o.Content[i].Value
		if seen[k] {
			continue
		}
		v := m.merge(keyPath(path, k), bv[k], o.Content[i+1], nil, t)
		if v == nil {
			continue
		}
		// After the key that precedes it in ours, else at the end.
		at := len(out.Content)
		for j := i - 2; j >= 0; j -= 2 {
			if p := keyIndex(out, o.Content[j].Value); p >= 0 {
				at = p + 2
				break
			}
		}
		out.Content = insert(out.Content, at, o.Content[i], v)
	}
	return out
}

func (m *merger) sequence(path string, b, o, t *yaml.Node) (*yaml.Node, bool) {
	bk, ok1 := itemKeys(b)
	ok, ok2 := itemKeys(o)
	tk, ok3 := itemKeys(t)
	// Mappings without an id are keyed by their order among such items
	// (see itemKeys), which names the same items only when no side added
	// or removed one.
	if n := len(keyless(b.Content)); !ok1 || !ok2 || !ok3 || n != len(keyless(o.Content)) || n != len(keyless(t.Content)) {
		return nil, false
	}
	bi, oi, ti := index(bk), index(ok), index(tk)
	// slots is the result in theirs' order; an item the merge dropped stays
	// as a tombstone (nil node) so what ours put in its place can go there.
	var slots []slot
	for j, k := range tk {
		var bn, on *yaml.Node
		if i, ok := bi[k]; ok {
			bn = b.Content[i]
		}
		if i, ok := oi[k]; ok {
			on = o.Content[i]
		}
		slots = append(slots, slot{k, m.merge(itemPath(path, t.Content[j]), bn, on, t.Content[j], t.Content[j])})
	}
	for i, k := range ok {
		if _, ok := ti[k]; ok {
			continue
		}
		var bn *yaml.Node
		if j, ok := bi[k]; ok {
			bn = b.Content[j]
		}
		if v := m.merge(itemPath(path, o.Content[i]), bn, o.Content[i], nil, t); v != nil {
			slots = insert(slots, placeAdded(slots, ok, i, bi), slot{k, v})
		}
	}
	out := shallow(t)
	for _, s := range slots {
		if s.node != nil {
			out.Content = append(out.Content, s.node)
		}
	}
	// A placeholder both removed was filled by both: the author's items and
	// the run's would both be there.
	for i, k := range bk {
		_, inO := oi[k]
		_, inT := ti[k]
		if isPending(b.Content[i]) && !inO && !inT {
			m.conflicts = append(m.conflicts, Conflict{Path: itemPath(path, b.Content[i]), Line: t.Line})
		}
	}
	return out, true
}

// slot is one item of a merged list; a nil node is an item the merge
// dropped, kept as a tombstone.
type slot struct {
	key  string
	node *yaml.Node
}

// placeAdded returns where item i of ours, which only ours has, goes in
// slots. Ours added it between two items it shares with base; if ours
// dropped a base item in that gap (a placeholder it filled), it goes where
// that item is in theirs, else after the item before it in ours.
func placeAdded(slots []slot, ours []string, i int, inBase map[string]int) int {
	lo, hi := -1, len(inBase)
	for j := i - 1; j >= 0; j-- {
		if x, ok := inBase[ours[j]]; ok {
			lo = x
			break
		}
	}
	for j := i + 1; j < len(ours); j++ {
		if x, ok := inBase[ours[j]]; ok {
			hi = x
			break
		}
	}
	for si, s := range slots {
		if x, ok := inBase[s.key]; ok && s.node == nil && x > lo && x < hi {
			return si
		}
	}
	for j := i - 1; j >= 0; j-- {
		for si, s := range slots {
			if s.key == ours[j] {
				return si + 1
			}
		}
	}
	return 0
}

// itemKeys identifies every item of a list by id or pending hint, and a
// mapping without an id by its place among those (the author's slide
// whose id is derived); ok is false when an item has none or two share
// one.
func itemKeys(n *yaml.Node) ([]string, bool) {
	keys := make([]string, len(n.Content))
	seen := map[string]bool{}
	nth := 0
	for i, item := range n.Content {
		k := itemKey(item)
		if k == "" && deref(item).Kind == yaml.MappingNode {
			nth++
			k = fmt.Sprintf("keyless\x00%d", nth)
		}
		if k == "" || seen[k] || deref(item).Kind == yaml.ScalarNode && !isPending(item) {
			return nil, false
		}
		seen[k] = true
		keys[i] = k
	}
	return keys, true
}

func index(keys []string) map[string]int {
	m := make(map[string]int, len(keys))
	for i, k := range keys {
		m[k] = i
	}
	return m
}

// dupKeys reports whether mapping n has a key twice (the loader refuses
// that; a merge cannot tell which one is meant).
func dupKeys(n *yaml.Node) bool {
	seen := make(map[string]bool, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if seen[n.Content[i].Value] {
			return true
		}
		seen[n.Content[i].Value] = true
	}
	return false
}

func pairs(n *yaml.Node) map[string]*yaml.Node {
	m := make(map[string]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		m[n.Content[i].Value] = n.Content[i+1]
	}
	return m
}

func keyIndex(n *yaml.Node, key string) int {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return i
		}
	}
	return -1
}

// shallow copies a collection node without its items.
func shallow(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = nil
	return &c
}

func insert[T any](s []T, at int, v ...T) []T {
	out := make([]T, 0, len(s)+len(v))
	out = append(out, s[:at]...)
	out = append(out, v...)
	return append(out, s[at:]...)
}

func keyPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func itemPath(path string, item *yaml.Node) string {
	item = deref(item)
	if hint, ok := Pending(item); ok {
		return fmt.Sprintf("%s[pending %q]", path, hint)
	}
	for i := 0; i+1 < len(item.Content); i += 2 {
		if item.Content[i].Value == "id" {
			return fmt.Sprintf("%s[%s]", path, item.Content[i+1].Value)
		}
	}
	return path
}
