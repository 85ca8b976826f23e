package cmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/course"
	"github.com/lessongen/lessongen/internal/atomicfile"
	"github.com/lessongen/lessongen/internal/statedir"
	"github.com/lessongen/lessongen/internal/termsafe"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/render"
	"github.com/lessongen/lessongen/session"
)

type renderOptions struct {
	io     *IOStreams
	reg    *modality.Registry
	file   string
	out    string
	format string
	// handout leaves out what is for the teacher alone: the pupil copy.
	handout bool
	// allowPending prints a handout of a lesson with pending spots, each
	// as a gap for the teacher to fill.
	allowPending bool
	// present opens the HTML page as a slideshow.
	present bool
	// chromium is the browser --format pdf prints with; "" finds one.
	chromium string
	ctx      context.Context
	// stateDir is generate's --state-dir, "" for the default.
	stateDir string
}

// renderLong is render's help text (a format: the registry's child kinds
// and PDFTimeout's terms fill it).
const renderLong = `Draw a lesson as one HTML file that needs no network to view: an overview
page, then one page per slide with its speaker notes and what it places:
%s
Pending spots are drawn as dashed placeholders with their hints, so a lesson
can be looked at before generation.

In the page, the arrow keys move between pages, N shows or hides the notes
and P presents: one slide at a time scaled to the window at 16:9, without
notes or answers, a board shown alone before the quiz or activity beside it
(F fullscreen, A reveals a quiz's answers one question at a time, of every
kind, Escape leaves); S opens the presenter view, a second window with the
notes, the next slide and a timer, kept in step. --present opens the page
presenting. Printing gives the teacher copy, each slide from a new sheet
with its notes and answer key after it, no text under 8 pt (a page too
long goes on over the next sheet); the page's print switch prints the
pupil copy instead. --handout writes the pupil copy itself: no
notes, notes for the author or answer key anywhere in the file, and room
to answer each question when printed. A handout is refused (exit 2,
naming them) while anything in the lesson is pending, whose hints are
written for a model, not for pupils; --allow-pending prints it anyway,
each pending spot an empty gap for the teacher to fill (HTML, PDF and PowerPoint).

--format md writes Marp Markdown instead (one slide per ---, notes as
presenter comments; whiteboards are inline SVG, so convert it with
marp --html). Each board is scaled to fit Marp's 1280x720 slide under its
title; a slide that places more than one becomes one Marp slide each
under the same title. The font is a file, not part of the Markdown: -o
lesson.md also writes lesson.fonts/ beside it, which the style loads by
a relative url, so keep the two together
(marp writes its HTML beside the Markdown; its PDF, PNG and PPTX need
marp --allow-local-files to read the font). With -o - no font file is
written and Marp draws the text in the viewer's sans-serif.

--format pptx writes a PowerPoint deck (16:9) of native, editable shapes:
an overview slide, one slide per lesson slide with its title in the title
placeholder and what it places as text boxes, shapes, connectors,
pictures with alt text, Office Math equations and numbered questions
with lettered options, speaker notes on the notes pages, and a
final answer-key slide. --handout leaves out the notes pages and the
answer-key slide: a copy for students.

--format pdf prints the HTML page (with --handout, the pupil copy) through
headless Chromium: A4, each slide from a new (landscape) sheet, fonts
embedded, page numbers.
It needs Chromium installed (--chromium names one); HTML, Markdown and
PowerPoint do not. A print that takes longer than %v plus %v a slide
(a course book: every lesson's) is given up (exit 1).

The output defaults to FILE with .html (or .md, .pptx, .pdf); -o -
writes to stdout (a deck or PDF only to a pipe). Without --format, an -o
ending in .md, .pptx or .pdf picks that format. An output that is one of
the lesson's files is refused.

FILE may be a course file: each lesson's page (with --format pptx, its
deck too) is written beside its lesson file, and an index page (FILE with
.html, or -o) links them, with the course's outline, each lesson's
objectives and a glossary across lessons. --format pdf prints one book
instead: the index, then every lesson's pages.`

