package main

import (
	"bufio"
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

// plan --cost on the bundled example is within 20% of what its recorded
// run measured (the usage its answers report, summed from the run's
// events per level), in requests, prompt and completion tokens, per
// level and in total; and the run's summary prices what it measured.
func TestPlanCostWithinTwentyPercentOfTheExample(t *testing.T) {
	repo, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	cleanEnv(t)
	examplePrices(t)
	inExampleTree(t, repo)
	code, stdout, stderr := runLessongen(t, "plan", "--cost", "--json", exampleDir+"/lesson.yaml")
	if code != 0 {
		t.Fatalf("plan --cost: exit %d\n%s", code, stderr)
	}
	var plan planCost
	if err := json.Unmarshal([]byte(stdout), &plan); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	code, stdout, stderr = runLessongen(t, "generate", exampleDir+"/lesson.yaml", "--replay", exampleRecording, "-o", "out/lesson.yaml", "--events", "events.jsonl", "--json")
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
	measured := usageByLevel(t, "events.jsonl")
	for _, l := range plan.Estimate.Levels {
		m := measured[l.Level]
		if !within(l.Requests, m[0], 0.2) || !within(float64(l.Prompt), m[1], 0.2) || !within(float64(l.Completion), m[2], 0.2) {
			t.Errorf("%s: estimated %v requests, %d prompt, %d completion tokens; measured %v", l.Level, l.Requests, l.Prompt, l.Completion, m)
		}
		delete(measured, l.Level)
	}
	if len(measured) > 0 {
		t.Errorf("levels the run spent on and the estimate left out: %v", measured)
	}
	tot := plan.Estimate.Total
	if !within(tot.Requests, float64(sum.Requests), 0.2) || !within(float64(tot.Prompt+tot.Completion), float64(sum.Tokens.Prompt+sum.Tokens.Completion), 0.2) {
		t.Errorf("estimated %+v; the run measured %d requests, %+v tokens", tot, sum.Requests, sum.Tokens)
	}
	t.Logf("estimated %d prompt + %d completion tokens; measured %d + %d", tot.Prompt, tot.Completion, sum.Tokens.Prompt, sum.Tokens.Completion)
	// The fixed price exampleprices sets: $0.40 in, $1.60 out per 1M tokens.
	want := (float64(sum.Tokens.Prompt)*0.40 + float64(sum.Tokens.Completion)*1.60) / 1e6
	if sum.Cost.USD == nil || math.Abs(*sum.Cost.USD-want) > 1e-9 || plan.Cost == nil || !within(plan.Cost.USD, want, 0.2) {
		t.Errorf("the run's cost %v, plan's %+v; want $%.6f", sum.Cost.USD, plan.Cost, want)
	}
}

// usageByLevel sums an event log's usage per level: requests, prompt
// and completion tokens.
func usageByLevel(t *testing.T, path string) map[string][3]float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][3]float64{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var ev struct {
			Kind, Level string
			Tokens      struct{ Prompt, Completion int64 }
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Kind == "usage" {
			s := out[ev.Level]
			out[ev.Level] = [3]float64{s[0] + 1, s[1] + float64(ev.Tokens.Prompt), s[2] + float64(ev.Tokens.Completion)}
		}
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
