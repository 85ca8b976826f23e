package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/lessongen/lessongen/internal/atomicfile"
)

// The files init --ci github writes, by path from the repository's root.
const (
	ciWorkflowPath = ".github/workflows/lessongen.yml"
	ciMatcherPath  = ".github/lessongen-matcher.json"
	// ciLabel on a pull request asks for generation.
	ciLabel = "lessongen:generate"
)

// ciMatcher is the problem matcher of lessongen validate's lines
// (yamlsrc.Problem: "file:line:col: message", "warning: " before the
// message of a warning), so the runner puts each on its line of the diff.
const ciMatcher = `{
  "problemMatcher": [
    {
      "owner": "lessongen",
      "pattern": [
        {
          "regexp": "^(.+?):(\\d+):(\\d+): (?:(warning): )?(.+)$",
          "file": 1,
          "line": 2,
          "column": 3,
          "severity": 4,
          "message": 5
        }
      ]
    }
  ]
}
`

// ciDefaultSource is where the workflow fetches lessongen's source unless
// --source names another: the repository the module path names. The
// module is not published on a module proxy, so the workflow builds from
// source rather than "go install MODULE@VERSION".
const ciDefaultSource = "https://github.com/lessongen/lessongen"

// ciInstall is the steps that put lessongen on the PATH of a job: fetch
// its source (one commit, no history) outside the workspace, set up the
// Go its go.mod asks for (caching by its go.sum), build and install it.
// The source and ref are the workflow's env, written by init from
// --source and --source-ref.
const ciInstall = `      - name: fetch lessongen's source
        run: |
          src="$RUNNER_TEMP/lessongen"
          git init -q "$src"
          if ! git -C "$src" fetch -q --depth 1 -- "$LESSONGEN_SOURCE_URL" "$LESSONGEN_SOURCE_REF"; then
            echo "::error::cannot fetch lessongen $LESSONGEN_SOURCE_REF from $LESSONGEN_SOURCE_URL; set LESSONGEN_SOURCE_URL and LESSONGEN_SOURCE_REF at the top of this workflow to a repository and ref of lessongen's source the runner can read (lessongen init --ci github --force --source URL --source-ref REF writes them)"
            exit 1
          fi
          git -C "$src" checkout -q FETCH_HEAD
      - uses: actions/setup-go@v5
        with:
          go-version-file: ${{ runner.temp }}/lessongen/go.mod
          cache-dependency-path: ${{ runner.temp }}/lessongen/go.sum
      - name: install lessongen
        run: |
          go -C "$RUNNER_TEMP/lessongen" install .
          lessongen version
`

