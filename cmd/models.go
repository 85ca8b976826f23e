package cmd

import (
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
	if img, ok := price.Info(c.ImageModel); ok {
		c.ImageResponseFormat = img.Caps.ResponseFormat
	}
	m, ok := price.Info(cfg.Model)
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
		m, ok := price.Info(name)
		if !ok {
			continue
		}
		if note := price.ShutdownNote(name, m.Shutdown, now, price.ShutdownWarnDays); note != "" {
			out = append(out, note+" (OpenAI's deprecations page)")
		}
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
