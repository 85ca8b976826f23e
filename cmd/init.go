package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/statedir"
	"github.com/lessongen/lessongen/modality"
)

// initSchemaDir is where init writes the schemas the lesson's first line
// names: beside the lesson, so an editor checks it offline against the
// schema of the very build that wrote it (no URL to keep in step).
const initSchemaDir = ".lessongen/schema"

type initOptions struct {
	io                    *IOStreams
	reg                   *modality.Registry
	dir                   string
	subject, grade, title string
	// ci names the CI to write a workflow for (init --ci github); force
	// lets it replace the files it writes.
	ci    string
	force bool
	// ciSource and ciRef are where the workflow gets lessongen's source
	// (--source, --source-ref); ciRef empty is ciDefaultRef of this build.
	ciSource, ciRef string
}

// newCmdInit builds init; runF, when set, runs in place of runInit with
// the options the flags filled (tests).
func newCmdInit(f *factory, runF func(*initOptions) error) *cobra.Command {
	opts := &initOptions{io: f.io, reg: f.registry}
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Start a lesson: a small commented lesson.yaml with pending spots, a config template and editor schemas",
		Long: `Write, in DIR (default the current folder):
  lesson.yaml                    a small valid lesson, commented, with pending spots
  lessongen.yaml                 a config template (every setting commented out)
  ` + initSchemaDir + `/*.json   the JSON Schemas lesson.yaml's first line names
  .lessongen/.gitignore          keeps each lesson's state (saved conversations, notes) out of git
--subject, --grade and --title fill those fields; left out, they are pending.
Nothing is overwritten: if any of these files exists, init writes nothing and
exits 2. Next: lessongen validate, plan, generate, render.

--ci github writes, instead, a GitHub Actions workflow for the repository in
DIR (` + ciWorkflowPath + `, with the problem matcher
` + ciMatcherPath + `): every pull request validates every lesson, errors
shown on the lines of the diff; the label ` + ciLabel + ` or a manual run
generates each lesson in a job of its own and attaches its decks. Each job
builds lessongen from its source: --source (default ` + ciDefaultSource + `)
at --source-ref. Existing files are kept (exit 2) unless --force.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("too many arguments (%d, want at most 1)\nusage: %s", len(args), cmd.UseLine())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.dir = "."
			if len(args) == 1 {
				opts.dir = args[0]
			}
			if runF != nil {
				return runF(opts)
			}
			if opts.ci != "" {
				return runInitCI(opts)
			}
			if opts.force {
				return usagef("--force goes with --ci: init never replaces a lesson")
			}
			for _, name := range []string{"source", "source-ref"} {
				if cmd.Flags().Changed(name) {
					return usagef("--%s goes with --ci: it is where the CI workflow gets lessongen", name)
				}
			}
			return runInit(opts)
		},
	}
	cmd.Flags().StringVar(&opts.subject, "subject", "", "the lesson's subject (default: pending)")
	cmd.Flags().StringVar(&opts.grade, "grade", "", "the lesson's grade or audience, as text (default: pending)")
	cmd.Flags().StringVar(&opts.title, "title", "", "the lesson's title (default: pending)")
	cmd.Flags().StringVar(&opts.ci, "ci", "", "instead of a lesson, write a CI workflow for the repository in DIR: github ("+ciWorkflowPath+" and "+ciMatcherPath+")")
	cmd.Flags().BoolVar(&opts.force, "force", false, "with --ci, replace the files it writes if they exist")
	cmd.Flags().StringVar(&opts.ciSource, "source", ciDefaultSource, "with --ci, the git repository of lessongen's source the workflow builds lessongen from (a fork or mirror: its https:// or git@host:path URL)")
	cmd.Flags().StringVar(&opts.ciRef, "source-ref", "", "with --ci, the branch, tag or commit of --source to build (default: this release's tag, or this build's commit, or with local changes the repository's default branch)")
	return cmd
}

// runInit writes the new lesson's files into opts.dir, none of which may
// exist yet.
func runInit(opts *initOptions) error {
	files, err := initFiles(opts.reg, opts)
	if err != nil {
		return err
	}
	if err := writeNew(opts.dir, files); err != nil {
		return err
	}
	lesson := filepath.Join(opts.dir, "lesson.yaml")
	_, err = fmt.Fprintf(opts.io.Out, "wrote %s\nnext: lessongen validate %s, then plan and generate\n", lesson, lesson)
	return err
}

type initFile struct {
	path string
	data []byte
}

// initFiles is what init writes, by path relative to DIR.
func initFiles(reg *modality.Registry, opts *initOptions) ([]initFile, error) {
	files := []initFile{
		{"lesson.yaml", []byte(initLesson(opts))},
		{"lessongen.yaml", []byte(initConfig)},
		{filepath.Join(statedir.Name, ".gitignore"), []byte(initGitignore)},
	}
	for _, kind := range compose.Kinds(reg) {
		s, err := compose.Schema(reg, kind)
		if err != nil {
			return nil, err
		}
		raw, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			return nil, err
		}
		files = append(files, initFile{filepath.Join(initSchemaDir, kind+".json"), append(raw, '\n')})
	}
	return files, nil
}

// writeNew writes files under dir, none of which may exist yet: it checks
// them all first, so a refusal writes nothing (exit 2), and creates each
// with O_EXCL, so a file that appears meanwhile is not overwritten either.
func writeNew(dir string, files []initFile) error {
	var exist []string
	for _, f := range files {
		if _, err := os.Lstat(filepath.Join(dir, f.path)); !errors.Is(err, fs.ErrNotExist) {
			exist = append(exist, filepath.Join(dir, f.path))
		}
	}
	if len(exist) > 0 {
		return usagef("init writes nothing, as these files already exist: %s; choose another folder (lessongen init DIR) or move them away", strings.Join(exist, ", "))
	}
	for _, f := range files {
		p := filepath.Join(dir, f.path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return usagef("init: %v", err)
		}
		out, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return usagef("init: %v", err)
		}
		_, err = out.Write(f.data)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("init: writing %s: %w", p, err)
		}
	}
	return nil
}

// initField is `key: "value"` when given, else `key: !pending "hint"`.
func initField(key, value, hint string) string {
	if value == "" {
		return fmt.Sprintf("%s: !pending %q", key, hint)
	}
	// A JSON string is a YAML double-quoted scalar: any text is safe.
	q, _ := json.Marshal(value)
	return fmt.Sprintf("%s: %s", key, q)
}

func initLesson(opts *initOptions) string {
	return `# yaml-language-server: $schema=` + initSchemaDir + `/lesson.json
#
# A lesson for lessongen. Everything marked !pending (with an optional hint
# for the model) is generated by "lessongen generate lesson.yaml"; all else
# is yours and stays exactly as written. "lessongen plan lesson.yaml" shows,
# for free, what a run would generate; "lessongen validate" checks the file.
version: 1
metadata:
  ` + initField("title", opts.title, "a short, concrete title") + `
  ` + initField("subject", opts.subject, "the school subject") + `
  ` + initField("grade", opts.grade, "who the lesson is for, e.g. Year 7") + `
  duration_minutes: 45
  language: en
  objectives: !pending "three objectives, each starting with a verb"
  vocabulary: !pending "four or five key terms, with plain definitions"
slides:
  # An authored slide: its id and title are yours (without an id, one is
  # derived from the title); its notes and whiteboard are to be generated.
  - id: intro
    title: Introduction
    duration_minutes: 5
    notes: !pending "how to open the lesson and hook the class"
    whiteboard: !pending "the title and one question to think about"
  # New slides are added where a list item is pending.
  - !pending "the main teaching slides, one idea each"
  - id: check
    title: Check for understanding
    duration_minutes: 5
    quiz: !pending "three quick questions on the objectives"
`
}

// initGitignore keeps each lesson's state (saved conversations, notes;
// internal/statedir) out of git, and the schemas in: they are the
// lesson's, and its first line names them.
const initGitignore = `# lessongen: each lesson's state (saved conversations, notes) is local.
/*
!/.gitignore
!/schema/
`

// initConfig is the config template: every setting commented out, so the
// defaults hold until the author chooses.
const initConfig = `# lessongen settings (see "Configuration" in docs/reference.md). Flags and
# LESSONGEN_* environment variables override these. Keep the API key out of
# this file: set LESSONGEN_API_KEY (or OPENAI_API_KEY) instead.
#
# model: gpt-6-luna
# base_url: https://api.openai.com/v1   # or a local server, e.g. http://localhost:11434/v1
# concurrency: 4
# timeout: 2m
# approve: auto                         # ask: preview each change first
# tool_schema: strict                   # compatible: for servers without strict schemas
# max_cost: 1.00                        # USD for a run; "lessongen plan --cost" estimates it
# prices:                               # USD per 1M tokens, over the built-in table
#   - {model: gpt-6-luna, input: 0.10, cached_input: 0.01, output: 0.50}
`
