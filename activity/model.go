// Package activity is the Activity modality: a task pupils do on a slide,
// beside or instead of a board or a quiz — its instructions, grouping and
// minutes (its metadata level), and its model answer, success criteria,
// support and stretch (its node level). The model answer is the teacher's:
// render puts it in the notes only. It knows nothing of models or tools;
// every change is an intent reduced by Activity.
package activity

import (
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/nodemeta"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// Capabilities an activity subagent can be granted.
const (
	CapRead     session.Capability = "activity.read"
	CapMetadata session.Capability = "activity.metadata"
	CapNode     session.Capability = "activity.node"
)

// Activity is an activity's whole state.
type Activity struct {
	Src *yaml.Node `yaml:"-"`

	Instructions    yamlsrc.Field[string]      `yaml:"instructions,required" jsonschema:"what pupils are asked to do"`
	Grouping        yamlsrc.Field[string]      `yaml:"grouping" jsonschema:"who works together: individual, pairs, groups or class" enum:"individual,pairs,groups,class"`
	DurationMinutes yamlsrc.Field[int]         `yaml:"duration_minutes" jsonschema:"minutes the task takes, within the slide's" minimum:"1" maximum:"120"`
	ModelAnswer     yamlsrc.Field[string]      `yaml:"model_answer" jsonschema:"the answer the teacher reveals after the task; never shown to pupils before"`
	SuccessCriteria yamlsrc.Field[[]Criterion] `yaml:"success_criteria" jsonschema:"what a good answer does, one short line each"`
	Support         yamlsrc.Field[string]      `yaml:"support" jsonschema:"optional: help for pupils who need it"`
	Stretch         yamlsrc.Field[string]      `yaml:"stretch" jsonschema:"optional: more for pupils who finish early"`

	// Protect keeps the author's values as written (on by default).
	Protect bool `yaml:"-"`

	// meta knows which values generation set, and the hint of an
	// activity given pending as a whole.
	meta nodemeta.Meta
}

// Criterion is one success criterion: a line of text in the file, or
// `- !pending "hint"`, a placeholder where a run adds criteria.
type Criterion struct {
	yamlsrc.Placeholder
	Text string

	src *yaml.Node
}

// JSONSchema is what DecodeNode accepts; see yamlsrc.SchemaProvider.
func (Criterion) JSONSchema() map[string]any { return map[string]any{"type": "string"} }

func (c *Criterion) DecodeNode(n *yaml.Node, r *yamlsrc.Reporter, path string) {
	*c = Criterion{src: n}
	if n.Kind != yaml.ScalarNode || n.Value == "" {
		r.At(n, "%s must be one line of text saying what a good answer does", path)
		return
	}
	c.Text = n.Value
}

// EncodeNode writes the criterion as its text.
func (c Criterion) EncodeNode() (*yaml.Node, bool) { return yamlsrc.Encode(c.Text), true }

// Groupings are the ways pupils may work, as the file and the tools name
// them (declared once, on SetGrouping).
func Groupings() []string { return groupingRule().Enum }

// Todo returns an activity pending as a whole, with the author's hint:
// every value is to be generated.
func Todo(hint string) *Activity {
	a := &Activity{
		Instructions: yamlsrc.Todo[string](hint), Grouping: yamlsrc.Todo[string](""), DurationMinutes: yamlsrc.Todo[int](""),
		ModelAnswer: yamlsrc.Todo[string](""), SuccessCriteria: yamlsrc.Todo[[]Criterion](""),
		Support: yamlsrc.Todo[string](""), Stretch: yamlsrc.Todo[string](""), Protect: true,
	}
	a.meta.PendingWhole(hint)
	return a
}

// Decode reads an activity from its node, reporting every problem to r.
func Decode(n *yaml.Node, r *yamlsrc.Reporter, path string) *Activity {
	a := &Activity{Protect: true}
	yamlsrc.Decode(n, a, r, path)
	a.Src = n
	yamlsrc.NumberPlaceholders(a.SuccessCriteria.Value, "success_criteria-")
	a.check(r, path)
	return a
}

// check reports values the author wrote outside the declared rules.
func (a *Activity) check(r *yamlsrc.Reporter, path string) {
	if g, ok := a.Grouping.Get(); ok && !slices.Contains(Groupings(), g) {
		r.At(yamlsrc.ValueAt(a.Src, "grouping"), "%s.grouping must be one of %s, got %q", path, words(Groupings()), g)
	}
	if d, ok := a.DurationMinutes.Get(); ok && !minutesRule().In(float64(d)) {
		r.At(yamlsrc.ValueAt(a.Src, "duration_minutes"), "%s.duration_minutes must be %s, got %d", path, minutesRule().Range(), d)
	}
	for _, f := range []struct {
		name string
		f    yamlsrc.Field[string]
	}{{"instructions", a.Instructions}, {"model_answer", a.ModelAnswer}, {"support", a.Support}, {"stretch", a.Stretch}} {
		if v, ok := f.f.Get(); ok && blank(v) {
			r.At(yamlsrc.ValueAt(a.Src, f.name), "%s.%s is empty; write it, mark it !pending, or leave the key out", path, f.name)
		}
	}
}

// Hint is the author's hint for the activity as a whole, if it had one.
func (a *Activity) Hint() string {
	hint, _ := a.meta.Whole()
	return hint
}

// criteria are the written criteria's texts, placeholders left out.
func (a *Activity) criteria() []string {
	var out []string
	for _, c := range a.SuccessCriteria.Value {
		if !c.IsPlaceholder {
			out = append(out, c.Text)
		}
	}
	return out
}

// EncodeNode writes the activity as YAML nodes. An activity that was
// pending as a whole and has not been touched stays one `!pending "hint"`.
func (a *Activity) EncodeNode() (*yaml.Node, bool) {
	return a.meta.Encode(*a, a.untouched())
}

func (a *Activity) untouched() bool {
	for _, f := range a.textFields() {
		if !f.field.Pending {
			return false
		}
	}
	return a.DurationMinutes.Pending && a.SuccessCriteria.Pending && a.Instructions.Hint == a.Hint()
}

// Minutes is the activity's duration, when written: it counts toward its
// slide's minutes (compose warns when it is longer than the slide).
func (a *Activity) Minutes() (int, bool) { return a.DurationMinutes.Get() }
