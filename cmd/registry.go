package cmd

import (
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/quiz"
	"github.com/lessongen/lessongen/templates"
	"github.com/lessongen/lessongen/whiteboard"
)

// Registry is every modality lessongen knows, built once per run and handed
// down: the one place that names them. The lesson is the root; the others
// are the kinds of child a slide may place, in the order they are
// generated.
func Registry() (*modality.Registry, error) {
	return modality.New(lesson.Modality(), whiteboard.Modality(), quiz.Modality())
}

// templateLevels is what the templates package needs to know of the
// registry: a level name, and the modality's own template if it brings one.
func templateLevels(reg *modality.Registry) []templates.Level {
	return templates.LevelsOf(reg)
}
