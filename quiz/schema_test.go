package quiz_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/bridge"
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
		if tool.Name == "add_question" && !strings.Contains(string(tool.Parameters), fmt.Sprintf("between %d and %d items", least, most)) {
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
