package cmd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/course"
	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/internal/redact"
	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/internal/statedir"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/orchestrate"
	"github.com/lessongen/lessongen/render"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/templates"
	"github.com/lessongen/lessongen/tool"
)

// runGenerate is generate's and fill's run: it reads the options and the
// lesson, checks everything before any model request, hands the run to
// orchestrate.Generate (which saves, checkpoints and says how it ended),
// and prints what it did. The exit code is exitCode's, from the error.
func runGenerate(ctx context.Context, opts *generateOptions) error {
	if course.Sniff(opts.file) {
		return runCourse(ctx, opts)
	}
	if opts.lessons != "" {
		return usagef("--lessons narrows a course file's run; %s is a lesson", opts.file)
	}
	start := time.Now()
	check := func(*settings) error {
		if opts.interactive && !opts.io.InTTY {
			return usagef("--interactive needs a terminal on stdin to ask; drop it in scripts and CI (subagents then choose and say so)")
		}
		return nil
	}
	return prepared(opts, check, func(o *generateOptions, cfg *settings, srcs *sources.Sandbox, red *redact.Redactor) error {
		g := &generation{opts: o, cfg: cfg, start: start, srcs: srcs, red: red, resumeWith: resumeCommand(ctx, red.String)}
		return g.run(ctx)
	})
}

// prepared reads the run's settings, checks them (check), opens the
// sources, and runs fn with opts' streams redacted: from there on every
// byte out (streams, events, the error returned) goes through the run's
// redactor. Generate's and a course's runs start so.
func prepared(opts *generateOptions, check func(*settings) error, fn func(*generateOptions, *settings, *sources.Sandbox, *redact.Redactor) error) (err error) {
	cfg, err := opts.settings()
	if err != nil {
		return err
	}
	if err := check(cfg); err != nil {
		return err
	}
	srcs, err := openSources(cfg.Sources)
	if err != nil {
		return err
	}
	defer srcs.Close()
	red := newRedactor(cfg)
	streams, flush := redactedStreams(opts.io, red)
	defer flush()
	defer func() { err = red.Error(err) }()
	o := *opts
	o.io = streams
	return fn(&o, cfg, srcs, red)
}

// generation is one generate or fill run once its settings are read.
type generation struct {
	opts  *generateOptions // its streams redacted
	cfg   *settings
	start time.Time
	srcs  *sources.Sandbox
	red   *redact.Redactor

	approval bridge.Approval
	form     bridge.Form
	tmpl     *templates.Set
	doc      *compose.Document
	tp       *tape
	state    stateDirs
	// historyFrom is the state folder conversations continue from.
	historyFrom string
	scope       orchestrate.Scope
	steps       []orchestrate.Step
	dryRun      bool
	toStdout    bool
	saver       *compose.Saver
	// events is the run's event sink, once it runs.
	events event.Sink
	// strict is what validate --strict found in the lesson as saved.
	strict yamlsrc.Problems
	// course, for a lesson run by a course run: its model, what it
	// shares with the other lessons, and its describe chain above it.
	course   *lessonOfCourse
	batchLog lineLog // where --batch says which batch it waits on
	// origin is what the lesson file the run writes was made from
	// (originFile): set for a run to another file and kept for one in
	// place; nil records nothing.
	origin *origin
	// resumeWith is the command that continues the run if it stops
	// short ("" when unknown).
	resumeWith string
}

func (g *generation) run(ctx context.Context) error {
	if err := checkBatch(g.cfg); err != nil {
		return err
	}
	if err := g.read(); err != nil {
		return err
	}
	if err := g.check(); err != nil {
		return err
	}
	opts := g.opts
	if len(g.steps) == 0 && opts.out == "" {
		// A finished lesson written back in place: nothing to run and
		// nothing to write, so no lock file and no save (the cost of a
		// validate).
		fmt.Fprintf(opts.info(), "%s: nothing to do; nothing is pending.\n", opts.file)
		sweepOnly(g.doc, opts.io.ErrOut)
		return finishIdle(opts, g.srcs, opts.file, g.doc, nil, g.start)
	}
	release, err := g.lock()
	if err != nil {
		return err
	}
	defer release()
	g.saver = compose.NewSaver(g.doc)
	if err := g.recoverJournal(); err != nil {
		return err
	}
	if len(g.steps) == 0 {
		return g.idle()
	}
	return g.generate(ctx)
}

