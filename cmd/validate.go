package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/course"
	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/internal/termsafe"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

type validateOptions struct {
	io     *IOStreams
	reg    *modality.Registry
	files  []string
	strict bool
	json   bool
	// sourceDirs, when given, are the folders citations are checked in.
	sourceDirs []string
	sources    *sources.Sandbox
}

// newCmdValidate builds validate; runF, when set, runs in place of
// runValidate with the options the flags filled (tests).
func newCmdValidate(f *factory, runF func(*validateOptions) error) *cobra.Command {
	opts := &validateOptions{io: f.io, reg: f.registry}
	cmd := &cobra.Command{
		Use:   "validate FILE...",
		Short: "Check lesson files without calling a model",
		Long: `Check lesson files: YAML syntax, keys and types, ids, bindings, whiteboard
files, and layout (elements off the canvas or overlapping).

Every problem is printed as file:line:col: message on stderr (with --json,
as one JSON object on stdout instead). Layout defects
are warnings and do not fail unless --strict is given. Citations are checked
in the sources folders generate reads: --sources, LESSONGEN_SOURCES or
sources in the config file. Exit code 0 when every
file is valid, 2 otherwise.`,
		Example: "  lessongen validate examples/photosynthesis/lesson.yaml\n  lessongen validate --strict lessons/*.yaml",
		Args:    minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.files = args
			dirs, err := sourcesSetting(cmd)
			if err != nil {
				return err
			}
			opts.sourceDirs = dirs
			if runF != nil {
				return runF(opts)
			}
			return runValidate(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.strict, "strict", false, "treat warnings as errors")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print one JSON object on stdout: every file's result and every problem with file, line, column, severity, message and hint")
	cmd.Flags().StringArrayVar(&opts.sourceDirs, "sources", nil, "check that every citation (sources: path:line) names a file and lines in these folders (repeatable; default: the sources generate reads) "+envNote("sources"))
	return cmd
}

func runValidate(opts *validateOptions) error {
	report := validateReport{Files: []fileResult{}, Problems: []jsonProblem{}}
	sb, err := openSources(opts.sourceDirs)
	if err != nil {
		return err
	}
	defer sb.Close()
	opts.sources = sb
	failed := 0
	for _, file := range opts.files {
		res, problems := validateFile(opts, file)
		report.Files = append(report.Files, res)
		for _, p := range problems {
			report.Problems = append(report.Problems, toJSONProblem(p))
		}
		if !res.Valid {
			failed++
		}
		if opts.json {
			continue
		}
		printProblems(opts.io, problems)
		switch {
		case res.Valid && res.Course:
			fmt.Fprintf(opts.io.Out, "%s: valid course (%s, %s, %s)\n", file, plural(res.Lessons, "lesson"), plural(res.Slides, "slide"), plural(res.Pending, "pending spot"))
		case res.Valid:
			fmt.Fprintf(opts.io.Out, "%s: valid (%s, %s)\n", file, plural(res.Slides, "slide"), plural(res.Pending, "pending spot"))
		}
	}
	if opts.json {
		enc := json.NewEncoder(opts.io.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(report); err != nil {
			return err
		}
	}
	if failed > 0 {
		return printed(usagef("%d of %d files invalid", failed, len(opts.files)))
	}
	return nil
}

// validateFile checks one file; its problems include the warnings, and an
// error without a position (a missing file) as a problem at line 0.
func validateFile(opts *validateOptions, file string) (fileResult, yamlsrc.Problems) {
	if course.Sniff(file) {
		return validateCourse(opts, file)
	}
	doc, err := compose.Load(file, opts.reg)
	if err != nil {
		return fileResult{File: file}, loadProblems(file, err)
	}
	return validateDoc(opts, file, doc)
}

// loadProblems is a load's error as problems.
func loadProblems(file string, err error) yamlsrc.Problems {
	var problems yamlsrc.Problems
	if errors.As(err, &problems) {
		return problems
	}
	return yamlsrc.Problems{{File: file, Message: err.Error()}}
}

// validateDoc checks doc, the lesson at file as loaded (by validate, or
// by a generate that then had nothing to do: the strict check reuses it
// rather than reading the file twice).
func validateDoc(opts *validateOptions, file string, doc *compose.Document) (fileResult, yamlsrc.Problems) {
	res := fileResult{File: file}
	if err := doc.LoadAll(); err != nil {
		return res, loadProblems(file, err)
	}
	// Counted before the props are bound: a bound property is not
	// pending, but neither is it written.
	slides, pending := summarize(doc)
	bound, err := doc.BoundWarnings()
	if err != nil {
		return res, yamlsrc.Problems{{File: file, Message: err.Error()}}
	}
	warnings := append(slices.Clip(doc.Warnings), bound...)
	warnings.Sort()
	if cited := checkCitations(doc, opts.sources); len(cited) > 0 {
		return res, append(cited, warnings...)
	}
	res.Valid = !(opts.strict && len(warnings) > 0)
	if res.Valid {
		res.Slides, res.Pending = slides, pending
	}
	return res, warnings
}

// validateReport is validate --json's output.
type validateReport struct {
	Files    []fileResult  `json:"files"`
	Problems []jsonProblem `json:"problems"`
}

type fileResult struct {
	File    string `json:"file"`
	Valid   bool   `json:"valid"`
	Slides  int    `json:"slides"`
	Pending int    `json:"pending"`
	// Course marks a course file; Lessons counts its lessons (its slides
	// and pending spots are its lessons' and its own).
	Course  bool `json:"course,omitempty"`
	Lessons int  `json:"lessons,omitempty"`
}

// jsonProblem is a problem for scripts and editors: line and column are
// 1-based, 0 when the problem has no position (a file that cannot be read).
type jsonProblem struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Severity string `json:"severity"` // "error" or "warning"
	Message  string `json:"message"`
	Hint     string `json:"hint,omitempty"`
}

// hintMarkers separate a message from the suggestion at its end.
var hintMarkers = []string{"\nfix: ", "; did you mean "}

func toJSONProblem(p yamlsrc.Problem) jsonProblem {
	jp := jsonProblem{File: p.File, Line: p.Line, Column: p.Col, Severity: "error", Message: p.Message}
	if p.Warning {
		jp.Severity = "warning"
	}
	for _, m := range hintMarkers {
		if i := strings.Index(jp.Message, m); i >= 0 {
			jp.Message, jp.Hint = jp.Message[:i], strings.TrimPrefix(jp.Message[i+2:], "fix: ")
			break
		}
	}
	return jp
}

func printProblems(io *IOStreams, ps yamlsrc.Problems) {
	for _, p := range ps {
		text := fmt.Sprint(p)
		if p.Line == 0 {
			text = p.Message // no position: the error names its file
		}
		fmt.Fprintln(io.ErrOut, termsafe.String(text))
	}
}

// summarize counts slides and pending spots, children included.
func summarize(doc *compose.Document) (slides, pending int) {
	doc.View(func(p *lesson.Plan) {
		slides = len(p.SlideIDs())
		pending = len(p.Pending())
	})
	for _, id := range doc.Session().Children() {
		if child, err := doc.Session().WarmChild(id); err == nil {
			child.View(func(st session.State) { pending += len(st.Pending()) })
		}
	}
	return slides, pending
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// checkCitations reports each citation whose file or lines are not in the
// sources, at the file, line and column it is written; none without
// sources.
func checkCitations(doc *compose.Document, sb *sources.Sandbox) yamlsrc.Problems {
	if sb == nil {
		return nil
	}
	var problems yamlsrc.Problems
	check := sb.Checker()
	for _, f := range doc.Citations() {
		r := &yamlsrc.Reporter{File: f.File}
		for _, c := range f.Refs {
			ref, err := sources.ParseCitation(c.Text)
			if err == nil {
				err = check(ref)
			}
			if err != nil {
				r.At(c.Node, "%s: %v", c.Where, err)
			}
		}
		problems = append(problems, r.Problems...)
	}
	return problems
}
