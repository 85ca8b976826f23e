package yamlsrc

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// ItemIDs gives every item of list the id it goes by: the id it was written
// with, or, for a mapping without one, an id derived by base from the item
// and n, its 1-based place among the items written without an id. A
// derived id never takes an id written anywhere in the list (explicit ids
// win) nor one derived before it: it gets the first free suffix -2, -3, ….
// Pending items get "". derived reports which ids were not written, so a
// save leaves them out.
//
// The result depends only on the list, so the same file gives the same ids
// on every load; and as what a run adds always has an id, counting only
// the items without one keeps their ids when a run inserts items before
// them (an arrow a model drew to one still finds it after the save).
func ItemIDs(list *yaml.Node, base func(item *yaml.Node, n int) string) (ids []string, derived []bool) {
	list = deref(list)
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil, nil
	}
	ids = make([]string, len(list.Content))
	derived = make([]bool, len(list.Content))
	taken := map[string]bool{}
	for i, item := range list.Content {
		if id, ok := writtenID(item); ok {
			ids[i] = id
			taken[id] = true
		}
	}
	n := 0
	for i, item := range list.Content {
		if _, pending := Pending(deref(item)); pending {
			continue
		}
		if _, ok := writtenID(item); ok {
			continue
		}
		n++
		b := base(deref(item), n)
		id := b
		for n := 2; taken[id]; n++ {
			id = fmt.Sprintf("%s-%d", b, n)
		}
		taken[id] = true
		ids[i], derived[i] = id, true
	}
	return ids, derived
}

// NameItems serves an ItemNamer: it names each item of list by
// name(ids[i], pos), pos its 1-based place among the items not pending;
// a pending item gets "" (its generic path). ids are the list's, from
// ItemIDs.
func NameItems(list *yaml.Node, ids []string, name func(id string, pos int) string) []string {
	names := make([]string, len(list.Content))
	pos := 0
	for i, item := range list.Content {
		if _, pending := Pending(item); pending {
			continue
		}
		pos++
		names[i] = name(ids[i], pos)
	}
	return names
}

// writtenID is the scalar id key of a mapping item, if it has one.
func writtenID(item *yaml.Node) (string, bool) {
	item = deref(item)
	if item.Kind != yaml.MappingNode {
		return "", false
	}
	for i := 0; i+1 < len(item.Content); i += 2 {
		if item.Content[i].Value == "id" && item.Content[i+1].Kind == yaml.ScalarNode {
			return item.Content[i+1].Value, true
		}
	}
	return "", false
}

// Scalar is the plain value of key in mapping m, or "" when it is absent,
// pending or not a scalar.
func Scalar(m *yaml.Node, key string) string {
	m = deref(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if v := deref(m.Content[i+1]); m.Content[i].Value == key && v.Kind == yaml.ScalarNode {
			if _, pending := Pending(v); pending || v.Tag == "!!null" {
				return ""
			}
			return v.Value
		}
	}
	return ""
}

// Value is the value of key in mapping m, or nil when m is nil or has no
// such key.
func Value(m *yaml.Node, key string) *yaml.Node {
	for i := 0; m != nil && i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// ValueAt is the value of key in mapping m, or m itself when it has no
// such key, so a problem reported there still has a position.
func ValueAt(m *yaml.Node, key string) *yaml.Node {
	if v := Value(m, key); v != nil {
		return v
	}
	return m
}
