package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/lessongen/lessongen/internal/price"
	"github.com/lessongen/lessongen/llm"
)

// modelWire fills what the model table (internal/price.Models) says the
// model takes into a client's config: a field it refuses is not sent,
// and tools go with reasoning_effort none where the model takes them
// only so. A model not in the table changes nothing: the settings decide.
func modelWire(cfg *settings, c *llm.Config) {
	if img, ok := modelInfo(cfg, c.ImageModel); ok {
		c.ImageResponseFormat = img.Caps.ResponseFormat
	}
	m, ok := modelInfo(cfg, cfg.Model)
	if !ok {
		return
	}
	if m.Caps.NoParallelToolCalls {
		c.NoParallelToolCalls = true
	}
	c.ToolsWithoutReasoning = m.Caps.ToolsNeedNoReasoning
}

// imageModel is the image model --images asks for: the setting, else
// on OpenAI's own API its current GPT image model (with no model it
// falls back to the removed dall-e-2); a local server keeps its own.
func imageModel(cfg *settings) string {
	if cfg.ImageModel != "" || !strings.HasPrefix(cfg.BaseURL, defaultBaseURL) {
		return cfg.ImageModel
	}
	return price.DefaultImageModel
}

// modelNotes are the warnings the table gives for the run's models
// before any request: one shut down or about to be.
func modelNotes(cfg *settings, now time.Time) []string {
	var out []string
	names := []string{cfg.Model}
	if cfg.Images {
		names = append(names, imageModel(cfg))
	}
	for _, name := range names {
		m, ok := modelInfo(cfg, name)
		if !ok {
			continue
		}
		from := "OpenAI's deprecations page"
		if _, own := cfg.Models[name]; own {
			from = "models in the config file"
		}
		if note := price.ShutdownNote(name, m.Shutdown, now, price.ShutdownWarnDays); note != "" {
			out = append(out, note+" ("+from+")")
		}
	}
	if m, ok := modelInfo(cfg, cfg.Model); ok && !m.Caps.Tools {
		out = append(out, fmt.Sprintf("model %q takes no tools through Chat Completions, which every subagent uses (its page sends tool calls to the Responses API); expect the server to refuse them", cfg.Model))
	}
	return out
}

// printModelNotes writes modelNotes as warnings with their fix.
func printModelNotes(w io.Writer, cfg *settings, now time.Time) {
	for _, n := range modelNotes(cfg, now) {
		fmt.Fprintf(w, "lessongen: warning: %s\nfix: %s\n", n, price.Replacement())
	}
}

// warnOnce prints each warning the client gives once, as lessongen's.
func warnOnce(w io.Writer) func(string) {
	var mu sync.Mutex
	seen := map[string]bool{}
	return func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		if seen[msg] {
			return
		}
		seen[msg] = true
		fmt.Fprintf(w, "lessongen: warning: %s\n", msg)
	}
}

// modelInfo is model's entry: the config file's (models), else the
// table's by name or alias.
func modelInfo(cfg *settings, model string) (price.Model, bool) {
	if m, ok := cfg.Models[model]; ok {
		return m, true
	}
	return price.Info(model)
}

// parseModels reads the models setting: a list of entries, each the
// table's entry of that name (if any) with the fields given changed; or
// the same list as JSON from the environment.
func parseModels(v any) (map[string]price.Model, error) {
	if v == nil {
		return nil, nil
	}
	if s, ok := v.(string); ok {
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return nil, err
		}
	}
	if t, ok := v.(map[string]price.Model); ok {
		return t, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, errSettingType
	}
	out := map[string]price.Model{}
	for _, it := range list {
		e, ok := it.(map[string]any)
		if !ok {
			return nil, errSettingType
		}
		name, _ := e["model"].(string)
		if name == "" {
			return nil, fmt.Errorf("a model entry needs model: %v", e)
		}
		m, known := price.Info(name)
		if !known {
			m.Caps.Tools = true // a model added for a run is taken to call tools
		}
		m.Aliases = nil // the entry is its own name only
		for k, val := range e {
			if err := setModelField(&m, k, val); err != nil {
				return nil, fmt.Errorf("model %q: %w", name, err)
			}
		}
		out[name] = m
	}
	return out, nil
}

// modelFields are the booleans an entry may set, by key.
var modelFields = map[string]func(*price.Model) *bool{
	"tools_without_reasoning": func(m *price.Model) *bool { return &m.Caps.ToolsNeedNoReasoning },
	"max_completion_tokens":   func(m *price.Model) *bool { return &m.Caps.CompletionTokens },
	"response_format":         func(m *price.Model) *bool { return &m.Caps.ResponseFormat },
}

func setModelField(m *price.Model, key string, val any) error {
	switch key {
	case "model":
		return nil
	case "context":
		n, err := parseInt(val)
		if err != nil || n < 0 {
			return fmt.Errorf("context must be a whole number of tokens, got %v", val)
		}
		m.Context = int(n)
		return nil
	case "shutdown_date":
		var day string
		switch d := val.(type) {
		case time.Time: // YAML reads an unquoted date as a timestamp
			day = d.Format(time.DateOnly)
		case string:
			day = d
		case nil:
		default:
			return fmt.Errorf("shutdown_date must be YYYY-MM-DD (or \"\" for none), got %v", val)
		}
		if _, err := time.Parse(time.DateOnly, day); day != "" && err != nil {
			return fmt.Errorf("shutdown_date must be YYYY-MM-DD (or \"\" for none), got %v", val)
		}
		m.Shutdown = day
		return nil
	case "parallel_tool_calls":
		b, ok := val.(bool)
		if !ok {
			return fmt.Errorf("parallel_tool_calls must be true or false, got %v", val)
		}
		m.Caps.NoParallelToolCalls = !b
		return nil
	}
	field, known := modelFields[key]
	if !known {
		return fmt.Errorf("unknown field %q (want model, context, shutdown_date, parallel_tool_calls, tools_without_reasoning, max_completion_tokens, response_format)", key)
	}
	b, ok := val.(bool)
	if !ok {
		return fmt.Errorf("%s must be true or false, got %v", key, val)
	}
	*field(m) = b
	return nil
}

// modelsSchema is the models setting's JSON Schema.
func modelsSchema() map[string]any {
	flag := map[string]any{"type": "boolean"}
	return map[string]any{"type": "array", "items": map[string]any{
		"type": "object",
		"properties": map[string]any{
			"model":                   map[string]any{"type": "string"},
			"context":                 map[string]any{"type": "integer", "minimum": 0},
			"shutdown_date":           map[string]any{"type": "string", "pattern": `^(\d{4}-\d{2}-\d{2})?$`},
			"parallel_tool_calls":     flag,
			"tools_without_reasoning": flag,
			"max_completion_tokens":   flag,
			"response_format":         flag,
		},
		"required":             []any{"model"},
		"additionalProperties": false,
	}}
}
