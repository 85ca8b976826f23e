package lesson

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/suggest"
	"github.com/lessongen/lessongen/internal/yamlsrc"
)

// ChildRef is how a slide places one child of a registered kind (the key
// it is written under: whiteboard, quiz, ...): inline, in its own file, or
// pending with a hint.
type ChildRef struct {
	Kind    string
	Inline  *yaml.Node
	File    string
	Pending bool
	Hint    string
	// key and raw are the nodes as written; FileNode is the {file: …}
	// value, for error positions.
	key, raw *yaml.Node
	FileNode *yaml.Node
}

// Children are a slide's children in the order written, at most one per
// kind. The codec hands it every key a slide's own fields do not name; the
// plan then keeps the registered kinds and reports the rest.
type Children []ChildRef

// DecodeKey keeps a key for the plan to resolve; see yamlsrc.KeySet.
func (c *Children) DecodeKey(key, val *yaml.Node) {
	*c = append(*c, ChildRef{Kind: key.Value, key: key, raw: val})
}

// EncodeKeys writes each child under its kind; see yamlsrc.KeySet.
func (c Children) EncodeKeys() []*yaml.Node {
	var out []*yaml.Node
	for _, ref := range c {
		if n, ok := ref.node(); ok {
			out = append(out, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: ref.Kind}, n)
		}
	}
	return out
}

// Get returns the child of kind, if the slide places one.
func (c Children) Get(kind string) (ChildRef, bool) {
	for _, ref := range c {
		if ref.Kind == kind {
			return ref, true
		}
	}
	return ChildRef{}, false
}

func (ref ChildRef) node() (*yaml.Node, bool) {
	switch {
	case ref.Pending:
		return yamlsrc.PendingNode(ref.Hint), true
	case ref.File != "":
		return &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
			{Kind: yaml.ScalarNode, Tag: "!!str", Value: "file"},
			{Kind: yaml.ScalarNode, Tag: "!!str", Value: ref.File},
		}}, true
	case ref.Inline != nil:
		return ref.Inline, true
	}
	return nil, false
}

// resolve reads what a child key holds: inline, {file: path} or pending.
func (ref *ChildRef) resolve(r *yamlsrc.Reporter, path string) bool {
	n := ref.raw
	if hint, ok := yamlsrc.Pending(n); ok {
		ref.Pending, ref.Hint = true, hint
		return true
	}
	if n.Kind != yaml.MappingNode {
		r.At(n, "%s must be a %s mapping, {file: path}, or !pending \"hint\"", path, ref.Kind)
		return false
	}
	if len(n.Content) == 2 && n.Content[0].Value == "file" {
		v := n.Content[1]
		if v.Kind != yaml.ScalarNode || v.Value == "" {
			r.At(v, "%s.file must be a path relative to the lesson file", path)
			return false
		}
		if !filepath.IsLocal(v.Value) { // not absolute, not escaping with ..
			r.At(v, "%s.file %q must stay inside the lesson's folder (a relative path without ..)", path, v.Value)
			return false
		}
		ref.File, ref.FileNode = v.Value, v
		return true
	}
	ref.Inline = n
	return true
}

// resolveChildren keeps the keys of a slide that name a registered kind,
// reading each, and reports every other key as unknown.
func (p *Plan) resolveChildren(s *Slide, r *yamlsrc.Reporter, path string) {
	var kept Children
	for _, ref := range s.Children {
		if !slices.Contains(p.kinds, ref.Kind) {
			allowed := append(yamlsrc.Keys(Slide{}), p.kinds...)
			hint := "; allowed keys: " + strings.Join(allowed, ", ")
			if best := suggest.Nearest(ref.Kind, allowed, 2); best != "" {
				hint = fmt.Sprintf("; did you mean %q?", best)
			}
			r.At(ref.key, "unknown key %q in %s%s", ref.Kind, path, hint)
			continue
		}
		if ref.resolve(r, path+"."+ref.Kind) {
			kept = append(kept, ref)
		}
	}
	s.Children = kept
}