// read reads the settings' values, the lesson and the run's plan; every
// error is the user's to fix (exit 2) but a lesson that cannot be read.
func (g *generation) read() error {
	opts, cfg := g.opts, g.cfg
	var err error
	if g.approval, err = bridge.ParseApproval(cfg.Approve); err != nil {
		return &usageError{err}
	}
	if g.form, err = bridge.ParseForm(cfg.ToolSchema); err != nil {
		return &usageError{err}
	}
	// Pictures are drawn only by a run that writes files (images).
	if err := checkMaxCost(cfg, cfg.Images && !opts.dryRun && opts.out != "-"); err != nil {
		return err
	}
	if g.course == nil && cfg.Replay == "" {
		printModelNotes(g.opts.io.ErrOut, cfg, time.Now())
	}
	if g.tmpl, err = templates.Load(cfg.Templates, templateLevels(opts.reg)); err != nil {
		return &usageError{err}
	}
	if g.doc, err = loadLesson(opts.file, opts.reg); err != nil {
		return err
	}
	if err := checkPaths(g.doc, opts, cfg.Events); err != nil {
		return err
	}
	if err := g.resume(); err != nil {
		return err
	}
	if g.tp, err = openTape(cfg, g.doc, opts.out); err != nil {
		return err
	}
	if g.state, err = stateFor(cfg.StateDir, opts.file, opts.out); err != nil {
		return err
	}
	g.historyFrom = g.state.dir
	g.keepOrigin()
	if err := g.doc.CheckSideFile(g.state.dir, opts.out); err != nil {
		return usagef("--state-dir %v", err)
	}
	g.scope = orchestrate.Scope{Slide: opts.slide, Metadata: opts.metadata, Kinds: opts.kindNames(),
		Refine: (opts.slide != "" || opts.metadata) && opts.instruction != ""}
	if g.course != nil {
		g.scope.Above = g.course.above
	}
	if g.steps, err = orchestrate.Plan(g.doc, opts.reg, g.scope); err != nil {
		return &usageError{err}
	}
	return nil
}

// check refuses the combinations of outputs and approvals the run cannot
// honour, and turns the old --approve deny into --dry-run.
func (g *generation) check() error {
	opts := g.opts
	g.toStdout = opts.out == "-"
	if g.toStdout && !lessonOnly(g.doc, g.steps) {
		return usagef("-o - writes one file, but this run may change children kept in their own files; use -o PATH")
	}
	g.dryRun = opts.dryRun
	if g.approval == bridge.ApproveDeny {
		// The old dry run spent a model run and showed nothing; --dry-run
		// shows the diff.
		fmt.Fprintln(opts.io.ErrOut, "lessongen: note: --approve deny is deprecated; it now means --dry-run (calls the model, prints the diff, writes nothing)")
		g.dryRun, g.approval = true, bridge.ApproveAuto
	}
	if g.dryRun && g.toStdout {
		return usagef("--dry-run prints a diff and writes nothing; drop -o -")
	}
	return checkRewrite(opts, g.approval, g.dryRun)
}

// writes reports whether the run writes files (not a dry run, not -o -).
func (g *generation) writes() bool { return !g.toStdout && !g.dryRun }

// journals reports whether the run keeps a journal of finished nodes in
// its state folder (orchestrate.JournalFile): it writes files and
// checkpoints (a replay saves only at the end).
func (g *generation) journals() bool { return g.writes() && g.cfg.Replay == "" }

// inPlace reports whether the run writes the lesson file it loaded.
func (g *generation) inPlace() bool {
	if g.opts.out == "" {
		return true
	}
	a, errA := os.Stat(g.opts.out)
	b, errB := os.Stat(g.opts.file)
	return errA == nil && errB == nil && os.SameFile(a, b)
}

// recoverJournal puts back the nodes a killed run finished after it last
// wrote the lesson (orchestrate.RecoverJournal), before anything is
// planned from the lesson, and says so.
func (g *generation) recoverJournal() error {
	if !g.journals() {
		return nil
	}
	rec, err := orchestrate.RecoverJournal(g.doc, g.opts.reg, g.state.dir, g.doc.Sum())
	if err != nil {
		return err
	}
	switch {
	case rec.Stale != "" && rec.Headless:
		fmt.Fprintf(g.opts.io.ErrOut, "lessongen: warning: %s was not applied: it does not start with the header lessongen writes, so it is no journal of this lesson; set aside as %s\n", filepath.Join(g.state.dir, orchestrate.JournalFile), rec.Stale)
	case rec.Stale != "":
		fmt.Fprintf(g.opts.io.ErrOut, "lessongen: warning: the journal of a run that was killed was not applied: %s changed since that run last wrote it; set aside as %s\n", g.opts.file, rec.Stale)
	}
	if rec.Nodes == 0 {
		return nil
	}
	fmt.Fprintf(g.opts.info(), "lessongen: note: %d node(s) a killed run finished were put back from its journal (%s)\n", rec.Nodes, filepath.Join(g.state.dir, orchestrate.JournalFile))
	g.steps, err = orchestrate.Plan(g.doc, g.opts.reg, g.scope)
	return err
}

