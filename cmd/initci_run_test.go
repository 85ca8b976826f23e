package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"
)

// The workflow init --ci github writes runs green in a new repository of
// lessons: every run step of its jobs as written, in a scratch git
// repository, one fresh workspace per job as the runner gives, the
// install steps fetching lessongen's source from a git repository served
// over file:// (--source), built offline from the module cache. The uses
// steps are played as the runner would: checkout clones the scratch
// repository, setup-go puts $GOPATH/bin on the PATH (the Go that runs
// this test stands for the one it would install), upload-artifact checks
// its paths exist. The generate job answers from the example's recording
// (LESSONGEN_REPLAY in the job's environment), so no model is called.
func TestInitCIWorkflowRunsInAScratchRepository(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lessongen twice from a copy of its source (about half a minute); not with -short")
	}
	for _, tool := range []string{"bash", "git", "jq", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the workflow's steps need %s, not installed: %v", tool, err)
		}
	}
	source := lessongenSourceRepo(t)
	repo := initCI(t, "--source", "file://"+source)
	if err := os.CopyFS(filepath.Join(repo, "unit", "photosynthesis"), os.DirFS(filepath.Join(root, "examples", "photosynthesis"))); err != nil {
		t.Fatal(err)
	}
	gitCommitAll(t, repo)

	r := newCIRunner(t, repo)
	out := r.runJob("lessons", nil, nil)
	var lessons []string
	if err := json.Unmarshal([]byte(out.outputs["lessons"]), &lessons); err != nil || !slices.Equal(lessons, []string{"unit/photosynthesis/lesson.yaml"}) {
		t.Fatalf("the lessons job output %q (%v)", out.outputs["lessons"], err)
	}
	r.needs["lessons"] = out.outputs

	out = r.runJob("validate", nil, nil)
	if !strings.Contains(out.log, "unit/photosynthesis/lesson.yaml: valid") {
		t.Errorf("validate's log does not show the lesson valid:\n%s", out.log)
	}
	// The go command stamps a build of a clean checkout with the
	// commit's pseudo-version.
	rev, err := gitIn(source, "rev-parse", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if want := "lessongen v0.0.0-"; !strings.Contains(out.log, want) || !strings.Contains(out.log, string(rev[:12])+"\n") {
		t.Errorf("the install step's lessongen version is not a build of the source's commit %.12s:\n%s", rev, out.log)
	}

	for _, lesson := range lessons {
		replay := filepath.Join(root, "examples", "photosynthesis", "recording.jsonl")
		out := r.runJob("generate", map[string]string{"lesson": lesson}, []string{"LESSONGEN_REPLAY=" + replay})
		var summary struct {
			Status string `json:"status"`
		}
		if data, err := os.ReadFile(filepath.Join(out.workspace, "summary.json")); err != nil || json.Unmarshal(data, &summary) != nil || summary.Status != "done" {
			t.Errorf("generate's summary.json: %q %v", data, err)
		}
		for _, deck := range []string{"lesson.html", "lesson.pptx", "lesson.pdf"} {
			if _, err := os.Stat(filepath.Join(out.workspace, "decks", deck)); err != nil && (deck != "lesson.pdf" || r.chromium) {
				t.Errorf("no deck: %v", err)
			}
		}
		if want := "decks-unit-photosynthesis-lesson"; !slices.Contains(out.artifacts, want) {
			t.Errorf("artifacts %q, want %q", out.artifacts, want)
		}
		if strings.Contains(out.log, ciTestKey) {
			t.Error("the generate job's log shows the key")
		}
	}
}

