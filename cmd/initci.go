package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
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

// ciWorkflow is the GitHub Actions workflow; %[1]s is the lessongen
// version it installs, %[2]s the label, %[3]s the matcher's path.
const ciWorkflow = `# Written by "lessongen init --ci github". Edit freely; "init --ci github
# --force" writes it again.
#
# Every pull request: validate every lesson (errors show on the lines of the
# diff). Generation, when asked (the %[2]s label on a pull request, or
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
        # files do not.
        run: |
          git ls-files -z -- '*.yaml' '*.yml' \
            | xargs -0 -r grep -l -E '^slides:' \
            | jq -R -s -c 'split("\n") | map(select(length > 0))' > lessons.json
          echo "lessons=$(cat lessons.json)" >> "$GITHUB_OUTPUT"
          echo "lessons: $(cat lessons.json)"

  validate:
    needs: lessons
    if: needs.lessons.outputs.lessons != '[]'
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
        with:
          go-version: stable
      - run: go install github.com/lessongen/lessongen@%[1]s
      - name: show problems on the lines of the diff
        run: echo "::add-matcher::%[3]s"
      - name: validate every lesson
        env:
          LESSONS: ${{ needs.lessons.outputs.lessons }}
        run: jq -r '.[]' <<<"$LESSONS" | tr '\n' '\0' | xargs -0 lessongen validate

  generate:
    needs: [lessons, validate]
    if: github.event_name == 'workflow_dispatch' || contains(github.event.pull_request.labels.*.name, '%[2]s')
    runs-on: ubuntu-latest
    timeout-minutes: 60
    strategy:
      fail-fast: false
      matrix:
        lesson: ${{ fromJSON(needs.lessons.outputs.lessons) }}
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
        with:
          go-version: stable
      - run: go install github.com/lessongen/lessongen@%[1]s
      - id: name
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
        run: lessongen generate "$LESSON" -o "out/$LESSON" --json > summary.json
      - name: render the decks
        if: ${{ !cancelled() }}
        env:
          LESSON: ${{ matrix.lesson }}
        run: |
          deck="decks/$(basename "${LESSON%%.*}")"
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

// ciFiles are what init --ci github writes: the workflow, pinned to this
// build's version when it is a release, and the problem matcher.
func ciFiles(version string) []initFile {
	pin := "latest"
	if semverTag.MatchString(version) {
		pin = version
	}
	return []initFile{
		{ciWorkflowPath, []byte(fmt.Sprintf(ciWorkflow, pin, ciLabel, ciMatcherPath))},
		{ciMatcherPath, []byte(ciMatcher)},
	}
}

// runInitCI writes the CI files under opts.dir: none may exist, unless
// --force, which replaces them (each atomically).
func runInitCI(opts *initOptions) error {
	if opts.ci != "github" {
		return usagef("--ci %q is not known; the one CI lessongen writes for is github", opts.ci)
	}
	files := ciFiles(version())
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
