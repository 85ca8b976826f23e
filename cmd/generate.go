package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/internal/redact"
	"github.com/lessongen/lessongen/internal/regfile"
	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/internal/termsafe"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/orchestrate"
)

// generateOptions are what generate and fill were asked to do. The
// command fills them from its flags and arguments; a test may fill them
// itself and call runGenerate, with no cobra.
type generateOptions struct {
	io  *IOStreams
	reg *modality.Registry
	// settings reads the run's settings: flags, environment, config file.
	settings func() (*settings, error)
	// approveGiven: --approve was given on the command line, not only
	// configured.
	approveGiven bool
	file         string
	out          string
	slide        string
	metadata     bool
	kinds        map[string]*bool // a flag per registered child kind: fill --slide ID --KIND
	rewrite      bool
	instruction  string
	dryRun       bool
	quiet        bool
	json         bool
	interactive  bool
	// lessons narrows a course file's run (--lessons 3,5).
	lessons string
}

// newCmdGenerate builds generate; runF, when set, runs in place of
// runGenerate with the options the flags filled (tests).
func newCmdGenerate(f *factory, runF func(*generateOptions) error) *cobra.Command {
	reg := f.registry
	opts := &generateOptions{io: f.io, reg: reg}
	cmd := &cobra.Command{
		Use:   "generate FILE",
		Short: "Fill everything pending in a lesson",
		Long: `Fill everything pending in a lesson: its metadata, its slides, then every
slide's children (` + kindList(reg) + `; several at once, see --concurrency), each by a small
tool-calling model subagent. The lesson is written back to FILE (or -o),
with everything you wrote left exactly as it was.

After each node finishes, its files are saved, and the lesson file at most
once per --checkpoint-interval (1s), so a killed run loses at most the nodes
in flight and that last interval, and a rerun does only what is still
pending. The first Ctrl-C stops at the next safe point and saves everything;
a second stops at once.

Edits you save to the lesson or its whiteboard files during the run are
merged with the run's changes; where both changed one spot, your file is
kept and the run's version is saved beside it as FILE.lessongen-conflict.
Only one generate or fill runs on a lesson (and its files) at a time.

The model is any OpenAI-compatible server: set the API key in
LESSONGEN_API_KEY or OPENAI_API_KEY (or api_key in the config file), and
for a local server its --base-url (e.g. http://localhost:11434/v1).

--record FILE saves every model request and answer; --replay FILE answers
from such a recording with no network and no key (a request it lacks is
exit 2, with how it differs from the nearest recorded one).

Exit codes: 0 done, 1 provider or internal failure, 2 invalid input, the
lesson is locked by another run, or a replay miss, 3 some nodes still pending, failed or
left defects, or an edit conflicts (the rest is saved), 130 interrupted (Ctrl-C, or
"q" at an --approve ask question).

--dry-run calls the model (it costs a full run) and applies every change
to a scratch copy of the lesson, then prints the unified diff the run
would make to each file; nothing is written. 'lessongen plan' is the free
preview of what would be asked.

FILE may be a course file (a top-level course: key listing lesson files):
then the course's own pending parts run first, and every lesson is
generated, side by side, under one --concurrency, rate limit and budget;
--lessons 3,5 (positions or names) narrows it.`,
		Example: `  export OPENAI_API_KEY=...
  lessongen generate examples/photosynthesis/lesson.yaml -o /tmp/photosynthesis.yaml
  lessongen generate lesson.yaml --base-url http://localhost:11434/v1 --model llama3.1 --tool-schema compatible
  lessongen generate lesson.yaml --dry-run
  lessongen generate examples/photosynthesis/lesson.yaml --replay examples/photosynthesis/recording.jsonl -o /tmp/p/lesson.yaml
  lessongen generate lesson.yaml --quiet --json > summary.json
  lessongen generate course.yaml --lessons 2,3`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.file = args[0]
			opts.bind(f, cmd)
			if runF != nil {
				return runF(opts)
			}
			return runGenerate(cmd.Context(), opts)
		},
	}
	addGenerateFlags(cmd, opts)
	cmd.Flags().StringVar(&opts.lessons, "lessons", "", "with a course file: generate only these lessons (1-based positions or names, comma-separated)")
	return cmd
}