// A lesson file name that holds a newline (which split it into two matrix
// entries) or that would read as a workflow command where a log line
// starts with it ("::warning file=…::", "##[…]") is refused by the listing
// step, exit 1 with an error naming it escaped: no part of it starts a
// line of the log. Quirky names that are none of these (spaces, a leading
// dash, quotes, non-ASCII) are listed as they are.
func TestInitCIListRefusesNamesThatReadAsWorkflowCommands(t *testing.T) {
	for _, tool := range []string{"bash", "git", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the listing step needs %s, not installed: %v", tool, err)
		}
	}
	fine := []string{"-dash.yaml", "it's \"quoted\".yaml", "Ünïcode lesson.yml", "a:b/c.yaml"}
	repo := initCI(t)
	for _, name := range fine {
		writeFile(t, filepath.Join(repo, name), badLesson)
	}
	gitCommitAll(t, repo)
	lessons := runListStep(t, repo)
	if want := slices.Sorted(slices.Values(fine)); !slices.Equal(slices.Sorted(slices.Values(lessons)), want) {
		t.Errorf("listed %q, want %q", lessons, want)
	}

	for _, name := range []string{
		"evil\n::warning file=x.yaml::gotcha.yaml",
		"evil\r::error::gotcha.yaml",
		"::warning file=x.yaml::gotcha.yaml",
		"  ::add-mask::x.yaml",
		"dir/::notice::x.yaml",
		"tab\there.yaml",
		"##[warning]gotcha.yaml",
	} {
		t.Run(strings.ReplaceAll(name, "\n", `\n`), func(t *testing.T) {
			repo := initCI(t)
			writeFile(t, filepath.Join(repo, "fine.yaml"), badLesson)
			writeFile(t, filepath.Join(repo, name), badLesson)
			gitCommitAll(t, repo)
			r := newCIRunner(t, repo)
			log, err := r.runStepOf("lessons", "list")
			if err == nil {
				t.Fatalf("the listing step took %q:\n%s", name, log)
			}
			if !strings.Contains(log, "::error::lesson file names holding a control character") {
				t.Errorf("no error naming the file:\n%s", log)
			}
			for _, line := range strings.Split(strings.ReplaceAll(log, "\r", "\n"), "\n") {
				if l := strings.TrimLeft(line, " \t"); strings.HasPrefix(l, "::") && !strings.HasPrefix(l, "::error::lesson file names") || strings.Contains(l, "##[") {
					t.Errorf("a line of the log reads as a workflow command: %q", line)
				}
			}
		})
	}
}

// The workflow builds what init was asked for, or by default what the
// build that wrote it is: a release's tag, a clean checkout's commit in
// full, else the source's default branch; --source and --source-ref take
// only what the workflow can use as written (exit 2 before writing).
func TestInitCISourceAndRef(t *testing.T) {
	rev := "c1c8d38e61a6c1c8d38e61a6c1c8d38e61a6abcd"
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "false"}}
	for _, c := range []struct {
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"v1.2.0", nil, "v1.2.0"},
		{"v1.3.0-rc.1", vcs, "v1.3.0-rc.1"},
		{"v0.0.0-20261128141531-c1c8d38e61a6", vcs, rev},
		{"v1.2.1-0.20261128141531-c1c8d38e61a6", vcs, rev},
		{"v0.0.0-20261128141531-c1c8d38e61a6+dirty", append(slices.Clone(vcs[:1]), debug.BuildSetting{Key: "vcs.modified", Value: "true"}), "HEAD"},
		{"(devel)", nil, "HEAD"},
	} {
		info := &debug.BuildInfo{Main: debug.Module{Version: c.version}, Settings: c.settings}
		if got := ciDefaultRef(info); got != c.want {
			t.Errorf("%s: ref %q, want %q", c.version, got, c.want)
		}
	}
	if got := ciDefaultRef(nil); got != "HEAD" {
		t.Errorf("no build info: ref %q", got)
	}

	dir := initCI(t, "--source", "git@git.example.org:school/lessongen.git", "--source-ref", "v1.2.0")
	wf := workflowValue(t, filepath.Join(dir, ciWorkflowPath))
	if env := mapOf(wf["env"]); env["LESSONGEN_SOURCE_URL"] != "git@git.example.org:school/lessongen.git" || env["LESSONGEN_SOURCE_REF"] != "v1.2.0" {
		t.Errorf("the workflow's env is %v", env)
	}
	if env := mapOf(workflowValue(t, filepath.Join(initCI(t), ciWorkflowPath))["env"]); env["LESSONGEN_SOURCE_URL"] != ciDefaultSource {
		t.Errorf("the default source is %v", env)
	}
	for _, args := range [][]string{
		{"--source", "https://example.org/${{ secrets.OPENAI_API_KEY }}"},
		{"--source", "https://example.org/a b"},
		{"--source", "https://example.org/\"x\n"},
		{"--source", "--upload-pack=touch /tmp/x"},
		{"--source", "/just/a/path"},
		{"--source", ""},
		{"--source-ref", "-f"},
		{"--source-ref", "a..b"},
		{"--source-ref", "main\n::warning::x"},
		{"--source-ref", "$(id)"},
	} {
		dir := t.TempDir()
		_, stderr, code := run(t, append([]string{"init", "--ci", "github", dir}, args...)...)
		if code != 2 || !strings.Contains(stderr, args[0]) {
			t.Errorf("%q: exit %d, want 2 naming %s\n%s", args, code, args[0], stderr)
		}
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			t.Errorf("%q: wrote %v", args, entries)
		}
	}
	if _, stderr, code := run(t, "init", "--source", "https://example.org/x", t.TempDir()); code != 2 || !strings.Contains(stderr, "--source goes with --ci") {
		t.Errorf("--source without --ci: exit %d\n%s", code, stderr)
	}
}

