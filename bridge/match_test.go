package bridge

import "testing"

// A star in a Fills pattern stands for one index or key, and a pattern may
// hold more than one (a slide's callout placeholder).
func TestMatchPath(t *testing.T) {
	for _, tc := range []struct {
		pattern, path string
		want          bool
	}{
		{"metadata.vocabulary[*].definition", "metadata.vocabulary[stoma].definition", true},
		{"metadata.objectives[*]", "metadata.objectives[2]", true},
		{"metadata.objectives", "metadata.objectives[2]", false},
		{"slides[*].callouts", "slides[rm-safely].callouts", true},
		{"slides[*].callouts[*]", "slides[rm-safely].callouts[1]", true},
		{"slides[*].callouts[*]", "slides[rm-safely].notes", false},
		{"slides[*].callouts", "slides[a].b[c].callouts", false},
		{"slides[*].callouts[*]", "slides[a].callouts[1].text", false},
	} {
		if got := matchPath(tc.pattern, tc.path); got != tc.want {
			t.Errorf("matchPath(%q, %q) = %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
}