// lock checks that the run can save, takes the lock on what it writes,
// and readies the state folder under it.
func (g *generation) lock() (release func(), err error) {
	opts := g.opts
	if g.writes() {
		if err := checkOwnNames(g.doc, opts.out, g.srcs != nil || g.cfg.Images); err != nil {
			return nil, err
		}
	}
	// Writability first: it names an unwritable target plainly, where the
	// lock would only fail to create its file beside it.
	if len(g.steps) > 0 && g.writes() {
		if err := prepareSave(g.doc, opts, g.steps); err != nil {
			return nil, err
		}
	}
	release, err = lockRun(g.doc, opts.out, g.dryRun, opts.io.ErrOut)
	if err != nil {
		return nil, err
	}
	if g.writes() {
		sweep(g.doc, opts.out, opts.io.ErrOut)
		// Under the lock: migrating or copying state moves files another
		// run on this lesson could be reading.
		if g.historyFrom, err = g.state.prepare(opts.io.ErrOut, g.cfg.Replay != ""); err != nil {
			release()
			return nil, err
		}
	}
	return release, nil
}

// idle ends a run with nothing pending that still writes its output (-o).
func (g *generation) idle() error {
	opts := g.opts
	fmt.Fprintf(opts.info(), "%s: nothing to do; nothing is pending.\n", opts.file)
	if g.dryRun {
		return finishIdle(opts, g.srcs, "", nil, nil, g.start)
	}
	paths, err := g.store(opts.io.ErrOut).Save()
	printWrote(opts, paths)
	g.recordOrigin(event.StatusDone)
	if err == nil && g.journals() {
		err = orchestrate.RemoveJournal(g.state.dir)
	}
	if err != nil {
		return err
	}
	if g.toStdout {
		return finishIdle(opts, g.srcs, "", nil, paths, g.start)
	}
	return finishIdle(opts, g.srcs, opts.out, nil, paths, g.start)
}

// store is where the run saves: the lesson to stdout (-o -), or its files
// through the saver, a save's warnings during the run going to errOut.
func (g *generation) store(errOut io.Writer) orchestrate.Store {
	if g.toStdout {
		return stdoutStore{doc: g.doc, out: g.opts.io.Out, errOut: g.opts.io.ErrOut}
	}
	return &fileStore{saver: g.saver, out: g.opts.out, during: errOut, final: g.opts.io.ErrOut,
		wroteLesson: func() { g.recordOrigin(statusRunning) }}
}

// generate runs the subagents (orchestrate.Generate) with the live
// progress view, then reports.
func (g *generation) generate(ctx context.Context) error {
	cfg, opts := g.cfg, g.opts
	br, model, err := g.client()
	defer g.tp.close()
	if err != nil {
		return err
	}
	progress := newProgress(opts.io)
	progress.SetTotal(len(g.steps))
	// Whatever else prints to stderr while the live frame is up goes above
	// it; the asker keeps the raw stream, as it pauses the frame first.
	runIO := *opts.io
	runIO.ErrOut = progress.Writer()
	g.batchLog.set(runIO.ErrOut)
	defer log.SetOutput(log.Writer())
	log.SetOutput(runIO.ErrOut)
	sink, closeEvents, err := openEvents(cfg.Events, &runIO, g.red)
	if err != nil {
		progress.Close()
		return err
	}
	defer closeEvents()
	if opts.quiet {
		progress.Quiet()
	}
	// "q" at a question stops the run as Ctrl-C does: at a safe point, saved.
	ctx, quit := context.WithCancelCause(ctx)
	defer quit(nil)
	g.tp.setStop(quit)
	run := g.runOptions(br, model, progress, quit, runIO.ErrOut)
	run.Events = event.Redacted(event.Tee(sink, progress.Sink, g.metadataEnded()), g.red.String)
	g.events = run.Events
	run.Events(event.Event{Kind: event.RunStart, Text: fmt.Sprintf("%s: %s", opts.file, countSubagents(g.steps))})
	if cfg.Browser != "" {
		shooter := render.NewShooter(cfg.Browser)
		defer shooter.Close()
		run.Shoot = shooter.Shot
	}
	res, err := orchestrate.Generate(ctx, g.doc, g.scope, run)
	// After the live frame is closed, so the lines are not drawn over.
	progress.Close()
	if le := (*statedir.LinkError)(nil); errors.As(err, &le) {
		// A link or pipe planted in the state a dry run (or a run to
		// stdout) reads without preparing the folder: the user's to fix.
		return &usageError{err}
	}
	if err != nil {
		return err
	}
	return g.report(res)
}

