package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/atomicfile"
	"github.com/lessongen/lessongen/internal/statedir"
	"github.com/lessongen/lessongen/internal/termsafe"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/render"
)

type renderOptions struct {
	io     *IOStreams
	reg    *modality.Registry
	file   string
	out    string
	format string
	// handout leaves out what is for the teacher alone (pptx).
	handout bool
	// present opens the HTML page as a slideshow.
	present bool
	// stateDir is generate's --state-dir, "" for the default.
	stateDir string
}

func newRenderCmd(streams *IOStreams, reg *modality.Registry) *cobra.Command {
	opts := &renderOptions{io: streams, reg: reg}
	cmd := &cobra.Command{
		Use:   "render FILE",
		Short: "Draw a lesson as one self-contained HTML page (or Marp Markdown, or PowerPoint)",
		Long: `Draw a lesson as one HTML file that needs no network to view: an overview
page, then one page per slide with its whiteboard, quiz and speaker notes.
Pending spots are drawn as dashed placeholders with their hints, so a lesson
can be looked at before generation.

In the page, the arrow keys move between pages, N shows or hides the notes
and P presents: one slide at a time scaled to the window at 16:9, without
notes or answers (F fullscreen, A reveals a quiz's answers one question at a
time, Escape leaves); S opens the presenter view, a second window with the
notes, the next slide and a timer, kept in step. --present opens the page
presenting. Printing gives one slide per page.

--format md writes Marp Markdown instead (one slide per ---, notes as
presenter comments; whiteboards are inline SVG, so convert it with
marp --html).

--format pptx writes a PowerPoint deck (16:9) of native, editable shapes:
an overview slide, one slide per lesson slide with its title in the title
placeholder, whiteboard elements as text boxes, shapes, connectors,
pictures with alt text and Office Math equations, quizzes as numbered
questions with lettered options, speaker notes on the notes pages, and a
final answer-key slide. --handout leaves out the notes pages and the
answer-key slide: a copy for students.

The output defaults to FILE with .html (or .md, .pptx); -o -
writes to stdout. Without --format, an -o ending in .md or .pptx picks
that format. An output that is one of the lesson's files is refused.`,
		Example: "  lessongen render examples/photosynthesis/lesson.yaml -o lesson.html\n  lessongen render lesson.yaml --format md -o lesson.md\n  lessongen render lesson.yaml --format pptx --handout -o handout.pptx",
		Args:    exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.file = args[0]
			if !cmd.Flags().Changed("format") {
				// -o deck.pptx means a deck, not HTML under that name.
				switch strings.ToLower(filepath.Ext(opts.out)) {
				case ".md":
					opts.format = "md"
				case ".pptx":
					opts.format = "pptx"
				}
			}
			return runRender(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.out, "output", "o", "", "output file (default: FILE with .html, .md or .pptx; - for stdout)")
	cmd.Flags().StringVar(&opts.format, "format", "html", "html, md (Marp Markdown) or pptx (PowerPoint)")
	cmd.Flags().BoolVar(&opts.present, "present", false, "with --format html: the page opens as a slideshow (as if P were pressed)")
	cmd.Flags().BoolVar(&opts.handout, "handout", false, "with --format pptx: a students' copy, without notes pages or the answer-key slide")
	cmd.Flags().StringVar(&opts.stateDir, "state-dir", os.Getenv("LESSONGEN_STATE_DIR"), "where generate kept its state, for the notes subagents left for the author (default: .lessongen/FILE beside the lesson; env LESSONGEN_STATE_DIR)")
	return cmd
}

func runRender(opts *renderOptions) error {
	write := render.HTMLWithNotes
	switch opts.format {
	case "html":
		write = render.HTMLWriterWith(render.HTMLOptions{Present: opts.present})
	case "md":
		write = render.MarkdownWithNotes
	case "pptx":
		write = render.PPTXWriter(opts.handout)
	default:
		return usagef("--format must be html, md or pptx, got %q", opts.format)
	}
	if opts.handout && opts.format != "pptx" {
		return usagef("--handout is for --format pptx")
	}
	if opts.present && opts.format != "html" {
		return usagef("--present is for --format html")
	}
	if opts.format == "pptx" && opts.out == "-" && opts.io.OutTTY {
		// A deck is a zip: on a terminal its bytes are noise (and the
		// terminal's sanitiser would break them anyway).
		return usagef("-o - would write the PowerPoint file's bytes to the terminal; name a file (-o lesson.pptx) or pipe the output")
	}
	doc, err := compose.Load(opts.file, opts.reg)
	if err == nil {
		err = doc.LoadAll()
	}
	var problems yamlsrc.Problems
	if errors.As(err, &problems) {
		printProblems(opts.io, problems)
		return &silentError{code: ExitUsage, err: fmt.Errorf("%s is invalid; nothing rendered", opts.file)}
	}
	if err != nil {
		// The lesson or a child file cannot be read: the input's problem.
		return &usageError{err}
	}
	// Layout warnings do not stop a render: seeing the defect is the point.
	printProblems(opts.io, doc.Warnings)
	out := opts.out
	if out == "" {
		out = strings.TrimSuffix(opts.file, filepath.Ext(opts.file)) + "." + opts.format
	}
	if out != "-" {
		out = filepath.Clean(out)
		// "-": nothing is saved, so only the lesson's own files are refused.
		if err := doc.CheckSideFile(out, "-"); err != nil {
			return usagef("-o %v", err)
		}
		if fi, err := os.Stat(out); err == nil && fi.IsDir() {
			return usagef("-o %s is a folder; name the output file, e.g. %s", out, filepath.Join(out, "lesson."+opts.format))
		}
	}
	// Notes runs left for the author, from the state dir generate used.
	notes, err := loadNotes(readStateDir(opts.stateDir, opts.file))
	if le := (*statedir.LinkError)(nil); errors.As(err, &le) {
		return &usageError{err} // a planted link: the lesson's folder is the user's to fix
	}
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := write(&buf, doc, opts.reg, notes); err != nil {
		return err
	}
	// Controls and bidi overrides in lesson text are written as character
	// references: the page shows the same, a terminal (-o -, cat) no
	// escape sequence.
	// A deck is a zip, whose bytes are not text: it is written as made
	// (the pptx writer drops controls from the text it holds).
	data := buf.Bytes()
	if opts.format != "pptx" {
		data = []byte(termsafe.Markup(buf.String()))
	}
	if out == "-" {
		_, err := opts.io.Out.Write(data)
		return err
	}
	if err := atomicfile.Write(out, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	fmt.Fprintf(opts.io.ErrOut, "lessongen: wrote %s\n", out)
	return nil
}
