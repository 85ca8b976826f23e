package cmd

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lessongen/lessongen/compose"
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
}

func newValidateCmd(streams *IOStreams, reg *modality.Registry) *cobra.Command {
	opts := &validateOptions{io: streams, reg: reg}
	cmd := &cobra.Command{
		Use:   "validate FILE...",
		Short: "Check lesson files without calling a model",
		Long: `Check lesson files: YAML syntax, keys and types, ids, bindings, whiteboard
files, and layout (elements off the canvas or overlapping).

Every problem is printed as file:line:col: message on stderr. Layout defects
are warnings and do not fail unless --strict is given. Exit code 0 when every
file is valid, 2 otherwise.`,
		Example: "  lessongen validate examples/photosynthesis/lesson.yaml\n  lessongen validate --strict lessons/*.yaml",
		Args:    minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.files = args
			return runValidate(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.strict, "strict", false, "treat warnings as errors")
	return cmd
}

func runValidate(opts *validateOptions) error {
	failed := 0
	for _, file := range opts.files {
		doc, err := compose.Load(file, opts.reg)
		if err == nil {
			err = doc.LoadAll()
		}
		var problems yamlsrc.Problems
		switch {
		case errors.As(err, &problems):
			printProblems(opts.io, problems)
			failed++
			continue
		case err != nil:
			fmt.Fprintln(opts.io.ErrOut, termsafe.String(err.Error()))
			failed++
			continue
		}
		printProblems(opts.io, doc.Warnings)
		if opts.strict && len(doc.Warnings) > 0 {
			failed++
			continue
		}
		slides, pending := summarize(doc)
		fmt.Fprintf(opts.io.Out, "%s: valid (%s, %s)\n", file, plural(slides, "slide"), plural(pending, "pending spot"))
	}
	if failed > 0 {
		return &silentError{code: ExitUsage, err: fmt.Errorf("%d of %d files invalid", failed, len(opts.files))}
	}
	return nil
}

func printProblems(io *IOStreams, ps yamlsrc.Problems) {
	for _, p := range ps {
		fmt.Fprintln(io.ErrOut, termsafe.String(fmt.Sprint(p)))
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
