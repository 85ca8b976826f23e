package cmd

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/price"
)

// costEnv isolates a test from the machine's settings.
func costEnv(t *testing.T) string {
	t.Helper()
	for _, k := range []string{"LESSONGEN_MODEL", "LESSONGEN_PRICES", "LESSONGEN_CONFIG", "LESSONGEN_BASE_URL", "OPENAI_BASE_URL"} {
		t.Setenv(k, "")
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	t.Chdir(dir)
	return dir
}

func planCostJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	stdout, stderr, code := run(t, append([]string{"plan", "--cost", "--json", filepath.Join(root, "examples/photosynthesis/lesson.yaml")}, args...)...)
	if code != 0 {
		t.Fatalf("plan --cost: exit %d\n%s", code, stderr)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(stdout), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// root is the repository, found before a test leaves cmd/.
var root = func() string { wd, _ := os.Getwd(); return filepath.Dir(wd) }()

// A price in the config file (a list, so model names keep their dots)
// overrides the built-in one and prices a model the table lacks; a model
// with none gets tokens only and a note saying how to add one.
func TestPlanCostPricesFromTheConfigFile(t *testing.T) {
	dir := costEnv(t)
	config := filepath.Join(dir, "lessongen.yaml")
	if err := os.WriteFile(config, []byte("prices:\n  - {model: gpt-6-luna, input: 100, output: 100}\n  - {model: llama3.1:8b, input: 0, output: 0}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LESSONGEN_CONFIG", config)
	v := planCostJSON(t)
	est := v["estimate"].(map[string]any)["total"].(map[string]any)
	tokens := est["prompt_tokens"].(float64) + est["completion_tokens"].(float64)
	if usd := v["cost"].(map[string]any)["usd"].(float64); usd != tokens*100/1e6 {
		t.Errorf("cost $%v for %v tokens at $100 per 1M", usd, tokens)
	}
	sum := 0.0
	for _, usd := range v["cost"].(map[string]any)["levels_usd"].(map[string]any) {
		sum += usd.(float64)
	}
	if total := v["cost"].(map[string]any)["usd"].(float64); math.Abs(sum-total) > 1e-9 {
		t.Errorf("the levels cost $%v, the total $%v", sum, total)
	}
	if v := planCostJSON(t, "--model", "llama3.1:8b"); v["cost"].(map[string]any)["usd"].(float64) != 0 {
		t.Errorf("a free model costs %v", v["cost"])
	}
	v = planCostJSON(t, "--model", "mystery-model")
	if v["cost"] != nil || !strings.Contains(v["note"].(string), "- {model: mystery-model, input:") {
		t.Errorf("an unpriced model: cost %v, note %q", v["cost"], v["note"])
	}
}

// A malformed price is a usage error naming the file, line and column.
func TestPricesSettingRefusesBadEntries(t *testing.T) {
	dir := costEnv(t)
	for name, body := range map[string]string{
		"unknown field": "prices:\n  - {model: m, input: 1, outptu: 2}\n",
		"no output":     "prices:\n  - {model: m, input: 1}\n",
		"negative":      "prices:\n  - {model: m, input: -1, output: 1}\n",
		"a map":         "prices:\n  m: {input: 1, output: 1}\n",
		"image, input":  "prices:\n  - {model: m, image: 0.1, input: 1}\n",
		"bad image":     "prices:\n  - {model: m, image: -0.1}\n",
	} {
		config := filepath.Join(dir, "lessongen.yaml")
		if err := os.WriteFile(config, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Setenv("LESSONGEN_CONFIG", config)
		_, stderr, code := run(t, "plan", "--cost", filepath.Join(root, "examples/photosynthesis/lesson.yaml"))
		if code != 2 || !strings.Contains(stderr, "lessongen.yaml:2:") || !strings.Contains(stderr, "prices") {
			t.Errorf("%s: exit %d\n%s", name, code, stderr)
		}
	}
}

// --max-cost with a model that has no price stops before any request.
func TestMaxCostNeedsAPrice(t *testing.T) {
	costEnv(t)
	t.Setenv("LESSONGEN_BASE_URL", "http://127.0.0.1:1/v1") // never reached
	_, stderr, code := run(t, "generate", filepath.Join(root, "examples/photosynthesis/lesson.yaml"), "-o", "out.yaml", "--model", "mystery", "--max-cost", "1")
	if code != 2 || !strings.Contains(stderr, `--max-cost needs the price of model "mystery"`) || !strings.Contains(stderr, "prices:") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat("out.yaml"); err == nil {
		t.Error("a refused run wrote its output")
	}
}

// commentedSetting is a commented-out line of a setting or of a list item.
var commentedSetting = regexp.MustCompile(`^# ([a-z_]+:( |$)|  - )`)

// The config template init writes holds the cost settings, and, every
// setting uncommented, is a config file plan --cost reads.
func TestInitConfigTemplateUncommentedIsValid(t *testing.T) {
	dir := costEnv(t)
	var lines []string
	for _, line := range strings.Split(initConfig, "\n") {
		if commentedSetting.MatchString(line) {
			line = strings.TrimPrefix(line, "# ")
		}
		lines = append(lines, line)
	}
	config := filepath.Join(dir, "lessongen.yaml")
	writeFile(t, config, strings.Join(lines, "\n"))
	t.Setenv("LESSONGEN_CONFIG", config)
	v := planCostJSON(t)
	if !strings.Contains(initConfig, "max_cost:") || v["cost"] == nil {
		t.Errorf("the template lacks max_cost, or its prices price nothing: %v", v["cost"])
	}
}

// The summary prices what the run measured, or says the model has none.
func TestRunCostLine(t *testing.T) {
	s := runSummary{}
	s.Tokens.Prompt, s.Tokens.Completion, s.Tokens.Cached = 1_000_000, 100_000, 500_000
	line := func(c *runCost) string { return strings.Join(c.lines(), "\n") }
	// gpt-4.1: 500k at $2, 500k cached at $0.50, 100k out at $8.
	if got := costOf(&settings{Model: "gpt-4.1"}, s, 0); got.USD == nil || math.Abs(*got.USD-2.05) > 1e-9 || line(got) != "cost: $2.05 at gpt-4.1's price (prices checked "+price.Checked+")" {
		t.Errorf("gpt-4.1: %+v %q", got, line(got))
	}
	got := costOf(&settings{Model: "local"}, s, 0)
	if got.USD != nil || !strings.Contains(line(got), `model "local" has no price`) || !strings.Contains(got.Note, "prices:") {
		t.Errorf("unpriced: %+v %q", got, line(got))
	}
}

// Pictures the server sent are money too: on a line of their own and in
// the run's cost, or named unpriced.
func TestRunCostPictures(t *testing.T) {
	s := runSummary{}
	s.Tokens.Prompt, s.Tokens.Completion, s.Tokens.Cached = 1_000_000, 100_000, 500_000
	got := costOf(&settings{Model: "gpt-4.1", ImageModel: "gpt-image-1.5"}, s, 3)
	lines := strings.Join(got.lines(), "\n")
	if got.USD == nil || math.Abs(*got.USD-(2.05+3*0.133)) > 1e-9 || got.Images == nil || got.Images.Pictures != 3 ||
		got.Images.USD == nil || math.Abs(*got.Images.USD-0.399) > 1e-9 ||
		!strings.Contains(lines, "cost: $2.45 at gpt-4.1's price and its image model's") ||
		!strings.Contains(lines, "images: 3 pictures, $0.3990 at gpt-image-1.5's price of one (one 1024x1024 picture") {
		t.Errorf("priced pictures: %+v\n%s", got, lines)
	}
	got = costOf(&settings{Model: "gpt-4.1", ImageModel: "my-drawer"}, s, 2)
	lines = strings.Join(got.lines(), "\n")
	if got.USD == nil || math.Abs(*got.USD-2.05) > 1e-9 || got.Images.USD != nil || !strings.Contains(got.Images.Note, "image: 0.20") ||
		!strings.Contains(lines, `images: 2 pictures, cost unknown: image model "my-drawer" has no price`) {
		t.Errorf("unpriced pictures: %+v\n%s", got, lines)
	}
}

// A cap that is not a finite number (NaN compares false with every sum, so
// it would never stop a run) is refused before any request, from the flag,
// the environment and a config file's price alike.
func TestMaxCostAndPricesMustBeFinite(t *testing.T) {
	for name, tc := range map[string]struct {
		args []string
		env  string
	}{
		"flag NaN":    {args: []string{"--max-cost", "NaN"}},
		"negative":    {args: []string{"--max-cost", "-0.5"}},
		"flag Inf":    {args: []string{"--max-cost", "+Inf"}},
		"env nan":     {args: []string{"--model", "gpt-4.1-mini"}, env: "LESSONGEN_MAX_COST=nan"},
		"price NaN":   {args: []string{"--max-cost", "1", "--model", "m"}, env: `LESSONGEN_PRICES=[{"model":"m","input":"NaN","output":1}]`},
		"price 1e309": {args: []string{"--max-cost", "1", "--model", "m"}, env: `LESSONGEN_PRICES=[{"model":"m","input":1,"output":"1e309"}]`},
	} {
		t.Run(name, func(t *testing.T) {
			costEnv(t)
			t.Setenv("LESSONGEN_BASE_URL", "http://127.0.0.1:1/v1") // never reached
			if k, v, ok := strings.Cut(tc.env, "="); ok {
				t.Setenv(k, v)
			}
			args := append([]string{"generate", filepath.Join(root, "examples/photosynthesis/lesson.yaml"), "-o", "out.yaml", "--model", "gpt-4.1-mini"}, tc.args...)
			_, stderr, code := run(t, args...)
			if code != 2 {
				t.Errorf("exit %d, want 2\n%s", code, stderr)
			}
			if _, err := os.Stat("out.yaml"); err == nil {
				t.Error("a refused run wrote its output")
			}
		})
	}
}