// newCmdFill builds fill; runF as for newCmdGenerate, after the check
// that fill names one node.
func newCmdFill(f *factory, runF func(*generateOptions) error) *cobra.Command {
	reg := f.registry
	opts := &generateOptions{io: f.io, reg: reg}
	cmd := &cobra.Command{
		Use:   "fill FILE --slide ID [--" + strings.ReplaceAll(kindList(reg), ", ", " | --") + "] | --metadata",
		Short: "Fill or refine one slide, one of its children, or the lesson's metadata",
		Long: `Fill what is pending on one slide: its own fields (title, notes, ...) and
then its children (` + kindList(reg) + `), with the lesson's context built from the root down.
Nothing outside that slide changes. --` + strings.ReplaceAll(kindList(reg), ", ", " or --") + ` limits it to
that child of the slide; --metadata fills the lesson's metadata instead.

With --instruction, the node named is refined even when nothing is pending:
its subagent continues its saved conversation with the instruction and may
move, resize, restyle, rewrite or remove what earlier runs generated (as
long as nobody edited it since), and add what is asked. What the author
wrote stays locked; --rewrite lets the instruction change it too, each
change shown as a diff and approved on the terminal (with --approve auto, or
without a terminal, --rewrite is refused).

The slide is named by its id or its 1-based position. Everything else
works as in 'lessongen generate'.`,
		Example: "  lessongen fill lesson.yaml --slide light\n" +
			"  lessongen fill lesson.yaml --slide 3 --instruction \"use a cross-section\"\n" +
			"  lessongen fill lesson.yaml --slide why-not --" + reg.Children()[0].Name + " --instruction \"make the two bars bigger\"\n" +
			"  lessongen fill lesson.yaml --metadata --instruction \"one more misconception\"",
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.file = args[0]
			opts.bind(f, cmd)
			if err := checkFillScope(opts); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runGenerate(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.slide, "slide", "", "the slide to fill: its id or 1-based position")
	cmd.Flags().BoolVar(&opts.metadata, "metadata", false, "fill (with --instruction: refine) the lesson's metadata instead of a slide")
	opts.kinds = map[string]*bool{}
	for _, d := range reg.Children() {
		opts.kinds[d.Name] = cmd.Flags().Bool(d.Name, false, "with --slide: only the slide's "+d.Name)
	}
	cmd.Flags().BoolVar(&opts.rewrite, "rewrite", false, "with --instruction: the author's content may change too, each change approved on the terminal (--approve ask)")
	addGenerateFlags(cmd, opts)
	completeSlide(cmd, reg)
	return cmd
}

// checkFillScope checks that fill names one node: a slide (and maybe some
// of its children's kinds) or the lesson's metadata.
func checkFillScope(opts *generateOptions) error {
	kinds := opts.kindNames()
	switch {
	case opts.metadata && opts.slide != "":
		return usagef("fill takes --slide ID or --metadata, not both")
	case opts.metadata && len(kinds) > 0:
		return usagef("--%s names a slide's child; use it with --slide ID, not --metadata", kinds[0])
	case !opts.metadata && opts.slide == "":
		return usagef("fill needs --slide ID (a slide id or 1-based position) or --metadata")
	case opts.rewrite && opts.instruction == "":
		return usagef("--rewrite changes the author's content as an --instruction asks; give --instruction")
	}
	return nil
}

// checkRewrite refuses --rewrite where nobody can approve each change to
// the author's content: without a terminal (CI), with --approve auto given
// (which would apply them unseen), or in a dry run.
func checkRewrite(opts *generateOptions, approval bridge.Approval, dryRun bool) error {
	switch {
	case !opts.rewrite:
		return nil
	case dryRun:
		return usagef("--rewrite asks before each change to what the author wrote; a --dry-run cannot ask: drop one of them")
	case approval == bridge.ApproveAuto && opts.approveGiven:
		return usagef("--rewrite asks before each change to what the author wrote; --approve auto would apply them unseen: drop --approve auto")
	case !opts.io.InTTY:
		return usagef("--rewrite changes what the author wrote, each change approved on the terminal, and stdin is not a terminal (CI?): refine without --rewrite, or run it at a terminal")
	}
	return nil
}

// kindNames lists the child kinds whose flag is set, in registry order.
func (o *generateOptions) kindNames() []string {
	var names []string
	for _, d := range o.reg.Children() {
		if p := o.kinds[d.Name]; p != nil && *p {
			names = append(names, d.Name)
		}
	}
	return names
}

func addGenerateFlags(cmd *cobra.Command, opts *generateOptions) {
	cmd.Flags().StringVarP(&opts.out, "output", "o", "", "write the result here instead of back to FILE (- for stdout)")
	cmd.Flags().StringVar(&opts.instruction, "instruction", "", "an extra request passed to every subagent")
	cmd.Flags().BoolVar(&opts.dryRun, "dry-run", false, "call the model, but print the diff the run would make instead of writing (plan is the free preview)")
	cmd.Flags().BoolVar(&opts.quiet, "quiet", false, "print nothing but errors (and, when a run is left unfinished, its summary saying why)")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the summary as one JSON object on stdout")
	cmd.Flags().BoolVar(&opts.interactive, "interactive", false, "let subagents ask you questions on the terminal (ask_author); without it they choose and say so in the notes")
	addModelFlags(cmd.Flags())
	completeModelFlags(cmd)
}

// bind reads what the command line holds beyond the options' own
// fields: the settings (through f, as every command reads them) and
// whether --approve was given.
func (o *generateOptions) bind(f *factory, cmd *cobra.Command) {
	o.settings = func() (*settings, error) { return f.settings(cmd) }
	o.approveGiven = cmd.Flags().Changed("approve")
}

// info is where what is neither a result nor an error goes: stderr, or
// nowhere with --quiet, which prints nothing but errors.
func (opts *generateOptions) info() io.Writer {
	if opts.quiet {
		return io.Discard
	}
	return opts.io.ErrOut
}

// finishIdle ends a run that had nothing to generate as any run ends:
// the lesson at file (none for a dry run or stdout) checked as validate
// --strict checks it, whatever fails it named (exit 3), and with --json
// the one summary object. loaded, when set, is that lesson as the run
// loaded it and wrote nothing since: it is checked instead of reading
// the file again (a no-op generate then costs a validate).
func finishIdle(opts *generateOptions, srcs *sources.Sandbox, file string, loaded *compose.Document, written []string, start time.Time) error {
	sum := summarizeRun(orchestrate.Report{}, nil, time.Since(start), written)
	switch {
	case file != "" && loaded != nil:
		sum.addStrict(strictCheckLoaded(file, loaded, opts.reg, srcs))
	case file != "":
		sum.addStrict(strictCheck(file, opts.reg, srcs))
	}
	if len(sum.Strict) > 0 {
		printSummary(opts.io.ErrOut, sum)
	}
	if opts.json {
		if err := writeSummaryJSON(opts.io.Out, sum); err != nil {
			return err
		}
	}
	if len(sum.Strict) > 0 {
		return printed(ErrPartial)
	}
	return nil
}

// printWrote names the files written, on stdout. With --json, stdout is
// the summary alone (the files are in it).
func printWrote(opts *generateOptions, paths []string) {
	if opts.json || opts.quiet {
		return
	}
	for _, p := range paths {
		fmt.Fprintf(opts.io.Out, "wrote %s\n", p)
	}
}

// loadLesson loads a lesson; a file that cannot be read is the user's to
// fix (exit 2), like one that does not parse.
func loadLesson(path string, reg *modality.Registry) (*compose.Document, error) {
	doc, err := compose.Load(path, reg)
	var problems yamlsrc.Problems
	if err != nil && !errors.As(err, &problems) {
		return nil, &usageError{err}
	}
	return doc, err
}

// save writes every changed file atomically (with lesson false, only the
// children kept in their own files), keeping edits the author saved during
// the run (see compose.Saver), and returns the paths it wrote.
func save(saver *compose.Saver, out string, lesson bool, errOut io.Writer) ([]string, error) {
	write := saver.Save
	if !lesson {
		write = saver.SaveChildren
	}
	files, err := write(out)
	var paths []string
	for _, f := range files {
		if f.Reformatted {
			fmt.Fprintf(errOut, "lessongen: warning: %s could not be changed in place; it was written fresh, with all its data but without its comments and layout\n", f.Path)
		}
		paths = append(paths, f.Path)
	}
	return paths, err
}

// printConflicts names every file whose author's edit could not be merged.
func printConflicts(w io.Writer, conflicts []compose.FileConflict) {
	for _, c := range conflicts {
		fmt.Fprintf(w, "lessongen: conflict: %s\n", c)
	}
	if len(conflicts) > 0 {
		fmt.Fprintf(w, "  compare the two, keep what you want in the original, and delete the %s file(s)\n", compose.ConflictSuffix)
	}
}

// lessonOnly reports whether the steps can change only the lesson file, so
// that -o - (one file) holds everything: the lesson keeps no child in its
// own file, or every step is on a slide (fill --slide) none of whose
// children is kept in its own file.
func lessonOnly(doc *compose.Document, steps []orchestrate.Step) bool {
	if len(doc.ChildFiles()) == 0 {
		return true
	}
	withFiles := map[string]bool{}
	doc.View(func(p *lesson.Plan) {
		for _, s := range p.Slides.Value {
			for _, ref := range s.Children {
				if ref.File != "" {
					withFiles[s.ID] = true
				}
			}
		}
	})
	for _, st := range steps {
		if st.Slide == "" || withFiles[st.Slide] {
			return false
		}
	}
	return true
}

func newModel(cfg *settings, wrap func(http.RoundTripper) http.RoundTripper, errOut io.Writer) (llm.Model, error) {
	if cfg.APIKey == "" && cfg.Replay == "" && cfg.BatchDir == "" && strings.HasPrefix(cfg.BaseURL, defaultBaseURL) {
		// Missing configuration: the user's to fix (exit 2).
		return nil, usagef("no API key for %s\nfix: set LESSONGEN_API_KEY or OPENAI_API_KEY (or api_key in the config file), or point --base-url at a local OpenAI-compatible server", redact.URL(cfg.BaseURL))
	}
	var clock llm.Clock
	if cfg.Replay != "" {
		clock = llm.NoWait // recorded errors replay without their backoff
	}
	c := llm.Config{
		BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, Model: cfg.Model, Clock: clock, Warn: warnOnce(errOut),
		Temperature: cfg.Temperature, Seed: cfg.Seed, MaxTokens: cfg.MaxTokens,
		TurnTimeout: cfg.Timeout, AttemptTimeout: cfg.AttemptTimeout, Limiter: llm.NewLimiter(cfg.RPS, max(1, cfg.Concurrency)),
		MaxRetries: retries(cfg.Retries),
		TokenField: cfg.TokenField, NoParallelToolCalls: !cfg.ParallelToolCalls,
		IdleConns: max(1, cfg.Concurrency), Stream: cfg.Stream, WrapTransport: wrap,
		MaxAnswerBytes: cfg.MaxAnswerBytes, ImageModel: imageModel(cfg),
	}
	modelWire(cfg, &c)
	return llm.New(c)
}

// explainProvider adds which setting to fix to a provider failure. The
// base URL is shown without its credentials.
func explainProvider(err error, cfg *settings) error {
	base := redact.URL(cfg.BaseURL)
	switch {
	case errors.Is(err, llm.ErrAuth):
		return fmt.Errorf("%w\nfix: set LESSONGEN_API_KEY or OPENAI_API_KEY (or api_key in the config file) to a key %s accepts", err, base)
	case errors.Is(err, llm.ErrNotFound):
		return fmt.Errorf("%w\nfix: check --model (%q) and --base-url (%s)", err, cfg.Model, base)
	case errors.Is(err, llm.ErrUnreachable), errors.Is(err, llm.ErrBadResponse):
		return fmt.Errorf("%w\nfix: check --base-url (%s) and that the server is running", err, base)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%w\nfix: raise --timeout (%s) or --attempt-timeout (%s), or check the server", err, cfg.Timeout, cfg.AttemptTimeout)
	}
	return err
}

// openEvents opens the JSON Lines log; a file gets the redacting writer
// (stderr already has it).
func openEvents(path string, io *IOStreams, red *redact.Redactor) (event.Sink, func(), error) {
	switch path {
	case "":
		return event.Discard, func() {}, nil
	case "-":
		return event.JSONLines(safeJSON{io.ErrOut}, time.Now), func() {}, nil
	}
	f, err := regfile.Create(path, false)
	if err != nil {
		return nil, nil, usagef("events file: %v", err)
	}
	w := red.Writer(f)
	return event.JSONLines(w, time.Now), func() { w.Flush(); f.Close() }, nil
}

// safeJSON writes each JSON value (one per Write, as json.Encoder does)
// with DEL, C1 controls and bidi overrides as \u escapes: the same JSON,
// which stderr's sanitiser then leaves as it is.
type safeJSON struct{ w io.Writer }

func (s safeJSON) Write(p []byte) (int, error) {
	if _, err := s.w.Write(termsafe.JSON(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// retries maps the setting (0 = none) onto llm.Config (0 = default, <0 = none).
func retries(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// openSources opens the --sources folders as the read-only sandbox; nil
// when there are none.
func openSources(dirs []string) (*sources.Sandbox, error) {
	dirs = slices.DeleteFunc(slices.Clone(dirs), func(d string) bool { return strings.TrimSpace(d) == "" })
	if len(dirs) == 0 {
		return nil, nil
	}
	sb, err := sources.Open(dirs)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return sb, nil
}