// ciTestKey is the OPENAI_API_KEY secret the runner gives the workflow.
const ciTestKey = "sk-ci-test-secret-0123456789"

// ciRunner plays the jobs of the workflow in repo the way GitHub's runner
// does, for the steps the workflow has; anything else fails the test.
type ciRunner struct {
	t        *testing.T
	repo     string
	wf       map[string]any
	needs    map[string]map[string]string
	chromium bool
	// home holds each job's workspace, temp folder and GOPATH: the same
	// paths for every job, emptied between jobs, as on GitHub's runners
	// (which also lets the second build of lessongen hit the build cache).
	home string
	// goEnv is the module cache and build cache of this test's Go, so the
	// build of lessongen inside a job is offline and mostly cached.
	goEnv []string
}

type ciJobResult struct {
	workspace string
	outputs   map[string]string
	artifacts []string
	log       string
}

func newCIRunner(t *testing.T, repo string) *ciRunner {
	r := &ciRunner{t: t, repo: repo, wf: workflowValue(t, filepath.Join(repo, ciWorkflowPath)), needs: map[string]map[string]string{}, home: t.TempDir()}
	for _, b := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if _, err := exec.LookPath(b); err == nil {
			r.chromium = true
		}
	}
	if _, err := exec.LookPath("go"); err == nil {
		out, err := exec.Command("go", "env", "GOMODCACHE", "GOCACHE").Output()
		if err != nil {
			t.Fatal(err)
		}
		v := strings.Split(strings.TrimSpace(string(out)), "\n")
		// GOENV=off: none of this machine's go env settings (such as
		// GOFLAGS=-buildvcs=false), as on a fresh runner.
		r.goEnv = []string{"GOENV=off", "GOMODCACHE=" + v[0], "GOCACHE=" + v[1], "GOPROXY=off", "GOTOOLCHAIN=local"}
	}
	return r
}

// job is the workflow's job by name.
func (r *ciRunner) job(name string) map[string]any {
	job, ok := r.wf["jobs"].(map[string]any)[name].(map[string]any)
	if !ok {
		r.t.Fatalf("the workflow has no job %q", name)
	}
	return job
}

// ciJob is one job's run: its folders, environment and what its steps
// left.
type ciJob struct {
	r                  *ciRunner
	name               string
	dir, ws, tmp       string
	matrix             map[string]string
	env                []string
	path               []string
	steps              map[string]map[string]string
	res                ciJobResult
	defaultShell       string
	workflowEnv, extra []string
}

func (r *ciRunner) newJob(name string, matrix map[string]string, extra []string) *ciJob {
	dir := r.home
	if err := os.RemoveAll(dir); err != nil {
		r.t.Fatal(err)
	}
	j := &ciJob{r: r, name: name, dir: dir, ws: filepath.Join(dir, "work"), tmp: filepath.Join(dir, "temp"),
		matrix: matrix, steps: map[string]map[string]string{}, extra: extra}
	if err := os.MkdirAll(j.tmp, 0o755); err != nil {
		r.t.Fatal(err)
	}
	j.res.workspace = j.ws
	if d, ok := r.wf["defaults"].(map[string]any); ok {
		j.defaultShell, _ = d["run"].(map[string]any)["shell"].(string)
	}
	for k, v := range mapOf(r.wf["env"]) {
		j.workflowEnv = append(j.workflowEnv, k+"="+j.eval(v.(string)))
	}
	return j
}

// runJob runs a job's steps in order; a failing step fails the test.
func (r *ciRunner) runJob(name string, matrix map[string]string, extra []string) ciJobResult {
	r.t.Helper()
	j := r.newJob(name, matrix, extra)
	start := time.Now()
	defer func() { r.t.Logf("job %s %v: %v", name, matrix, time.Since(start).Round(time.Millisecond)) }()
	for i, s := range r.job(name)["steps"].([]any) {
		log, err := j.step(s.(map[string]any))
		j.res.log += log
		if err != nil {
			r.t.Fatalf("job %s, step %d (%v): %v\n%s", name, i+1, stepLabel(s.(map[string]any)), err, log)
		}
	}
	j.res.outputs = map[string]string{}
	for k, v := range mapOf(r.job(name)["outputs"]) {
		j.res.outputs[k] = j.eval(v.(string))
	}
	return j.res
}

