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
}