// ciWorkflow is the GitHub Actions workflow; %[1]s is the source's URL,
// %[2]s its ref, %[3]s the label, %[4]s the matcher's path, %[5]s the
// install steps (ciInstall).
const ciWorkflow = `# Written by "lessongen init --ci github". Edit freely; "init --ci github
# --force" writes it again.
#
# Every pull request: validate every lesson (errors show on the lines of the
# diff). Generation, when asked (the %[3]s label on a pull request, or
# "Run workflow" on the Actions tab): one job per lesson, each lesson's
# decks (HTML, PDF, PowerPoint) attached to the run as an artifact.
# Generation needs the repository secret OPENAI_API_KEY; the variables
# LESSONGEN_MODEL and LESSONGEN_MAX_COST (US dollars per lesson) are optional.
name: lessongen

on:
  pull_request:
    types: [opened, synchronize, reopened, labeled]
  workflow_dispatch:

permissions:
  contents: read

concurrency:
  group: lessongen-${{ github.ref }}
  cancel-in-progress: true

# Where each job builds lessongen from: a git repository of its source and
# a branch, tag or commit in it.
env:
  LESSONGEN_SOURCE_URL: "%[1]s"
  LESSONGEN_SOURCE_REF: "%[2]s"

defaults:
  run:
    # bash -eo pipefail: a failure anywhere in a pipe fails the step.
    shell: bash

jobs:
  lessons:
    name: list lessons
    runs-on: ubuntu-latest
    outputs:
      lessons: ${{ steps.list.outputs.lessons }}
    steps:
      - uses: actions/checkout@v4
      - id: list
        name: every lesson file in the repository, as JSON
        # A lesson file has a top-level slides key; its whiteboard and quiz
        # files do not. Names are read NUL-separated; one holding a control
        # character, "::" or "##[" is refused, as the runner would read it
        # as a workflow command where a line of the log starts with it. The
        # lists go in the runner's temp folder, not over a file of the
        # repository.
        run: |
          list="$RUNNER_TEMP/lessons"
          git grep -l -z -E '^slides:' -- '*.yaml' '*.yml' > "$list.z" || [ $? -eq 1 ]
          jq -R -s -c 'split("\u0000") | map(select(length > 0))' "$list.z" > "$list.json"
          bad=$(jq -r 'map(select(test("[[:cntrl:]]|::|##\\[")) | tojson | gsub(":"; "\\u003a") | gsub("#"; "\\u0023")) | join(", ")' "$list.json")
          if [ -n "$bad" ]; then
            echo "::error::lesson file names holding a control character, two colons in a row or a hash sign followed by a bracket are refused (the log would read them as workflow commands); rename $bad"
            exit 1
          fi
          echo "lessons=$(cat "$list.json")" >> "$GITHUB_OUTPUT"
          echo "lessons: $(cat "$list.json")"

  validate:
    needs: lessons
    if: needs.lessons.outputs.lessons != '[]'
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
%[5]s      - name: show problems on the lines of the diff
        run: echo "::add-matcher::%[4]s"
      - name: validate every lesson
        env:
          LESSONS: ${{ needs.lessons.outputs.lessons }}
        run: jq -j '.[] | (., "\u0000")' <<<"$LESSONS" | xargs -0 lessongen validate --

  generate:
    needs: [lessons, validate]
    if: github.event_name == 'workflow_dispatch' || contains(github.event.pull_request.labels.*.name, '%[3]s')
    runs-on: ubuntu-latest
    timeout-minutes: 60
    strategy:
      fail-fast: false
      matrix:
        lesson: ${{ fromJSON(needs.lessons.outputs.lessons) }}
    steps:
      - uses: actions/checkout@v4
%[5]s      - id: name
        name: name the lesson's artifact
        env:
          LESSON: ${{ matrix.lesson }}
        run: echo "name=decks-$(printf '%%s' "${LESSON%%.*}" | tr -c 'A-Za-z0-9._-' '-')" >> "$GITHUB_OUTPUT"
      - name: generate
        env:
          LESSON: ${{ matrix.lesson }}
          OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}
          LESSONGEN_MODEL: ${{ vars.LESSONGEN_MODEL }}
          LESSONGEN_MAX_COST: ${{ vars.LESSONGEN_MAX_COST }}
        run: lessongen generate -o "out/$LESSON" --json -- "$LESSON" > summary.json
      - name: render the decks
        if: ${{ !cancelled() }}
        env:
          LESSON: ${{ matrix.lesson }}
        run: |
          deck="decks/$(basename -- "${LESSON%%.*}")"
          mkdir -p decks
          lessongen render "out/$LESSON" -o "$deck.html"
          lessongen render "out/$LESSON" --format pptx -o "$deck.pptx"
          lessongen render "out/$LESSON" --format pdf -o "$deck.pdf"
      - uses: actions/upload-artifact@v4
        if: ${{ !cancelled() }}
        with:
          name: ${{ steps.name.outputs.name }}
          path: |
            decks/
            out/
            summary.json
          if-no-files-found: warn
`

// semverTag is a release's version, which the workflow pins.
var semverTag = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)

// pseudoVersion is the version the go command stamps on a build from a
// commit that is no release (golang.org/x/mod/module's pattern):
// v0.0.0-20261128141531-c1c8d38e61a6 names no git ref.
var pseudoVersion = regexp.MustCompile(`^v[0-9]+\.(0\.0-|\d+\.\d+-([^+]*\.)?0\.)\d{14}-[A-Za-z0-9]+(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$`)

