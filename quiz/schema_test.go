package quiz_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/modalities"
	"github.com/lessongen/lessongen/quiz"
	"github.com/lessongen/lessongen/tool"
)

// What a model is told and what is checked come from one declaration: the
// tool schema shows the same limits the rules enforce, and a call the rules
// would refuse is refused before it reaches the quiz.
func TestToolSchemaShowsTheRulesLimits(t *testing.T) {
	c, err := bridge.NewCatalog("quiz", quiz.Intents())
	if err != nil {
		t.Fatal(err)
	}
	least, most := quiz.OptionLimits()
	tools := map[string]tool.Def{}
	for _, tool := range c.All(bridge.Compatible) {
		tools[tool.Name] = tool
	}
	for _, name := range []string{"add_question", "update_question"} {
		var schema struct {
			Properties map[string]struct {
				MinItems int `json:"minItems"`
				MaxItems int `json:"maxItems"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(tools[name].Parameters, &schema); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if o := schema.Properties["options"]; o.MinItems != least || o.MaxItems != most {
			t.Errorf("%s: options has %d..%d items in the schema, the rules say %d..%d", name, o.MinItems, o.MaxItems, least, most)
		}
	}
	if !strings.Contains(string(tools["set_kind"].Parameters), `"enum":["starter","check","exit"]`) {
		t.Errorf("set_kind schema: %s", tools["set_kind"].Parameters)
	}
	// A strict schema says the limits in words.
	for _, tool := range c.All(bridge.Strict) {
		if tool.Name == "add_question" && !strings.Contains(string(tool.Parameters), fmt.Sprintf("%d to %d items", least, most)) {
			t.Errorf("strict add_question does not state the limits: %s", tool.Parameters)
		}
	}

	var opts []string
	for i := range most + 1 {
		opts = append(opts, fmt.Sprintf(`{"text": "o%d", "correct": %v}`, i, i == 0))
	}
	_, ce := c.Parse("add_question", `{"prompt": "P", "options": [`+strings.Join(opts, ",")+`]}`)
	if ce == nil || !strings.Contains(ce.Error(), fmt.Sprint(most)) {
		t.Errorf("seven options parsed; error %v", ce)
	}
	in, ce := c.Parse("add_question", `{"prompt": "P", "options": [`+strings.Join(opts[:2], ",")+`], "pending_id": "p1"}`)
	if ce != nil {
		t.Fatal(ce)
	}
	if a, ok := in.(quiz.AddQuestion); !ok || len(a.Options) != 2 || !a.Options[0].Correct || a.PendingID != "p1" {
		t.Errorf("parsed %#v", in)
	}
}

// `lessongen schema quiz` accepts every type as written and refuses a
// question without its type's answer or with another type's key.
func TestFileSchemaKnowsEveryType(t *testing.T) {
	reg, err := modalities.Registry()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := compose.Schema(reg, "quiz")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(doc)
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	check := func(src string) error {
		var v any
		if err := yaml.Unmarshal([]byte(strings.ReplaceAll(src, "!pending", "")), &v); err != nil {
			t.Fatal(err)
		}
		return rs.Validate(v)
	}
	for _, src := range []string{everyType, pendingTypes, romansSrc} {
		if err := check(src); err != nil {
			t.Errorf("the schema refuses a valid quiz: %v\n%s", err, src)
		}
	}
	for _, src := range []string{
		"questions:\n  - {id: a, type: short, prompt: P}\n",
		"questions:\n  - {id: a, prompt: P, distractors: [x]}\n",
		"questions:\n  - {id: a, prompt: P, answers: [x], model_answer: M}\n",
		"questions:\n  - {id: a, type: essay, prompt: P}\n",
		"questions:\n  - {id: a, type: numeric, answer: 3}\n",
		"questions:\n  - {id: a, prompt: P, answers: [{text: x, because: y}]}\n",
	} {
		if check(src) == nil {
			t.Errorf("the schema accepts %q", src)
		}
	}
}
