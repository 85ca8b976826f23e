package cmd

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/rhysd/actionlint"
	"gopkg.in/yaml.v3"
)

// initCI runs init --ci github in a new folder and returns it.
func initCI(t *testing.T, args ...string) string {
	t.Helper()
	dir := t.TempDir()
	if _, stderr, code := run(t, append([]string{"init", "--ci", "github", dir}, args...)...); code != 0 {
		t.Fatalf("init --ci github: exit %d\n%s", code, stderr)
	}
	return dir
}

// The workflow is clean under actionlint (its Go API: expressions,
// contexts, job needs and outputs, matrix, known actions' inputs), with
// no external shellcheck.
func TestInitCIWorkflowPassesActionlint(t *testing.T) {
	dir := initCI(t)
	l, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.LintFile(filepath.Join(dir, ciWorkflowPath), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Errorf("actionlint: %s:%d:%d: %s [%s]", ciWorkflowPath, e.Line, e.Column, e.Message, e.Kind)
	}
	// The check can fail: a job that needs one that does not exist.
	broken := strings.Replace(ciWorkflow, "needs: [lessons, validate]", "needs: [lessons, validat]", 1)
	if errs, _ := l.Lint("broken.yml", []byte(broken), nil); len(errs) == 0 {
		t.Error("actionlint found nothing wrong with a job needing an unknown job")
	}
}