// client is the run's bridge and model client; the --record file is
// created here, under the lock.
func (g *generation) client() (*bridge.Bridge, llm.Model, error) {
	br, err := g.bridge()
	if err != nil {
		return nil, nil, err
	}
	if err := g.tp.create(g.cfg, g.red); err != nil {
		return nil, nil, err
	}
	model, err := g.newModel()
	if err != nil {
		return nil, nil, err
	}
	batchDir := ""
	if g.writes() {
		batchDir = g.state.dir
	}
	if model, err = batchModel(g.cfg, model, batchDir, &g.batchLog); err != nil {
		return nil, nil, err
	}
	if g.approval == bridge.ApproveAsk && !g.opts.io.InTTY {
		return nil, nil, usagef("--approve ask needs a terminal on stdin to ask; use auto or --dry-run in scripts and CI")
	}
	return br, model, nil
}

// metadataEnded tells a course run when the lesson's metadata level has
// ended (lessonOfCourse.ready); a lesson alone needs no telling.
func (g *generation) metadataEnded() event.Sink {
	if g.course == nil {
		return event.Discard
	}
	root := g.opts.reg.Root()
	level := root.Level(session.LevelMetadata).Name
	return func(e event.Event) {
		if e.Kind == event.NodeEnd && e.Node == root.Name && e.Level == level {
			g.course.ready(g.doc)
		}
	}
}

// bridge is the run's tool catalogs; a course's lessons share one.
func (g *generation) bridge() (*bridge.Bridge, error) {
	if g.course != nil {
		return g.course.bridge, nil
	}
	return newBridge(g.opts.reg)
}

// newBridge derives a run's tool catalogs; a test counts its calls.
var newBridge = bridge.New

// newModel is the run's model client; a course's lessons share one.
func (g *generation) newModel() (llm.Model, error) {
	if g.course != nil {
		return g.course.model, nil
	}
	return newModel(g.cfg, g.tp.wrap(), g.opts.io.ErrOut)
}

// runOptions are the settings of orchestrate.Generate but its events and
// screenshots; a save's warnings during the run go to errOut.
func (g *generation) runOptions(br *bridge.Bridge, model llm.Model, progress *progress, quit context.CancelCauseFunc, errOut io.Writer) orchestrate.GenerateOptions {
	cfg, opts := g.cfg, g.opts
	run := orchestrate.GenerateOptions{Options: orchestrate.Options{
		Budget: orchestrate.Budget{MaxRequests: cfg.MaxRequests, MaxTokens: cfg.MaxTokensTotal, Cost: costCap(cfg, model)},
		Bridge: br, Model: model, Templates: g.tmpl, Form: g.form, Approval: g.approval,
		MaxSteps: cfg.MaxSteps, Concurrency: cfg.Concurrency, Instruction: opts.instruction,
		CheckpointInterval: cfg.CheckpointInterval, Secrets: g.red, Sources: g.srcs,
		// A dry run or a run to stdout reads the state (conversations, what
		// runs generated) as a real run would, and writes none.
		StateDir: g.historyFrom, Redact: g.red.String, Rewrite: opts.rewrite,
		HistoryReadOnly: cfg.Replay != "" || !g.writes(), Review: cfg.Review,
	}}
	run.RequestBytes = requestBytes(model)
	run.Asker, run.Author, run.Diff = g.askers(progress, quit)
	// A replay saves only at the end, so a miss (exit 2) writes nothing.
	run.Checkpoints = g.writes() && cfg.Replay == ""
	if g.writes() {
		run.NotesDir = g.state.dir
		run.Check = func() bool {
			g.strict = strictCheck(cmp.Or(opts.out, opts.file), opts.reg, g.srcs)
			return len(g.strict) == 0
		}
	}
	if !g.dryRun {
		run.Store = g.store(errOut)
	}
	if g.journals() {
		run.Journal = orchestrate.NewJournal(g.state.dir, savedLesson{saver: g.saver, out: g.opts.out, inPlace: g.inPlace()}, g.red.String)
	}
	if g.course != nil {
		run.Shared = g.course.shared
	}
	run.Stopped = g.stopped
	run.Images = g.images(model)
	return run
}

