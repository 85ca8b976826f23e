package orchestrate

import (
	"testing"

	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/session"
)

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

// The slides a lesson node adds are counted as generation counts them
// (session.HintCount: a leading count, not a number inside the brief),
// each with a whiteboard, and with a quiz or an activity when the hint
// names one.
func TestEstimateCountsNewSlidesAsGenerationDoes(t *testing.T) {
	for hint, want := range map[string]map[string]int{
		"a practice slide with a whiteboard of 4 questions":  {"whiteboard.node": 1, "whiteboard.metadata": 1},
		"two practice slides: one on inputs, one on outputs": {"whiteboard.node": 2},
		"3 slides, each ending in a quiz":                    {"whiteboard.node": 3, "quiz.node": 3, "quiz.metadata": 3},
		"an exit slide with an activity in pairs":            {"whiteboard.node": 1, "activity.node": 1},
		"two slides with activities in pairs":                {"whiteboard.node": 2, "activity.node": 2},
	} {
		src := "version: 1\nmetadata:\n  title: Test\nslides:\n  - !pending \"" + hint + "\"\n"
		est, err := EstimateCost(loadSrc(t, src), Scope{}, options(t, nil, 1), func(llm.Request) (int, error) { return 4000, nil })
		if err != nil {
			t.Fatal(err)
		}
		if n := session.HintCount(hint); n != want["whiteboard.node"] {
			t.Fatalf("%q: generation counts %d slides, the test %d", hint, n, want["whiteboard.node"])
		}
		got := map[string]int{}
		for _, l := range est.Levels {
			got[l.Level] = l.Assumed
		}
		for level, n := range want {
			if got[level] != n {
				t.Errorf("%q: %d %s assumed, want %d (levels %+v)", hint, got[level], level, n, est.Levels)
			}
		}
		if (got["quiz.node"] > 0) != (want["quiz.node"] > 0) || (got["activity.node"] > 0) != (want["activity.node"] > 0) {
			t.Errorf("%q: assumed %v, want %v", hint, got, want)
		}
	}
}