// newCmdRender builds render; runF, when set, runs in place of runRender
// with the options the flags filled (tests).
func newCmdRender(f *factory, runF func(*renderOptions) error) *cobra.Command {
	opts := &renderOptions{io: f.io, reg: f.registry}
	cmd := &cobra.Command{
		Use:     "render FILE",
		Short:   "Draw a lesson as one self-contained HTML page (or Marp Markdown, PowerPoint or PDF)",
		Long:    fmt.Sprintf(renderLong, kindTable(opts.reg.Children()), render.PDFBaseTimeout, render.PDFSlideTimeout),
		Example: "  lessongen render examples/photosynthesis/lesson.yaml -o lesson.html\n  lessongen render lesson.yaml --handout -o handout.html\n  lessongen render lesson.yaml --format pdf --handout -o handout.pdf\n  lessongen render lesson.yaml --format pptx --handout -o handout.pptx",
		Args:    exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.file, opts.ctx = args[0], cmd.Context()
			if !cmd.Flags().Changed("format") {
				// -o deck.pptx means a deck, not HTML under that name.
				switch strings.ToLower(filepath.Ext(opts.out)) {
				case ".md":
					opts.format = "md"
				case ".pptx", ".pdf":
					opts.format = strings.ToLower(filepath.Ext(opts.out))[1:]
				}
			}
			if err := resolveRenderSettings(cmd, opts); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runRender(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.out, "output", "o", "", "output file (default: FILE with .html, .md, .pptx or .pdf; - for stdout)")
	cmd.Flags().StringVar(&opts.format, "format", "html", "html, md (Marp Markdown), pptx (PowerPoint) or pdf (printed through headless Chromium)")
	cmd.Flags().BoolVar(&opts.present, "present", false, "with --format html: the page opens as a slideshow (as if P were pressed)")
	cmd.Flags().BoolVar(&opts.handout, "handout", false, "the pupil copy: no speaker notes, notes for the author or answer key (pptx: no notes pages or answer-key slide)")
	cmd.Flags().BoolVar(&opts.allowPending, "allow-pending", false, "with --handout (html, pdf, pptx): print a lesson that still has pending spots, each as an empty gap for the teacher to fill")
	for _, key := range renderSettings {
		s, _ := lookupSetting(key)
		s.addFlag(cmd.Flags())
	}
	return cmd
}

// renderSettings are the settings render reads, from the one table: the
// browser a PDF is printed with, and where generate kept its state (for
// the notes subagents left for the author).
var renderSettings = []string{"chromium", "state_dir"}

// resolveRenderSettings fills the options from those settings: flag,
// environment, config file, as generate reads them.
func resolveRenderSettings(cmd *cobra.Command, opts *renderOptions) error {
	chromium, err := settingValue(cmd, "chromium")
	if err != nil {
		return err
	}
	stateDir, err := settingValue(cmd, "state_dir")
	if err != nil {
		return err
	}
	opts.chromium, opts.stateDir = chromium.(string), stateDir.(string)
	return nil
}

func runRender(opts *renderOptions) error {
	if course.Sniff(opts.file) {
		return runRenderCourse(opts)
	}
	write, err := renderWriter(opts)
	if err != nil {
		return err
	}
	doc, err := loadForRender(opts)
	if err != nil {
		return err
	}
	if err := checkHandout(opts, doc); err != nil {
		return err
	}
	out, err := renderTarget(opts, doc)
	if err != nil {
		return err
	}
	fontDir := ""
	if opts.format == "md" {
		if write, fontDir, err = marpFonts(opts, doc, out); err != nil {
			return err
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
	if fontDir != "" {
		if err := writeFonts(opts, fontDir); err != nil {
			return err
		}
	}
	return writeRendered(opts, out, buf.Bytes())
}

// loadForRender loads the lesson and all its children; a lesson that is
// invalid (its problems printed) or cannot be read is the input's problem
// (exit 2). Layout warnings do not stop a render: seeing the defect is
// the point.
func loadForRender(opts *renderOptions) (*compose.Document, error) {
	doc, err := compose.Load(opts.file, opts.reg)
	if err == nil {
		err = doc.LoadAll()
	}
	var problems yamlsrc.Problems
	if errors.As(err, &problems) {
		printProblems(opts.io, problems)
		return nil, printed(usagef("%s is invalid; nothing rendered", opts.file))
	}
	if err != nil {
		// The lesson or a child file cannot be read: the input's problem.
		return nil, &usageError{err}
	}
	printProblems(opts.io, doc.Warnings)
	return doc, nil
}

// checkAllowPending refuses --allow-pending where it draws no gaps.
func checkAllowPending(opts *renderOptions) error {
	if opts.allowPending && !opts.handout {
		return usagef("--allow-pending is for --handout: the teacher's copy always shows what is pending, with its hints")
	}
	if opts.allowPending && opts.format == "md" {
		return usagef("--allow-pending draws gaps in the HTML, PDF and PowerPoint handouts only; render the %s handout once nothing is pending", opts.format)
	}
	return nil
}

// checkHandout refuses a handout of a lesson with pending spots, naming
// them, unless --allow-pending: their hints are written for a model, and
// would reach pupils as if they were the lesson.
func checkHandout(opts *renderOptions, doc *compose.Document) error {
	if !opts.handout || opts.allowPending {
		return nil
	}
	spots := pendingSpots(doc)
	if len(spots) == 0 {
		return nil
	}
	return usagef("%s: a handout would print %s still pending, with the hints written for the model that fills them:\n  %s\n"+
		"generate them first (lessongen generate %s), or pass --allow-pending to print each as an empty gap for the teacher to fill",
		opts.file, plural(len(spots), "spot"), strings.Join(spots, "\n  "), opts.file)
}

// pendingSpots names every pending spot of doc as plan does: the
// lesson's, then each child's under its slide.
func pendingSpots(doc *compose.Document) []string {
	var out []string
	name := func(where string, p session.Pending) string {
		line := where + p.Name()
		if p.Hint != "" {
			line += fmt.Sprintf(" - %q", p.Hint)
		}
		return termsafe.Line(line)
	}
	doc.View(func(p *lesson.Plan) {
		for _, s := range p.Pending() {
			out = append(out, name("", s))
		}
	})
	for _, id := range doc.Session().Children() {
		child, err := doc.Session().WarmChild(id)
		if err != nil {
			continue // loadForRender loaded every child: none fails here
		}
		child.View(func(st session.State) {
			for _, s := range st.Pending() {
				out = append(out, name(partLabel("slides/"+id.Placement+"/"+id.Kind, "")+": ", s))
			}
		})
	}
	return out
}

// renderTarget is the file render writes: -o, else FILE with the
// format's extension; - is stdout. One of the lesson's files, or a
// folder, is refused.
func renderTarget(opts *renderOptions, doc *compose.Document) (string, error) {
	out := opts.out
	if out == "" {
		out = strings.TrimSuffix(opts.file, filepath.Ext(opts.file)) + "." + opts.format
	}
	if out != "-" {
		out = filepath.Clean(out)
		// "-": nothing is saved, so only the lesson's own files are refused.
		if err := doc.CheckSideFile(out, "-"); err != nil {
			return "", usagef("-o %v", err)
		}
		if fi, err := os.Stat(out); err == nil && fi.IsDir() {
			return "", usagef("-o %s is a folder; name the output file, e.g. %s", out, filepath.Join(out, "lesson."+opts.format))
		}
	}
	return out, nil
}

// writeRendered writes the rendered lesson to out, or stdout for -.
func writeRendered(opts *renderOptions, out string, data []byte) error {
	// Controls and bidi overrides in lesson text are written as character
	// references: the page shows the same, a terminal (-o -, cat) no
	// escape sequence.
	// A deck is a zip, whose bytes are not text: it is written as made
	// (the pptx writer drops controls from the text it holds).
	if !binaryFormat[opts.format] {
		data = []byte(termsafe.Markup(string(data)))
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

// binaryFormat names the formats whose files are not text: a deck is a
// zip, a PDF a binary stream.
var binaryFormat = map[string]bool{"pptx": true, "pdf": true}

// renderWriter is the writer for opts.format, or a usage error: an
// unknown format, a binary file to the terminal, or a PDF with no
// browser to print it, all before any work.
func renderWriter(opts *renderOptions) (render.Writer, error) {
	var write render.Writer
	switch opts.format {
	case "html":
		write = render.HTMLWriterWith(render.HTMLOptions{Handout: opts.handout, Present: opts.present, Gaps: opts.allowPending})
	case "md":
		write = render.MarkdownWriter(opts.handout)
	case "pptx":
		write = render.PPTXWriterWith(render.PPTXOptions{Handout: opts.handout, Gaps: opts.allowPending})
	case "pdf":
		browser, err := render.FindBrowser(opts.chromium)
		if err != nil {
			return nil, usagef("--format pdf prints through headless Chromium: %v; %s", err, render.InstallBrowser)
		}
		ctx := opts.ctx
		if ctx == nil {
			ctx = context.Background()
		}
		write = render.PDFWriterWith(ctx, browser, render.HTMLOptions{Handout: opts.handout, Gaps: opts.allowPending})
	default:
		return nil, usagef("--format must be html, md, pptx or pdf, got %q", opts.format)
	}
	if opts.present && opts.format != "html" {
		return nil, usagef("--present is for --format html")
	}
	if err := checkAllowPending(opts); err != nil {
		return nil, err
	}
	if binaryFormat[opts.format] && opts.out == "-" && opts.io.OutTTY {
		// On a terminal a zip's or PDF's bytes are noise (and the
		// terminal's sanitiser would break them anyway).
		return nil, usagef("-o - would write the %s file's bytes to the terminal; name a file (-o lesson.%s) or pipe the output", strings.ToUpper(opts.format), opts.format)
	}
	return write, nil
}
