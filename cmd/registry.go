package cmd

import (
	"github.com/lessongen/lessongen/modalities"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/templates"
)

// Registry is every modality lessongen knows, built once per run and handed
// down. The list itself is modalities.Registry, the one place that names
// them, which the tests read too.
func Registry() (*modality.Registry, error) { return modalities.Registry() }

// templateLevels is what the templates package needs to know of the
// registry: a level name, and the modality's own template if it brings one.
// The course's levels come too, so one --templates folder serves a course
// and its lessons.
func templateLevels(reg *modality.Registry) []templates.Level {
	levels := templates.LevelsOf(reg)
	if course, err := modalities.Course(); err == nil && reg.Root().Name != course.Root().Name {
		levels = append(levels, templates.LevelsOf(course)...)
	}
	return levels
}
