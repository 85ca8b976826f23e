package lesson

import (
	"encoding/json"
	"net/url"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/yamlsrc"
)

// The lesson's structure and terms of reuse: its one outcome, the key
// questions it answers, its learning cycles (sections, each with its own
// outcome and minutes, which slides name in `section:`), and the licence
// and credit a reuse must honour.

// Attribution credits the work a lesson is adapted from: text, with an
// optional link. In the file it is the text alone or {text, url}; the
// shape the author wrote is the shape it keeps.
type Attribution struct {
	Text string `json:"text"`
	URL  string `json:"url,omitempty"`

	// mapping: written as {text, url}, so encoded so again.
	mapping bool
}

// attributionShapes names the two ways to write an attribution, for errors.
const attributionShapes = `text ("Adapted from The Unix Shell, Software Carpentry") or text with a link ({text: ..., url: https://...})`

// JSONSchema is what DecodeNode accepts; see yamlsrc.SchemaProvider.
func (Attribution) JSONSchema() map[string]any {
	return map[string]any{"anyOf": []any{
		map[string]any{"type": "string"},
		map[string]any{"type": "object", "additionalProperties": false,
			"required": []any{"text"},
			"properties": map[string]any{
				"text": map[string]any{"type": "string", "description": "who made the work the lesson is adapted from, and what it is"},
				"url":  map[string]any{"type": "string", "format": "uri", "description": "a link to the original work (http or https)"},
			}},
	}}
}

func (a *Attribution) DecodeNode(n *yaml.Node, r *yamlsrc.Reporter, path string) {
	*a = Attribution{}
	switch n.Kind {
	case yaml.ScalarNode:
		if strings.TrimSpace(n.Value) == "" {
			r.At(n, "%s is empty; write %s, or leave the key out", path, attributionShapes)
		}
		a.Text = n.Value
		return
	case yaml.MappingNode:
	default:
		r.At(n, "%s must be %s", path, attributionShapes)
		return
	}
	a.mapping = true
	seen, _ := yamlsrc.Entries(n, r, path, func(k, v *yaml.Node) {
		switch {
		case (k.Value == "text" || k.Value == "url") && (v.Kind != yaml.ScalarNode || v.Tag == yamlsrc.PendingTag):
			r.At(v, "%s.%s must be text (the attribution as a whole may be pending, not a part of it)", path, k.Value)
		case k.Value == "text":
			a.Text = v.Value
		case k.Value == "url":
			a.URL = v.Value
			if err := checkURL(v.Value); err != "" {
				r.At(v, "%s.url %s", path, err)
			}
		default:
			r.At(k, "unknown key %q in %s; write %s", k.Value, path, attributionShapes)
		}
	})
	if seen["text"] == nil {
		r.At(n, "%s is missing the required key \"text\"; write %s", path, attributionShapes)
	}
}

// checkURL says what is wrong with an attribution's link, "" when nothing.
func checkURL(s string) string {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "must be a web address starting with http:// or https://"
	}
	return ""
}

// EncodeNode writes the text alone unless the author wrote a mapping or
// there is a link.
func (a Attribution) EncodeNode() (*yaml.Node, bool) {
	if !a.mapping && a.URL == "" {
		return yamlsrc.Encode(a.Text), true
	}
	n := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "text"}, yamlsrc.Encode(a.Text),
	}}
	if a.URL != "" {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "url"}, yamlsrc.Encode(a.URL))
	}
	return n, true
}

// Section is one learning cycle of the lesson: its name (which slides
// give as their `section:`), its own outcome and its minutes. The outcome
// and the minutes may be pending; `- !pending "hint"` in the list is a
// placeholder where a run adds sections.
type Section struct {
	yamlsrc.Placeholder
	Src *yaml.Node `yaml:"-" json:"-"`

	Name            string                `yaml:"name" jsonschema:"the cycle's name, as slides give it in section:"`
	Outcome         yamlsrc.Field[string] `yaml:"outcome" jsonschema:"what pupils can do by the end of this cycle"`
	DurationMinutes yamlsrc.Field[int]    `yaml:"duration_minutes" jsonschema:"minutes the cycle takes; its slides' minutes add up to it" minimum:"1" maximum:"600"`

	// filled: a pending field of the author's section was filled in this
	// session, so it may be filled again.
	filled bool
}

// SectionArg is a section as a tool call gives it.
type SectionArg struct {
	Name            string `json:"name" jsonschema:"a short name for the learning cycle, e.g. Why did the Romans leave?"`
	Outcome         string `json:"outcome" jsonschema:"what pupils can do by the end of the cycle, one sentence"`
	DurationMinutes int    `json:"duration_minutes" jsonschema:"minutes the cycle takes" minimum:"1" maximum:"600"`
}

// arg is s as a tool result or a provenance hash sees it.
func (s Section) arg() SectionArg {
	return SectionArg{Name: s.Name, Outcome: s.Outcome.Value, DurationMinutes: s.DurationMinutes.Value}
}

// MarshalJSON keeps the file's bookkeeping out of tool results.
func (s Section) MarshalJSON() ([]byte, error) { return json.Marshal(s.arg()) }

// sectionNames lists the declared sections' names, placeholders left out.
func (m *Metadata) sectionNames() []string {
	var out []string
	for _, s := range m.Sections.Value {
		if !s.IsPlaceholder {
			out = append(out, s.Name)
		}
	}
	return out
}

// sectionKey compares section names as a person would: case, spacing
// and final punctuation aside.
func sectionKey(name string) string { return strings.TrimRight(sameText(name), ".?!") }

// section returns the declared section named name (see sectionKey), if
// any.
func (m *Metadata) section(name string) (int, bool) {
	for i, s := range m.Sections.Value {
		if !s.IsPlaceholder && sectionKey(s.Name) == sectionKey(name) {
			return i, true
		}
	}
	return -1, false
}
