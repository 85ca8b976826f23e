package templates

import "github.com/lessongen/lessongen/modality"

// LevelsOf is every level of reg as Load needs it: its name, and the
// modality's own template (Descriptor.Prompts) when it brings one. The
// program and its tests load templates through it, so a modality with its
// own prompts works wherever templates are loaded.
func LevelsOf(reg *modality.Registry) []Level {
	var out []Level
	for _, d := range reg.All() {
		for _, l := range d.Levels() {
			out = append(out, Level{Name: l.Name, Default: d.Prompts[l.Part]})
		}
	}
	return out
}