// The workflow, with its matrix built from a repository's lessons by its
// own listing step, validates against SchemaStore's schema of GitHub
// workflows; the matrix holds exactly the lesson files, not their
// whiteboard files or the config file.
func TestInitCIMatrixFromTheRepositoryFitsTheWorkflowSchema(t *testing.T) {
	for _, tool := range []string{"bash", "git", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the listing step needs %s, not installed: %v", tool, err)
		}
	}
	repo := initCI(t)
	if err := os.CopyFS(filepath.Join(repo, "unit", "photosynthesis"), os.DirFS(filepath.Join(root, "examples", "photosynthesis"))); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(repo, "unit", "lessongen.yaml"), "model: gpt-4.1\n")
	writeFile(t, filepath.Join(repo, "bad lesson.yaml"), badLesson)
	gitCommitAll(t, repo)
	wf := workflowValue(t, filepath.Join(repo, ciWorkflowPath))
	lessons := runListStep(t, repo)
	want := []string{"bad lesson.yaml", "unit/photosynthesis/lesson.yaml"}
	if !slices.Equal(lessons, want) {
		t.Fatalf("the matrix lists %q, want %q", lessons, want)
	}
	generate := wf["jobs"].(map[string]any)["generate"].(map[string]any)
	matrix := generate["strategy"].(map[string]any)["matrix"].(map[string]any)
	if matrix["lesson"] != "${{ fromJSON(needs.lessons.outputs.lessons) }}" {
		t.Fatalf("the matrix is %v", matrix)
	}
	schema := workflowSchema(t)
	if err := schema.Validate(wf); err != nil {
		t.Errorf("the workflow fails the schema: %v", err)
	}
	// As the runner expands it: the listed lessons in place of the
	// expression.
	matrix["lesson"] = toAny(lessons)
	if err := schema.Validate(wf); err != nil {
		t.Errorf("the workflow with its matrix expanded fails the schema: %v", err)
	}
	// The schema can fail: a matrix that is not a list or an expression.
	matrix["lesson"] = "not a list"
	if schema.Validate(wf) == nil {
		t.Error("the schema took a matrix of a plain string")
	}
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// The problem matcher is one the runner accepts (the shape of its
// IssueMatcherConfig, each group index within the regexp's groups), and
// its regexp reads every line lessongen validate prints for a problem:
// file, line, column, severity and message.
func TestInitCIProblemMatcherReadsValidateOutput(t *testing.T) {
	dir := initCI(t)
	data, err := os.ReadFile(filepath.Join(dir, ciMatcherPath))
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if err := loadSchema(t, "testdata/problem-matcher.schema.json").Validate(v); err != nil {
		t.Fatalf("the matcher fails its schema: %v", err)
	}
	var m struct {
		ProblemMatcher []struct {
			Pattern []map[string]any `json:"pattern"`
		} `json:"problemMatcher"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	p := m.ProblemMatcher[0].Pattern[0]
	re := regexp.MustCompile(p["regexp"].(string))
	for _, k := range []string{"file", "line", "column", "severity", "message"} {
		if n := int(p[k].(float64)); n < 1 || n > re.NumSubexp() {
			t.Errorf("%s is group %d of %d", k, n, re.NumSubexp())
		}
	}
	file := filepath.Join(t.TempDir(), "bad: a lesson.yaml")
	writeFile(t, file, badLesson)
	_, stderr, code := run(t, "validate", file)
	if code != 2 {
		t.Fatalf("validate: exit %d", code)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		g := re.FindStringSubmatch(line)
		if g == nil {
			t.Errorf("the matcher misses %q", line)
			continue
		}
		group := func(k string) string { return g[int(p[k].(float64))] }
		if group("file") != file {
			t.Errorf("file %q in %q", group("file"), line)
		}
		got = append(got, strings.Join([]string{group("line"), group("column"), group("severity"), group("message")[:12]}, " "))
	}
	want := []string{"6 21 warning metadata.dur", "11 23  slide \"one\" ", "11 23  slide \"one\" ", "15 11 warning slide \"one\" "}
	if !slices.Equal(got, want) {
		t.Errorf("matched\n%q\nwant\n%q", got, want)
	}
}

// init --ci keeps existing files unless --force.
func TestInitCIKeepsFilesWithoutForce(t *testing.T) {
	dir := initCI(t)
	workflow := filepath.Join(dir, ciWorkflowPath)
	writeFile(t, workflow, "# mine\n")
	if _, stderr, code := run(t, "init", "--ci", "github", dir); code != 2 || !strings.Contains(stderr, "--force") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if data, _ := os.ReadFile(workflow); string(data) != "# mine\n" {
		t.Fatal("init --ci overwrote the workflow without --force")
	}
	if _, _, code := run(t, "init", "--ci", "github", "--force", dir); code != 0 {
		t.Fatalf("--force: exit %d", code)
	}
	if data, _ := os.ReadFile(workflow); !strings.Contains(string(data), "name: lessongen") {
		t.Error("--force did not write the workflow")
	}
	if _, _, code := run(t, "init", "--ci", "gitlab", t.TempDir()); code != 2 {
		t.Errorf("--ci gitlab: exit %d, want 2", code)
	}
}

// The API key comes from a secret, only into the step that generates,
// and the workflow never prints it.
func TestInitCIWorkflowKeepsTheKeySecret(t *testing.T) {
	if n := strings.Count(ciWorkflow, "secrets."); n != 1 || !strings.Contains(ciWorkflow, "OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}") {
		t.Errorf("the workflow reads %d secrets; want OPENAI_API_KEY from its secret, once", n)
	}
	if regexp.MustCompile(`(echo|printf|cat)[^\n]*(API_KEY|secrets)`).MatchString(ciWorkflow) || strings.Contains(ciWorkflow, "set -x") {
		t.Error("the workflow may print the key")
	}
}

// badLesson has errors and warnings on known lines.
const badLesson = `version: 1
metadata:
  title: Bad
  subject: maths
  grade: "5"
  duration_minutes: 45
  language: en
slides:
  - id: one
    title: One
    duration_minutes: many
    notes: x
    whiteboard:
      elements:
        - id: t
          type: text
          x: 1200
          y: 100
          w: 400
          h: 80
          text: off the edge
`

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func gitIn(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	return cmd.CombinedOutput()
}

// workflowValue is the workflow file as JSON values.
func workflowValue(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		t.Fatal(err)
	}
	return editorValue(&n).(map[string]any)
}

// runListStep runs the lessons job in repo (committed), as the runner
// would (ciRunner), and returns the lessons it output.
func runListStep(t *testing.T, repo string) []string {
	t.Helper()
	out := newCIRunner(t, repo).runJob("lessons", nil, nil)
	var lessons []string
	if err := json.Unmarshal([]byte(out.outputs["lessons"]), &lessons); err != nil {
		t.Fatalf("the listing step's output %q: %v", out.outputs["lessons"], err)
	}
	return lessons
}

// workflowSchema is SchemaStore's JSON Schema of GitHub workflows
// (testdata/schemastore, Apache-2.0), through google/jsonschema-go, this
// module's JSON Schema library, which takes its draft-07.
func workflowSchema(t *testing.T) *jsonschema.Resolved {
	return loadSchema(t, "testdata/schemastore/github-workflow.json")
}

func loadSchema(t *testing.T, path string) *jsonschema.Resolved {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "cmd", path))
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rs
}

// A planted repository cannot make init --ci github write outside it: a
// workflow file that is a symlink elsewhere is replaced by the file (with
// --force), never followed; a .github that is a symlink out of the folder
// is refused (exit 2) and nothing is written through it.
func TestInitCIWritesNothingThroughSymlinks(t *testing.T) {
	dir, victim := t.TempDir(), filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".github/workflows"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, ciWorkflowPath)); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := run(t, "init", "--ci", "github", dir, "--force"); code != 0 {
		t.Fatalf("init --ci github --force: exit %d\n%s", code, stderr)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious" {
		t.Errorf("the symlink's target was overwritten: %.40q", b)
	}
	if fi, err := os.Lstat(filepath.Join(dir, ciWorkflowPath)); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the workflow is not a file of its own: %v %v", fi, err)
	}

	outside := t.TempDir()
	for _, force := range []bool{false, true} {
		dir := t.TempDir()
		if err := os.Symlink(outside, filepath.Join(dir, ".github")); err != nil {
			t.Fatal(err)
		}
		args := []string{"init", "--ci", "github", dir}
		if force {
			args = append(args, "--force")
		}
		_, stderr, code := run(t, args...)
		if code != 2 || !strings.Contains(stderr, ".github") {
			t.Errorf("force=%v: exit %d, want 2 naming .github\n%s", force, code, stderr)
		}
		if entries, _ := os.ReadDir(outside); len(entries) > 0 {
			t.Errorf("force=%v: wrote outside the folder: %v", force, entries)
		}
	}
}
