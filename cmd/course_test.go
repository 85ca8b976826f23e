package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/fakellm"
)

// courseFiles is a three-lesson course: lesson 1 written but two
// whiteboards, lesson 2 with its vocabulary pending, lesson 3 a pending
// item the course names.
var courseFiles = map[string]string{
	"course.yaml": `version: 1
course:
  title: Fractions, Year 5, Spring term
  subject: maths
  grade: Year 5
  outcomes: !pending "4 or 5 end-of-unit outcomes"
lessons:
  - {file: lessons/01-equivalent-fractions.yaml}
  - {file: lessons/02-adding-fractions.yaml}
  - !pending "a lesson on subtracting fractions with different denominators"
`,
	"lessons/01-equivalent-fractions.yaml": `version: 1
metadata:
  title: Equivalent fractions
  objectives: [Find fractions equal to a given fraction]
  vocabulary:
    - {term: denominator, definition: the bottom number of a fraction}
slides:
  - id: halves
    title: Halves
    whiteboard: !pending "one half and two quarters side by side"
  - id: thirds
    title: Thirds
    whiteboard: !pending "one third and two sixths side by side"
`,
	"lessons/02-adding-fractions.yaml": `version: 1
metadata:
  title: Adding fractions
  objectives: [Add fractions with the same denominator]
  vocabulary: !pending "the terms of adding"
slides: []
`,
}

// courseScript answers every level of the course's lessons. Rules match
// on the lesson's own describe ("titled ...") since every prompt of a
// course lists all titles in its outline.
const courseScript = `{"latency": "60ms", "rules": [
  {"match": ["course.metadata"], "turns": [
    {"tool_calls": [{"name": "set_outcomes", "args": {"outcomes": ["Add and subtract fractions"]}}]}, {"content": "Done."}]},
  {"match": ["course.node"], "turns": [
    {"tool_calls": [{"name": "add_lesson", "args": {"pending_id": "lesson3", "title": "Subtracting fractions", "brief": "subtract fractions with different denominators"}}]}, {"content": "Done."}]},
  {"match": ["lesson.metadata", "titled \"Adding fractions\""], "turns": [
    {"tool_calls": [{"name": "set_vocabulary", "args": {"terms": [{"term": "numerator", "definition": "the top number of a fraction"}]}}]}, {"content": "Done."}]},
  {"match": ["lesson.metadata", "titled \"Subtracting fractions\""], "turns": [
    {"tool_calls": [
      {"name": "set_objectives", "args": {"objectives": ["Subtract fractions with different denominators"]}},
      {"name": "set_key_learning_points", "args": {"points": ["Make the denominators the same first"]}},
      {"name": "set_vocabulary", "args": {"terms": [{"term": "difference", "definition": "what is left after subtracting"}]}}]}, {"content": "Done."}]},
  {"match": ["lesson.node", "titled \"Subtracting fractions\""], "turns": [
    {"tool_calls": [{"name": "add_slide", "args": {"title": "Take away", "section": "Explain", "duration_minutes": 10, "notes": "Model it.", "whiteboard": "three quarters take away one half"}}]}, {"content": "Done."}]},
  {"match": ["whiteboard.metadata"], "turns": [
    {"tool_calls": [{"name": "set_heading", "args": {"heading": "Fractions"}}, {"name": "set_layout", "args": {"layout": "two bars"}}]}, {"content": "Done."}]},
  {"match": ["whiteboard.node"], "turns": [
    {"tool_calls": [{"name": "add_text", "args": {"x": 40, "y": 140, "w": 600, "h": 60, "text": "Bars"}}]}, {"content": "Done."}]}
]}`

func writeCourse(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, courseFiles)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, ".config"))
	t.Setenv("LESSONGEN_API_KEY", fakellm.DummyAPIKey)
	t.Setenv("LESSONGEN_MODEL", "m")
	return dir
}

func startCourseModel(t *testing.T) *fakellm.Server {
	t.Helper()
	s, err := fakellm.ParseScript([]byte(courseScript))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.Start(t, s)
	t.Setenv("LESSONGEN_BASE_URL", srv.URL())
	return srv
}

