package cmd

import (
	"strings"
	"testing"
	"time"

	"github.com/lessongen/lessongen/internal/price"
	"github.com/lessongen/lessongen/llm"
)

// The model table shapes the client: what a model refuses is not sent,
// tools go without reasoning where the model takes them only so, and an
// image request carries a model on OpenAI (without one the API falls back
// to the removed dall-e-2) and response_format only for DALL·E-style
// models (issue #36).
func TestModelWire(t *testing.T) {
	wire := func(s settings) llm.Config {
		c := llm.Config{Model: s.Model, ImageModel: imageModel(&s)}
		modelWire(&s, &c)
		return c
	}
	if c := wire(settings{Model: "o3", BaseURL: defaultBaseURL}); !c.NoParallelToolCalls || c.ToolsWithoutReasoning {
		t.Errorf("o3: %+v", c)
	}
	if c := wire(settings{Model: price.DefaultModel, BaseURL: defaultBaseURL}); c.NoParallelToolCalls || !c.ToolsWithoutReasoning {
		t.Errorf("%s: %+v", price.DefaultModel, c)
	}
	if c := wire(settings{Model: "llama3.1:8b", BaseURL: "http://localhost:11434/v1"}); c.NoParallelToolCalls || c.ToolsWithoutReasoning || c.ImageModel != "" || c.ImageResponseFormat {
		t.Errorf("a local model: %+v", c)
	}
	if c := wire(settings{Model: "m", BaseURL: defaultBaseURL}); c.ImageModel != price.DefaultImageModel || c.ImageResponseFormat {
		t.Errorf("OpenAI's default image model: %+v", c)
	}
	for model, format := range map[string]bool{"dall-e-3": true, "chatgpt-image-latest": false, "gpt-image-2.6-flare": false, "my-diffusion": false} {
		if c := wire(settings{Model: "m", BaseURL: "http://localhost:8000/v1", ImageModel: model}); c.ImageModel != model || c.ImageResponseFormat != format {
			t.Errorf("%s: %+v, want response_format %v", model, c, format)
		}
	}
}

// A run warns before its model (or, with --images, its image model) is
// shut down, and after.
func TestModelNotes(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	notes := modelNotes(&settings{Model: "gpt-4.1-mini", BaseURL: defaultBaseURL, Images: true, ImageModel: "chatgpt-image-latest"}, now)
	if len(notes) != 2 || !strings.Contains(notes[0], `"gpt-4.1-mini" shuts down on 2027-01-14, in 47 days`) || !strings.Contains(notes[1], `"chatgpt-image-latest" shuts down on 2026-12-01`) {
		t.Errorf("notes = %q", notes)
	}
	if notes := modelNotes(&settings{Model: price.DefaultModel, BaseURL: defaultBaseURL, Images: true}, now); len(notes) != 0 {
		t.Errorf("the defaults are going away: %q", notes)
	}
	if notes := modelNotes(&settings{Model: "gpt-6.2-sol", BaseURL: defaultBaseURL}, now); len(notes) != 1 || !strings.Contains(notes[0], "takes no tools through Chat Completions") {
		t.Errorf("a model without tools on Chat Completions: %q", notes)
	}
	added, _ := parseModels([]any{map[string]any{"model": "my-model"}})
	if notes := modelNotes(&settings{Model: "my-model", Models: added}, now); len(notes) != 0 {
		t.Errorf("a model the config adds: %q", notes)
	}
}

// The config file's models add an entry or change the named fields of
// the table's, by exact name; a bad field is named.
func TestModelsSetting(t *testing.T) {
	got, err := parseModels([]any{
		map[string]any{"model": "o3", "parallel_tool_calls": true, "shutdown_date": ""},
		map[string]any{"model": "my-gateway-model", "context": 32768, "shutdown_date": time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC), "tools_without_reasoning": true},
	})
	if err != nil {
		t.Fatal(err)
	}
	o3 := got["o3"]
	if o3.Caps.NoParallelToolCalls || o3.Shutdown != "" || o3.Price == nil || !o3.Caps.CompletionTokens {
		t.Errorf("o3 overridden: %+v (want the table's entry with parallel calls allowed, no shutdown)", o3)
	}
	if m := got["my-gateway-model"]; m.Context != 32768 || m.Shutdown != "2027-03-01" || !m.Caps.ToolsNeedNoReasoning {
		t.Errorf("added: %+v", m)
	}
	c := llm.Config{}
	modelWire(&settings{Model: "o3", Models: got}, &c)
	if c.NoParallelToolCalls {
		t.Error("the config's o3 entry did not win over the table's")
	}
	for _, bad := range []map[string]any{
		{"model": "m", "context": "big"},
		{"model": "m", "shutdown_date": "soon"},
		{"model": "m", "parallel": false},
		{"context": 1},
	} {
		if _, err := parseModels([]any{bad}); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	// From the environment, as JSON.
	if got, err := parseModels(`[{"model": "x", "max_completion_tokens": true}]`); err != nil || !got["x"].Caps.CompletionTokens {
		t.Errorf("JSON: %v, %v", got, err)
	}
}
