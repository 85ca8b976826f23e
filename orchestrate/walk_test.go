package orchestrate

import "testing"

// A child's brief is said once in a chain: the slide's line drops it only
// when the child's own line says the very same brief.
func TestDropRepeatedBrief(t *testing.T) {
	slide := `Slide "s2" (3) of 8. Brief for this slide's whiteboard: board 2. Brief for this slide's quiz: two questions. Next slide: "Slide 3".`
	for _, c := range []struct{ kind, child, want string }{
		{"whiteboard", "A 1280x720 whiteboard.\nBrief for this whiteboard: board 2.",
			`Slide "s2" (3) of 8. Brief for this slide's quiz: two questions. Next slide: "Slide 3".`},
		{"quiz", "A quiz.\nBrief for this quiz: two questions.\n- q1",
			`Slide "s2" (3) of 8. Brief for this slide's whiteboard: board 2. Next slide: "Slide 3".`},
		{"quiz", "A quiz.\nBrief for this quiz: two questions; one more.", slide},
		{"whiteboard", "A 1280x720 whiteboard.", slide},
	} {
		if got := dropRepeatedBrief(slide, c.kind, c.child); got != c.want {
			t.Errorf("%s %q:\n got %s\nwant %s", c.kind, c.child, got, c.want)
		}
	}
}