// runStepOf runs a job's steps up to and including the one with id,
// returning its log and error.
func (r *ciRunner) runStepOf(name, id string) (string, error) {
	r.t.Helper()
	j := r.newJob(name, nil, nil)
	for _, s := range r.job(name)["steps"].([]any) {
		step := s.(map[string]any)
		log, err := j.step(step)
		if step["id"] == id {
			return log, err
		}
		if err != nil {
			r.t.Fatalf("job %s, step %v: %v\n%s", name, stepLabel(step), err, log)
		}
	}
	r.t.Fatalf("job %s has no step %q", name, id)
	return "", nil
}

func stepLabel(step map[string]any) any {
	for _, k := range []string{"name", "id", "uses"} {
		if v, ok := step[k]; ok {
			return v
		}
	}
	return step["run"]
}

func mapOf(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// expression is a ${{ }} in the workflow.
var expression = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// eval substitutes the expressions of s as the runner would for this job:
// only those the workflow's steps use; another fails the test, so a new
// one is added here on purpose.
func (j *ciJob) eval(s string) string {
	return expression.ReplaceAllStringFunc(s, func(m string) string {
		e := expression.FindStringSubmatch(m)[1]
		parts := strings.Split(e, ".")
		switch {
		case e == "runner.temp":
			return j.tmp
		case e == "!cancelled()":
			return "true"
		case e == "secrets.OPENAI_API_KEY":
			return ciTestKey
		case len(parts) == 2 && parts[0] == "vars":
			return "" // no repository variable set
		case len(parts) == 2 && parts[0] == "matrix":
			if v, ok := j.matrix[parts[1]]; ok {
				return v
			}
		case len(parts) == 4 && parts[0] == "needs" && parts[2] == "outputs":
			if v, ok := j.r.needs[parts[1]][parts[3]]; ok {
				return v
			}
		case len(parts) == 4 && parts[0] == "steps" && parts[2] == "outputs":
			if v, ok := j.steps[parts[1]][parts[3]]; ok {
				return v
			}
		}
		j.r.t.Fatalf("job %s: the test's runner does not know the expression %q", j.name, m)
		return ""
	})
}

// step runs one step and returns its log.
func (j *ciJob) step(step map[string]any) (string, error) {
	t := j.r.t
	if cond, ok := step["if"].(string); ok && j.eval(cond) != "true" {
		t.Fatalf("job %s: step condition %q", j.name, cond)
	}
	with := map[string]string{}
	for k, v := range mapOf(step["with"]) {
		with[k] = j.eval(v.(string))
	}
	if uses, ok := step["uses"].(string); ok {
		return j.uses(uses, with)
	}
	script, ok := step["run"].(string)
	if !ok {
		t.Fatalf("job %s: a step with neither run nor uses: %v", j.name, step)
	}
	if expression.MatchString(script) {
		// The runner substitutes them into the script's text, where a
		// value can inject shell; the workflow passes them by env.
		t.Errorf("job %s: a run step holds an expression: %s", j.name, script)
	}
	file := filepath.Join(j.tmp, fmt.Sprintf("step-%d.sh", len(j.steps)))
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	shell, _ := step["shell"].(string)
	if shell == "" {
		shell = j.defaultShell
	}
	// The runner's commands for a run step on Linux: shell: bash, or
	// none (bash -e {0}).
	var argv []string
	switch shell {
	case "bash":
		argv = []string{"bash", "--noprofile", "--norc", "-eo", "pipefail", file}
	case "":
		argv = []string{"bash", "-e", file}
	default:
		t.Fatalf("job %s: shell %q", j.name, shell)
	}
	files := map[string]string{}
	for _, k := range []string{"GITHUB_OUTPUT", "GITHUB_PATH", "GITHUB_ENV"} {
		files[k] = filepath.Join(j.tmp, fmt.Sprintf("%s-%d", strings.ToLower(k), len(j.steps)))
		if err := os.WriteFile(files[k], nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = j.ws
	cmd.Env = j.environ(step)
	for k, f := range files {
		cmd.Env = append(cmd.Env, k+"="+f)
	}
	out, err := cmd.CombinedOutput()
	outputs := map[string]string{}
	data, _ := os.ReadFile(files["GITHUB_OUTPUT"])
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			outputs[k] = v
		} else if line != "" {
			t.Fatalf("job %s: an output line the test's runner does not read: %q", j.name, line)
		}
	}
	id, _ := step["id"].(string)
	if id == "" {
		id = fmt.Sprintf("__%d", len(j.steps))
	}
	j.steps[id] = outputs
	if data, _ := os.ReadFile(files["GITHUB_PATH"]); len(data) > 0 {
		j.path = append(strings.Fields(string(data)), j.path...)
	}
	if data, _ := os.ReadFile(files["GITHUB_ENV"]); len(data) > 0 {
		t.Fatalf("job %s: the test's runner does not read GITHUB_ENV: %q", j.name, data)
	}
	return string(out), err
}

// environ is a step's environment: the machine's, less any key or model
// setting of the developer's, the runner's variables, the workflow's,
// then the step's env.
func (j *ciJob) environ(step map[string]any) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "LESSONGEN_") || strings.HasPrefix(k, "OPENAI_") || strings.HasPrefix(k, "GO") || strings.HasPrefix(k, "GIT_") || k == "PATH" {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, j.r.goEnv...)
	env = append(env, "PATH="+strings.Join(append(slices.Clone(j.path), os.Getenv("PATH")), string(os.PathListSeparator)),
		"GOPATH="+filepath.Join(j.dir, "go"), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
		"CI=true", "GITHUB_ACTIONS=true", "RUNNER_OS=Linux", "RUNNER_TEMP="+j.tmp, "GITHUB_WORKSPACE="+j.ws)
	env = append(env, j.workflowEnv...)
	env = append(env, j.extra...)
	for k, v := range mapOf(step["env"]) {
		env = append(env, k+"="+j.eval(v.(string)))
	}
	return env
}