// A three-lesson course with one pending lesson generates whole: the
// course names the pending lesson and writes its file, every lesson is
// filled, no more requests are in flight at once across the lessons than
// --concurrency, and the later lessons' prompts hold the vocabulary the
// earlier ones define.
func TestCourseGenerate(t *testing.T) {
	dir := writeCourse(t)
	srv := startCourseModel(t)
	_, stderr, code := run(t, "generate", filepath.Join(dir, "course.yaml"), "--concurrency", "2")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	t.Logf("stderr:\n%s\npeak %d, %d requests", stderr, srv.PeakInFlight(), srv.RequestCount())
	if peak := srv.PeakInFlight(); peak > 2 {
		t.Errorf("%d requests in flight at once across the lessons, want at most --concurrency 2", peak)
	}
	courseYAML := readFile(t, filepath.Join(dir, "course.yaml"))
	if !strings.Contains(courseYAML, "- {file: lessons/03-subtracting-fractions.yaml}") || !strings.Contains(courseYAML, "Add and subtract fractions") {
		t.Errorf("the course file does not name the new lesson or hold its outcomes:\n%s", courseYAML)
	}
	third := readFile(t, filepath.Join(dir, "lessons/03-subtracting-fractions.yaml"))
	for _, want := range []string{"title: Subtracting fractions", "difference", "title: Take away", "text: Bars"} {
		if !strings.Contains(third, want) {
			t.Errorf("the new lesson lacks %q:\n%s", want, third)
		}
	}
	if second := readFile(t, filepath.Join(dir, "lessons/02-adding-fractions.yaml")); !strings.Contains(second, "numerator") {
		t.Errorf("lesson 2 was not generated:\n%s", second)
	}
	prompts := lessonPrompts(t, srv, `titled \"Subtracting fractions\"`)
	if len(prompts) == 0 {
		t.Fatal("no request for lesson 3")
	}
	for _, p := range prompts {
		for _, term := range []string{"denominator = the bottom number of a fraction", "numerator = the top number of a fraction"} {
			if !strings.Contains(p, term) {
				t.Errorf("a prompt of lesson 3 lacks the earlier lessons' %q:\n%.2000s", term, p)
			}
		}
	}
}

// lessonPrompts are the first messages of every request whose task
// holds marker (JSON-escaped).
func lessonPrompts(t *testing.T, srv *fakellm.Server, marker string) []string {
	t.Helper()
	var out []string
	for _, r := range srv.Requests() {
		if !strings.Contains(string(r.Body), marker) {
			continue
		}
		var req struct {
			Messages []struct {
				Content string `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(r.Body, &req); err != nil {
			t.Fatal(err)
		}
		// The system message and the node's part, in the first user message.
		task := req.Messages[0].Content
		if len(req.Messages) > 1 {
			task += "\n" + req.Messages[1].Content
		}
		out = append(out, task)
	}
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// --max-requests caps the whole course: the lessons spend one budget,
// and once it is spent every lesson stops (exit 3, what was done saved).
func TestCourseBudgetIsShared(t *testing.T) {
	dir := writeCourse(t)
	srv := startCourseModel(t)
	_, stderr, code := run(t, "generate", filepath.Join(dir, "course.yaml"), "--concurrency", "2", "--max-requests", "5")
	if code != ExitPartial {
		t.Fatalf("exit %d, want %d:\n%s", code, ExitPartial, stderr)
	}
	if n := srv.RequestCount(); n > 5 {
		t.Errorf("%d requests across the lessons, over --max-requests 5", n)
	}
	if !strings.Contains(stderr, "the run budget is spent") {
		t.Errorf("no lesson says the budget is spent:\n%s", stderr)
	}
}

// --max-cost caps the course, not each lesson: at gpt-5-nano's price
// each lesson alone spends about $0.001 (its worst cases held, under
// $0.0018), the course in all about $0.0025, so a cap of $0.0018 that
// every lesson would stay under on its own stops the course (exit 3),
// and what the lessons report spent together stays under it.
func TestCourseMaxCostIsShared(t *testing.T) {
	dir := writeCourse(t)
	srv := startCourseModel(t)
	_, stderr, code := run(t, "generate", filepath.Join(dir, "course.yaml"), "--concurrency", "2", "--model", "gpt-5-nano", "--max-tokens", "100", "--max-cost", "0.0018")
	if code != ExitPartial {
		t.Fatalf("exit %d, want %d:\n%s", code, ExitPartial, stderr)
	}
	if !strings.Contains(stderr, "which would pass --max-cost $0.0018") {
		t.Errorf("no lesson says --max-cost is reached:\n%s", stderr)
	}
	spent := 0.0
	for _, m := range regexp.MustCompile(`cost: \$([0-9.]+)`).FindAllStringSubmatch(stderr, -1) {
		v, _ := strconv.ParseFloat(m[1], 64)
		spent += v
	}
	if spent > 0.0018 {
		t.Errorf("the lessons report $%.4f spent in all, over --max-cost $0.0018:\n%s", spent, stderr)
	}
	t.Logf("%d requests, $%.4f reported", srv.RequestCount(), spent)
}
