package orchestrate

import "testing"

// TestMetadataPrefixOnFilledSlides: once a slide's whiteboard and quiz
// are filled, the quiz and activity metadata subagents of two slides
// still share ≥ 90% of their first requests (what one cached prefix
// serves): their chains say what the siblings are, not every item.
func TestMetadataPrefixOnFilledSlides(t *testing.T) {
	first := firstPrompts(t)
	for _, l := range []struct{ child, level string }{{"quiz", "quiz.metadata"}, {"activity", "activity.metadata"}} {
		a, c := first["slides/s1/"+l.child+" "+l.level], first["slides/s2/"+l.child+" "+l.level]
		if a == "" || c == "" {
			t.Fatalf("%s: no request from slides s1 and s2", l.level)
		}
		if share := float64(commonPrefix(a, c)) / float64(len(a)); share < 0.9 {
			t.Errorf("%s: the subagents of two slides share %.3f of the request, want ≥ 0.90", l.level, share)
		}
	}
}
