package main

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/price"
)

// planCost is what plan --cost --json prints, in part.
type planCost struct {
	Estimate struct {
		Levels []struct {
			Level      string  `json:"level"`
			Subagents  int     `json:"subagents"`
			Requests   float64 `json:"requests"`
			Prompt     int64   `json:"prompt_tokens"`
			Completion int64   `json:"completion_tokens"`
		} `json:"levels"`
		Total struct {
			Requests   float64 `json:"requests"`
			Prompt     int64   `json:"prompt_tokens"`
			Completion int64   `json:"completion_tokens"`
		} `json:"total"`
	} `json:"estimate"`
	Cost *struct {
		USD float64 `json:"usd"`
	} `json:"cost"`
}

// within reports whether est is within frac of measured.
func within(est, measured, frac float64) bool {
	return measured > 0 && math.Abs(est-measured) <= frac*measured
}

// fractionsDir is a capable model's run (see its README.md): the
// lesson, its sources and a summary of each request it sent.
const fractionsDir = "testdata/recordings/fractions"

// plan --cost is within 20% of what a run sends, in requests and prompt
// tokens: on the bundled example (a scripted model; what its replay
// measures) and on a capable model's run with --sources and
// --review-images (what its answers reported); and the run's summary
// prices what it measured.
func TestPlanCostWithinTwentyPercent(t *testing.T) {
	repo, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	cleanEnv(t)
	t.Run("example", func(t *testing.T) {
		examplePrices(t)
		inExampleTree(t, repo)
		plan := planCostOf(t, exampleDir+"/lesson.yaml")
		code, stdout, stderr := runLessongen(t, "generate", exampleDir+"/lesson.yaml", "--replay", exampleRecording, "-o", "out/lesson.yaml", "--json")
		if code != 0 {
			t.Fatalf("replay: exit %d\n%s", code, stderr)
		}
		var sum struct {
			Requests int `json:"model_requests"`
			Tokens   struct{ Prompt, Completion int64 }
			Cost     struct {
				USD *float64 `json:"usd"`
			}
		}
		if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		checkWithin(t, plan, float64(sum.Requests), sum.Tokens.Prompt)
		// examplePrices: $0.40 in, $1.60 out per 1M tokens.
		want := (float64(sum.Tokens.Prompt)*0.40 + float64(sum.Tokens.Completion)*1.60) / 1e6
		if sum.Cost.USD == nil || math.Abs(*sum.Cost.USD-want) > 1e-9 {
			t.Errorf("the run's cost %v; want $%.6f", sum.Cost.USD, want)
		}
		tot := plan.Estimate.Total
		if want := (float64(tot.Prompt)*0.40 + float64(tot.Completion)*1.60) / 1e6; plan.Cost == nil || math.Abs(plan.Cost.USD-want) > 1e-9 {
			t.Errorf("plan's cost %+v; want $%.6f for its tokens", plan.Cost, want)
		}
	})
	t.Run("fractions", func(t *testing.T) {
		t.Chdir(repo)
		plan := planCostOf(t, fractionsDir+"/lesson.yaml", "--sources", fractionsDir+"/sources", "--review-images")
		// The recorded run predates two changes of #41: a quiz's node
		// subagent now gets a review turn with its picture (the estimate
		// counts it; the run sent none), and the lesson node no longer
		// adds an activity its hint does not ask for (the run did; the
		// estimate never counted one). Until the run is recorded again
		// (its README says how), those levels are left out on both sides,
		// and the quiz's review turns are checked apart.
		changed := func(level string) bool { return level == "quiz.node" || strings.HasPrefix(level, "activity.") }
		requests, prompt, quizRequests := 0, int64(0), 0
		for _, r := range readSummary(t, fractionsDir+"/requests.jsonl") {
			if r.Level == "quiz.node" {
				quizRequests++
			}
			if changed(r.Level) {
				continue
			}
			requests++
			prompt += r.Prompt
		}
		kept := plan
		kept.Estimate.Total.Requests, kept.Estimate.Total.Prompt = 0, 0
		for _, l := range plan.Estimate.Levels {
			if l.Level == "quiz.node" && l.Requests != float64(quizRequests+l.Subagents) {
				t.Errorf("quiz.node: estimated %v requests; want the run's %d and a review turn for each of %d quizzes", l.Requests, quizRequests, l.Subagents)
			}
			if !changed(l.Level) {
				kept.Estimate.Total.Requests += l.Requests
				kept.Estimate.Total.Prompt += l.Prompt
			}
		}
		checkWithin(t, kept, float64(requests), prompt)
	})
}

