package cmd

import (
	"fmt"
	"strings"

	"github.com/lessongen/lessongen/modality"
)

// joinKinds names kinds for help text, from the registry: "whiteboard,
// quiz or activity" (with join "or").
func joinKinds(kinds []*modality.Descriptor, join string) string {
	var names []string
	for _, k := range kinds {
		names = append(names, k.Name)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + join + " " + names[len(names)-1]
}

// kindTable lists kinds one a line with what each is (its Doc), indented
// as cobra prints a help text's examples.
func kindTable(kinds []*modality.Descriptor) string {
	width := 0
	for _, k := range kinds {
		width = max(width, len(k.Name))
	}
	var b strings.Builder
	for _, k := range kinds {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, k.Name, k.Doc)
	}
	return b.String()
}