// askers is who answers the run's questions: one terminal asker reads
// the terminal for approvals (--approve ask, --rewrite) and for
// ask_author (--interactive).
func (g *generation) askers(progress *progress, quit context.CancelCauseFunc) (bridge.Asker, tool.Author, bridge.FileDiff) {
	opts := g.opts
	if g.approval != bridge.ApproveAsk && !opts.interactive && !opts.rewrite {
		return nil, nil, nil
	}
	a := newTerminalAsker(opts.io)
	a.display, a.quit = progress, func() { quit(ErrInterrupted) }
	var asker bridge.Asker
	var author tool.Author
	var fileDiff bridge.FileDiff
	if g.approval == bridge.ApproveAsk || opts.rewrite {
		asker, fileDiff = a, changeDiff(g.doc)
	}
	if opts.interactive {
		author = a
	}
	return asker, author, fileDiff
}

// stopped checks a replay's misses once the subagents stopped (a miss is
// exit 2, with nothing saved) and finishes a recording.
func (g *generation) stopped(report orchestrate.Report) error {
	if err := g.tp.missed(g.historyFrom, report.Continued); err != nil {
		g.events(event.Event{Kind: event.RunEnd, Status: "stopped: replay miss"})
		return err
	}
	if err := g.tp.close(); err != nil {
		fmt.Fprintf(g.opts.io.ErrOut, "lessongen: warning: the recording is incomplete: %v\n", err)
	}
	return nil
}

// report prints what the run did: the files written, the dry run's diff,
// the summary (--json: on stdout), merges and conflicts; its error is the
// run's outcome (outcome).
func (g *generation) report(res orchestrate.Result) error {
	opts := g.opts
	printWrote(opts, res.Written)
	printReplayed(opts.info(), g.cfg, cmp.Or(opts.out, opts.file), res.Written)
	var printErr error
	if g.dryRun {
		printErr = printDryRun(g.doc, opts)
	}
	sum := summarizeRun(res.Report, res.RunErr, time.Since(g.start), res.Written)
	sum.Instruction = opts.instruction
	sum.addStrict(g.strict)
	sum.Cost = costOf(g.cfg, sum, res.Images.Answered)
	g.recordOrigin(sum.Status)
	if g.course == nil && g.journals() && (sum.Status == event.StatusInterrupted || errors.As(res.RunErr, new(*orchestrate.BudgetSpentError))) {
		// What it did is saved and the same command goes on from there
		// (in place, and with -o: resume).
		sum.Resume = g.resumeWith
	}
	if !opts.quiet || sum.Status != event.StatusDone {
		// Quiet: a run that did everything has nothing to report.
		printSummary(opts.io.ErrOut, sum)
	}
	if opts.json {
		if err := writeSummaryJSON(opts.io.Out, sum); err != nil && printErr == nil {
			printErr = err
		}
	}
	for _, p := range g.saver.Merged() {
		fmt.Fprintf(opts.info(), "lessongen: note: %s was edited during the run; it holds your edits and this run's changes\n", p)
	}
	printConflicts(opts.io.ErrOut, g.saver.Conflicts())
	printImages(opts.io.ErrOut, res.Images, g.cfg)
	return g.outcome(res, printErr)
}

// outcome is the error the run ends with: a failed save first, then what
// printing the result failed on, then the run's outcome (Result.Err),
// already reported by the summary but a failure, which is explained.
func (g *generation) outcome(res orchestrate.Result, printErr error) error {
	switch {
	case res.SaveErr != nil:
		return res.SaveErr
	case printErr != nil:
		return printErr
	case errors.As(res.RunErr, new(*orchestrate.BudgetSpentError)):
		fmt.Fprintf(g.opts.io.ErrOut, "lessongen: stopped: %v; what was done is saved\nfix: raise the budget, or run again to continue\n", res.RunErr)
	case res.Outcome == orchestrate.Failed:
		return explainProvider(res.RunErr, g.cfg)
	}
	return printed(res.Err())
}
