package quiz

import (
	"math"
	"slices"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/rule"
	"github.com/lessongen/lessongen/internal/yamlsrc"
)

// The question types. Their list is declared once, as the enum on
// Question.Type (Types); these names are for the code that switches on them.
const (
	TypeChoice    = "choice"
	TypeTrueFalse = "true_false"
	TypeShort     = "short"
	TypeNumeric   = "numeric"
	TypeOrder     = "order"
	TypeMatch     = "match"
)

// Types lists the question types a file and a model may use.
func Types() []string { return rule.Of[Question]("type").Enum }

// typeKeys are the keys each type has besides those every question has
// (id, type, prompt, hint, feedback, sources, generated_for); the first is
// its answer, required. A key of another type is an error, so an author who
// writes model_answer on a choice question hears of it.
var typeKeys = map[string][]string{
	TypeChoice:    {"answers", "distractors", "answer_at"},
	TypeTrueFalse: {"answer", "why"},
	TypeShort:     {"model_answer", "marks"},
	TypeNumeric:   {"answer", "tolerance", "unit"},
	TypeOrder:     {"items"},
	TypeMatch:     {"pairs"},
}

// specificKey reports whether key belongs to some types only.
func specificKey(key string) bool {
	for _, ks := range typeKeys {
		if slices.Contains(ks, key) {
			return true
		}
	}
	return false
}

// kind is the question's type, choice when none is written.
func (q Question) kind() string {
	if q.Type == "" {
		return TypeChoice
	}
	return q.Type
}

// OmitKey leaves out of the required keys, the schema's required list and
// the saved file the keys of other types (see yamlsrc.KeyOmitter).
func (q Question) OmitKey(key string) bool {
	return specificKey(key) && !slices.Contains(typeKeys[q.kind()], key)
}

// Scalar is a number or true/false as written: its text and YAML tag, kept
// so a save writes 7.20 back as 7.20. Which it must be is the question
// type's rule (validate), so a wrong one is reported where it stands.
type Scalar struct {
	Raw, Tag string
}

// Bool returns the value as true/false, if it is one.
func (s Scalar) Bool() (b, ok bool) {
	if s.Tag != "!!bool" {
		return false, false
	}
	n := yaml.Node{Kind: yaml.ScalarNode, Tag: s.Tag, Value: s.Raw}
	return b, n.Decode(&b) == nil
}

// Number returns the value as a finite number, if it is one.
func (s Scalar) Number() (float64, bool) {
	if s.Tag != "!!int" && s.Tag != "!!float" {
		return 0, false
	}
	var f float64
	n := yaml.Node{Kind: yaml.ScalarNode, Tag: s.Tag, Value: s.Raw}
	if n.Decode(&f) != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// BoolScalar and NumberScalar are the values a model gives, as a save
// writes them.
func BoolScalar(b bool) Scalar { return scalarOf(b) }

func NumberScalar(f float64) Scalar { return scalarOf(f) }

func scalarOf(v any) Scalar {
	n := yamlsrc.Encode(v)
	return Scalar{Raw: n.Value, Tag: n.Tag}
}

// DecodeNode keeps what is written; a list or mapping is the type's rule
// to report (validate), and none when the key is not the type's.
func (s *Scalar) DecodeNode(n *yaml.Node, _ *yamlsrc.Reporter, _ string) {
	s.Raw, s.Tag = n.Value, n.ShortTag()
}

// shown is the value as a message quotes it.
func (s Scalar) shown() string {
	switch s.Tag {
	case "!!seq":
		return "a list"
	case "!!map":
		return "a mapping"
	}
	return strconv.Quote(s.Raw)
}

func (s Scalar) EncodeNode() (*yaml.Node, bool) {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: s.Tag, Value: s.Raw}
	if s.Tag == "!!str" {
		n.Style = yaml.DoubleQuotedStyle // a quoted "7" stays text
	}
	return n, true
}

// JSONSchema: a number or a boolean, as the type asks.
func (Scalar) JSONSchema() map[string]any {
	return map[string]any{"type": []any{"number", "boolean"}}
}

// Choice is one answer or distractor of a choice question: its text alone,
// or {text, why} with the reason it is right or wrong, which only the
// answer key shows.
type Choice struct {
	Text string
	Why  yamlsrc.Field[string]
	// mapped: written as a mapping, which a save keeps even without a why.
	mapped bool
}

// choiceMap is a Choice written as a mapping.
type choiceMap struct {
	Text string                `yaml:"text"`
	Why  yamlsrc.Field[string] `yaml:"why"`
}

func (c *Choice) DecodeNode(n *yaml.Node, r *yamlsrc.Reporter, path string) {
	switch {
	case n.Kind == yaml.MappingNode:
		var m choiceMap
		yamlsrc.Decode(n, &m, r, path)
		c.Text, c.Why, c.mapped = m.Text, m.Why, true
	case n.Kind != yaml.ScalarNode:
		r.At(n, "%s must be the option's text, or {text, why}, not a list", path)
	default:
		if _, pending := yamlsrc.Pending(n); pending {
			r.At(n, "%s cannot be pending; write the option, or make the whole list pending", path)
			return
		}
		c.Text = n.Value
	}
}

func (c Choice) EncodeNode() (*yaml.Node, bool) {
	if !c.mapped && !c.Why.Set && !c.Why.Pending {
		return yamlsrc.Encode(c.Text), true
	}
	return yamlsrc.Encode(choiceMap{Text: c.Text, Why: c.Why}), true
}

// JSONSchema: the text, or {text, why}.
func (Choice) JSONSchema() map[string]any {
	text := map[string]any{"type": []any{"string", "number", "boolean"}}
	return map[string]any{"anyOf": []any{text, map[string]any{
		"type": "object", "required": []any{"text"}, "additionalProperties": false,
		"properties": map[string]any{"text": text, "why": yamlsrc.OrPending(map[string]any{"type": "string",
			"description": "why this option is right or wrong: the answer key's, never shown to students before the reveal"})},
	}}}
}

// Pair is one pair of a match question: the left item and the right one it
// goes with.
type Pair struct {
	Left  string `yaml:"left" json:"left" jsonschema:"the item in the left column"`
	Right string `yaml:"right" json:"right" jsonschema:"the item in the right column it matches"`
}

// texts lists the choices' texts.
func texts(cs []Choice) []string {
	if cs == nil {
		return nil
	}
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Text
	}
	return out
}

// RefineSchema states per type what the derived schema cannot, as a
// KeyOmitter's required keys vary: every question has a prompt; each type
// requires its answer key and has no key of another type.
func (Question) RefineSchema(s map[string]any) {
	s["required"] = []any{"prompt"}
	var rules []any
	for _, t := range Types() {
		is := map[string]any{"properties": map[string]any{"type": map[string]any{"const": t}}, "required": []any{"type"}}
		if t == TypeChoice {
			is = map[string]any{"anyOf": []any{is, map[string]any{"not": map[string]any{"required": []any{"type"}}}}}
		}
		none := map[string]any{}
		for _, k := range allTypeKeys() {
			if !slices.Contains(typeKeys[t], k) {
				none[k] = false
			}
		}
		rules = append(rules, map[string]any{"if": is, "then": map[string]any{"required": []any{typeKeys[t][0]}, "properties": none}})
	}
	s["allOf"] = rules
}

// allTypeKeys lists every type's keys once, in type order.
func allTypeKeys() []string {
	var out []string
	for _, t := range Types() {
		for _, k := range typeKeys[t] {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}
