package orchestrate

import "testing"

func TestCountInHint(t *testing.T) {
	for hint, want := range map[string]int{
		"two practice slides: one on inputs": 2,
		"3 slides, one on each stage":        3,
		"a recap slide":                      1,
		"Twelve quick questions":             12,
		"":                                   1,
	} {
		got, said := countInHint(hint)
		if got != want || said != (hint != "a recap slide" && hint != "") {
			t.Errorf("countInHint(%q) = %d, %v; want %d", hint, got, said, want)
		}
	}
}

// Estimates add level by level, so a course can sum its lessons'.
func TestEstimateAddSumsLevels(t *testing.T) {
	a := Estimate{MaxRequests: 24}
	a.addLevel(LevelCost{Level: "lesson.node", Subagents: 1, Spend: Spend{Requests: 1, Prompt: 100, Completion: 10}})
	b := Estimate{MaxRequests: 12}
	b.addLevel(LevelCost{Level: "lesson.node", Subagents: 1, Spend: Spend{Requests: 1, Prompt: 50, Completion: 5}})
	b.addLevel(LevelCost{Level: "whiteboard.node", Subagents: 2, Assumed: 2, Spend: Spend{Requests: 2, Prompt: 400, Completion: 40}})
	sum := a.Add(b)
	if len(sum.Levels) != 2 || sum.Levels[0].Subagents != 2 || sum.Levels[0].Prompt != 150 || sum.Levels[1].Assumed != 2 {
		t.Errorf("levels = %+v", sum.Levels)
	}
	if want := (Spend{Requests: 4, Prompt: 550, Completion: 55}); sum.Total != want || sum.MaxRequests != 36 {
		t.Errorf("total = %+v, max %d; want %+v, 36", sum.Total, sum.MaxRequests, want)
	}
	if len(a.Levels) != 1 || a.Levels[0].Prompt != 100 {
		t.Errorf("Add changed its receiver: %+v", a.Levels)
	}
}