// uses plays an action as the runner would, for the actions the
// workflow uses.
func (j *ciJob) uses(action string, with map[string]string) (string, error) {
	t := j.r.t
	name, _, _ := strings.Cut(action, "@")
	switch name {
	case "actions/checkout":
		if len(with) > 0 {
			t.Fatalf("job %s: checkout with %v", j.name, with)
		}
		out, err := gitIn(j.dir, "clone", "-q", j.r.repo, j.ws)
		return string(out), err
	case "actions/setup-go":
		for _, k := range []string{"go-version-file", "cache-dependency-path"} {
			if p := with[k]; p != "" {
				if _, err := os.Stat(p); err != nil {
					return "", fmt.Errorf("setup-go's %s: %w", k, err)
				}
			}
		}
		// setup-go adds $(go env GOPATH)/bin to the PATH.
		j.path = append([]string{filepath.Join(j.dir, "go", "bin")}, j.path...)
		return "", nil
	case "actions/upload-artifact":
		for _, p := range strings.Fields(with["path"]) {
			if _, err := os.Stat(filepath.Join(j.ws, p)); err != nil {
				return "", fmt.Errorf("upload-artifact: %w", err)
			}
		}
		j.res.artifacts = append(j.res.artifacts, with["name"])
		return "", nil
	}
	t.Fatalf("job %s: the test's runner does not play %s", j.name, action)
	return "", nil
}

// lessongenSourceRepo is a bare git repository holding this module's
// files as they are now (tracked and new, not ignored), its default
// branch main: the source the workflow fetches.
func lessongenSourceRepo(t *testing.T) string {
	t.Helper()
	list, err := gitIn(root, "ls-files", "-z", "-c", "-o", "--exclude-standard")
	if err != nil {
		t.Skipf("the module's files come from git ls-files, and %s is not a git checkout: %v", root, err)
	}
	src := filepath.Join(t.TempDir(), "src")
	for _, f := range strings.Split(strings.TrimSuffix(string(list), "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join(root, f))
		if os.IsNotExist(err) {
			continue // deleted, not yet committed
		}
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(src, f), string(data))
	}
	gitCommitAll(t, src)
	bare := filepath.Join(t.TempDir(), "lessongen.git")
	if out, err := gitIn(root, "clone", "-q", "--bare", src, bare); err != nil {
		t.Fatalf("git clone --bare: %v\n%s", err, out)
	}
	return bare
}

// gitCommitAll makes dir a git repository (branch main) with one commit
// of everything in it.
func gitCommitAll(t *testing.T, dir string) {
	t.Helper()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "lessons"}} {
		if out, err := gitIn(dir, args...); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}