// planCostOf is plan --cost --json on file with args.
func planCostOf(t *testing.T, file string, args ...string) planCost {
	t.Helper()
	code, stdout, stderr := runLessongen(t, append([]string{"plan", "--cost", "--json", file}, args...)...)
	if code != 0 {
		t.Fatalf("plan --cost: exit %d\n%s", code, stderr)
	}
	var plan planCost
	if err := json.Unmarshal([]byte(stdout), &plan); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	return plan
}

func checkWithin(t *testing.T, plan planCost, requests float64, prompt int64) {
	t.Helper()
	tot := plan.Estimate.Total
	if !within(tot.Requests, requests, 0.2) || !within(float64(tot.Prompt), float64(prompt), 0.2) {
		t.Errorf("estimated %v requests, %d prompt tokens; the run sent %v, %d", tot.Requests, tot.Prompt, requests, prompt)
	}
	t.Logf("estimated %v requests, %d prompt tokens; the run sent %v, %d (%.2f, %.2f)", tot.Requests, tot.Prompt, requests, prompt,
		tot.Requests/requests, float64(tot.Prompt)/float64(prompt))
}

// readSummary reads a run's summed-up requests (one JSON object a line,
// TestCostRequestSummary in orchestrate writes them).
func readSummary(t *testing.T, path string) []struct {
	Level  string `json:"level"`
	Prompt int64  `json:"prompt_tokens"`
} {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []struct {
		Level  string `json:"level"`
		Prompt int64  `json:"prompt_tokens"`
	}
	for line := range strings.Lines(string(data)) {
		var r struct {
			Level  string `json:"level"`
			Prompt int64  `json:"prompt_tokens"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, r)
	}
	return out
}

// --max-cost stops the run before the request whose worst case could
// pass it: exit 3, what was done saved, the money spent under the cap.
func TestMaxCostStopsTheRunBeforePassingIt(t *testing.T) {
	repo, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	cleanEnv(t)
	examplePrices(t)
	inExampleTree(t, repo)
	const limit = 0.035 // the whole run costs $0.02; a request's worst case about $0.028
	code, stdout, stderr := runLessongen(t, "generate", exampleDir+"/lesson.yaml", "--replay", exampleRecording, "-o", "out/lesson.yaml",
		"--max-cost", "0.035", "--concurrency", "1", "--json")
	if code != 3 || !strings.Contains(stderr, "--max-cost $0.0350") {
		t.Fatalf("exit %d, want 3 naming the cap\n%s", code, stderr)
	}
	var sum struct {
		Status   string
		Requests int `json:"model_requests"`
		Cost     struct{ USD *float64 }
	}
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Status != "partial" || sum.Cost.USD == nil || *sum.Cost.USD > limit || sum.Requests == 0 || sum.Requests >= 11 {
		t.Errorf("summary: %s after %d requests, cost %v; want partial, under $%v, some of the 11 requests", sum.Status, sum.Requests, sum.Cost.USD, limit)
	}
	saved, err := os.ReadFile("out/lesson.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, authored := range []string{"Hold up a leaf.", "Where does a tree's mass come from?", "Walk through reactants and products"} {
		if !strings.Contains(string(saved), authored) {
			t.Errorf("the saved lesson lost %q", authored)
		}
	}
}

// examplePrices prices the default model, which the example's recording
// was made with, at a fixed $0.40 in and $1.60 out per 1M tokens through
// the config's prices, so these figures do not move with the table.
func examplePrices(t *testing.T) {
	t.Setenv("LESSONGEN_PRICES", `[{"model": "`+price.DefaultModel+`", "input": 0.40, "cached_input": 0.10, "output": 1.60}]`)
}
