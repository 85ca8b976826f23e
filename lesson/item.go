package lesson

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/internal/yamlsrc"
)

// Item is one entry of a plain list (objectives, key learning points,
// materials). In the file it is a bare string, or {text, sources} when it
// cites the author's sources; a bare string stays byte for byte. A tool
// call may give either shape too. `- !pending "hint"` in the list is a
// placeholder where a run adds items.
type Item struct {
	yamlsrc.Placeholder
	Text    string
	Sources []string

	src *yaml.Node
}

// itemShapes names the two ways to write an item, for errors.
const itemShapes = "text (- Describe what plants need) or text with its citations ({text: Describe what plants need, sources: [ch1.md:4]})"

// JSONSchema is what DecodeNode accepts; see yamlsrc.SchemaProvider.
func (Item) JSONSchema() map[string]any {
	return map[string]any{"anyOf": []any{
		map[string]any{"type": "string"},
		map[string]any{"type": "object", "additionalProperties": false,
			"required": []any{"text"},
			"properties": map[string]any{
				"text":    map[string]any{"type": "string"},
				"sources": citationsSchema(),
			}},
	}}
}

// ToolSchema is the shape a tool call may give: either form, as in the
// file (see bridge's ownSchemas); UnmarshalJSON reads both.
func (Item) ToolSchema() map[string]any {
	return map[string]any{"anyOf": []any{
		map[string]any{"type": "string", "description": "the item itself, when not written from a source"},
		map[string]any{"type": "object", "additionalProperties": false,
			"required": []any{"text"},
			"properties": map[string]any{
				"text":    map[string]any{"type": "string", "description": "the item itself"},
				"sources": map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "where it comes from in the author's sources: path:line or path:start-end, as read_source numbers lines"},
			}},
	}}
}

func citationsSchema() map[string]any {
	return map[string]any{"type": "array", "items": map[string]any{"type": "string", "description": "path:line or path:start-end"}}
}

func (it *Item) DecodeNode(n *yaml.Node, r *yamlsrc.Reporter, path string) {
	*it = Item{src: n}
	switch n.Kind {
	case yaml.ScalarNode:
		it.Text = n.Value
		return
	case yaml.MappingNode:
	default:
		r.At(n, "%s must be %s", path, itemShapes)
		return
	}
	if text, colon, ok := colonItem(n); ok {
		r.At(colon, "this item has a colon followed by a space: YAML reads %q as a key; quote the item: - %s", n.Content[0].Value, strconv.Quote(text))
		return
	}
	seen, _ := yamlsrc.Entries(n, r, path, func(k, v *yaml.Node) {
		switch k.Value {
		case "text":
			if v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) == "" || v.Tag == yamlsrc.PendingTag {
				r.At(v, "%s.text must be the item itself", path)
				return
			}
			it.Text = v.Value
		case "sources":
			it.Sources = sources.DecodeList(v, r, path+".sources")
		default:
			r.At(k, "unknown key %q in %s; write %s", k.Value, path, itemShapes)
		}
	})
	if seen["text"] == nil {
		r.At(n, "%s is missing the required key \"text\"; write %s", path, itemShapes)
	}
}

// colonItem reads a one-entry mapping written as a plain item
// (- Add fractions: same denominator) as the item its author meant: its
// text, and where YAML saw the key end (the colon).
func colonItem(n *yaml.Node) (text string, colon *yaml.Node, ok bool) {
	if len(n.Content) != 2 || n.Style&yaml.FlowStyle != 0 {
		return "", nil, false
	}
	k, v := n.Content[0], n.Content[1]
	if k.Kind != yaml.ScalarNode || k.Style != 0 || k.Value == "text" || k.Value == "sources" || strings.Contains(k.Value, "\n") ||
		v.Kind != yaml.ScalarNode || v.Style != 0 || v.Tag == yamlsrc.PendingTag || v.Line != k.Line {
		return "", nil, false
	}
	text = k.Value + ":"
	if v.Value != "" {
		text += " " + v.Value
	}
	return text, &yaml.Node{Line: k.Line, Column: k.Column + utf8.RuneCountInString(k.Value)}, true
}

// EncodeNode writes a bare string unless the item cites sources.
func (it Item) EncodeNode() (*yaml.Node, bool) {
	if len(it.Sources) == 0 && (it.src == nil || it.src.Kind == yaml.ScalarNode) {
		return yamlsrc.Encode(it.Text), true
	}
	n := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "text"}, yamlsrc.Encode(it.Text),
	}}
	sources.AppendList(n, it.Sources)
	return n, true
}

// UnmarshalJSON takes a bare string or {text, sources}.
func (it *Item) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err == nil {
		*it = Item{Text: s}
		return nil
	}
	var m struct {
		Text    string   `json:"text"`
		Sources []string `json:"sources"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("an item is text or {text, sources}: %w", err)
	}
	*it = Item{Text: m.Text, Sources: m.Sources}
	return nil
}

// MarshalJSON writes a bare string unless the item cites sources, so a
// tool call or result without citations reads as it always has.
func (it Item) MarshalJSON() ([]byte, error) {
	if len(it.Sources) == 0 {
		return json.Marshal(it.Text)
	}
	return json.Marshal(struct {
		Text    string   `json:"text"`
		Sources []string `json:"sources"`
	}{it.Text, it.Sources})
}

// Texts lists the items' texts, placeholders left out.
func Texts(items []Item) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		if !it.IsPlaceholder {
			out = append(out, it.Text)
		}
	}
	return out
}

// Items wraps bare texts as items.
func Items(texts ...string) []Item {
	out := make([]Item, len(texts))
	for i, t := range texts {
		out[i] = Item{Text: t}
	}
	return out
}