// ciSourceURL is a git URL the workflow may fetch: scheme://… or
// user@host:path, printable ASCII without space, quotes, backslash or $
// (it is written into YAML, read by a shell and must not open a ${{ }}
// expression), not starting with "-" (git would read an option).
var ciSourceURL = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]*://|[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:)[!#%&(-\[\]-~]+$`)

// ciSourceRef is a branch, tag or commit name as git check-ref-format
// takes it, in the same safe characters.
var ciSourceRef = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._/+-]*$`)

// ciDefaultRef is the ref the workflow builds when --source-ref is not
// given: a release build's own tag; for a build from a clean checkout,
// its commit (in full: git fetches no abbreviated hash); else the source
// repository's default branch.
func ciDefaultRef(info *debug.BuildInfo) string {
	if info == nil {
		return "HEAD"
	}
	if v := info.Main.Version; semverTag.MatchString(v) && !pseudoVersion.MatchString(v) {
		return v
	}
	rev, modified := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev != "" && !modified {
		return rev
	}
	return "HEAD"
}

// checkCISource refuses a --source or --source-ref the workflow could not
// use as written (exit 2).
func checkCISource(source, ref string) error {
	if !ciSourceURL.MatchString(source) {
		return usagef("--source %q is not a git URL the workflow can fetch\nfix: give its https://, ssh:// or git@host:path URL (no spaces, quotes, backslashes or $)", source)
	}
	if !ciSourceRef.MatchString(ref) || strings.Contains(ref, "..") || strings.HasSuffix(ref, "/") || strings.HasSuffix(ref, ".lock") {
		return usagef("--source-ref %q is not a branch, tag or commit name\nfix: give one such as main, v1.2.0 or a commit's hash", ref)
	}
	return nil
}

// ciFiles are what init --ci github writes: the workflow, building
// lessongen from source at ref, and the problem matcher.
func ciFiles(source, ref string) []initFile {
	return []initFile{
		{ciWorkflowPath, []byte(fmt.Sprintf(ciWorkflow, source, ref, ciLabel, ciMatcherPath, ciInstall))},
		{ciMatcherPath, []byte(ciMatcher)},
	}
}

// runInitCI writes the CI files under opts.dir: none may exist, unless
// --force, which replaces them (each atomically).
func runInitCI(opts *initOptions) error {
	if opts.ci != "github" {
		return usagef("--ci %q is not known; the one CI lessongen writes for is github", opts.ci)
	}
	ref := opts.ciRef
	if ref == "" {
		info, _ := debug.ReadBuildInfo()
		ref = ciDefaultRef(info)
	}
	if err := checkCISource(opts.ciSource, ref); err != nil {
		return err
	}
	files := ciFiles(opts.ciSource, ref)
	if err := noLinkedDirs(opts.dir, files); err != nil {
		return err
	}
	if opts.force {
		for _, f := range files {
			p := filepath.Join(opts.dir, f.path)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return usagef("init: %v", err)
			}
			// Replace, not Write: a symlink planted at the path is
			// replaced by the file, its target never written.
			if err := atomicfile.Replace(p, f.data, 0o644); err != nil {
				return fmt.Errorf("init: writing %s: %w", p, err)
			}
		}
	} else if err := writeNew(opts.dir, files); err != nil {
		return usagef("%v\nfix: lessongen init --ci github --force replaces them", err)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, filepath.Join(opts.dir, f.path))
	}
	_, err := fmt.Fprintf(opts.io.Out, "wrote %s\nnext: add the repository secret OPENAI_API_KEY; label a pull request %s (or run the workflow by hand) to generate\n",
		strings.Join(paths, ", "), ciLabel)
	return err
}

// noLinkedDirs refuses a folder on the way to a CI file (.github,
// .github/workflows) that is a symlink: a planted repository's link would
// have init write wherever it points.
func noLinkedDirs(dir string, files []initFile) error {
	for _, f := range files {
		for d := filepath.Dir(f.path); d != "."; d = filepath.Dir(d) {
			p := filepath.Join(dir, d)
			if fi, err := os.Lstat(p); err == nil && fi.Mode()&os.ModeSymlink != 0 {
				return usagef("init writes nothing: %s is a symlink, and the CI files go inside the repository; make it a folder", p)
			}
		}
	}
	return nil
}
