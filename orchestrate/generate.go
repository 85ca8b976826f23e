package orchestrate

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/internal/statedir"
	"github.com/lessongen/lessongen/tool"
)

// The ways a generation run can end short of done; Result.Err returns
// them, and the command line maps each to its exit code.
var (
	// ErrPartial means the run finished with nodes still pending, failed
	// or left with defects; what was done is saved.
	ErrPartial = errors.New("some nodes are still pending")
	// ErrConflict means an author's edit made during the run could not be
	// merged: the author's file was kept and the run's version saved
	// beside it.
	ErrConflict = errors.New("an edit made during the run conflicts with the run's changes")
	// ErrInterrupted means the person stopped the run (a signal, or "q"
	// at a question); committed work is saved.
	ErrInterrupted = errors.New("interrupted")
)

// Outcome is how a generation run ended, as a whole.
type Outcome string

const (
	Done        Outcome = "done"
	Partial     Outcome = "partial" // finished, with work left or an edit in conflict; saved
	Failed      Outcome = "failed"
	Interrupted Outcome = "interrupted"
)

// Store saves a run's tree: the lesson and its children's files
// (compose.Saver, through cmd), or the lesson to stdout.
type Store interface {
	// Checkpoint saves what is committed so far while the run goes on:
	// everything, or with lesson false only the children kept in their
	// own files (Options.Checkpoint).
	Checkpoint(lesson bool) ([]string, error)
	// Save writes the result once the run has stopped and returns the
	// files written, those written before a failure included.
	Save() ([]string, error)
	// Conflicted reports whether an author's edit made during the run
	// could not be merged.
	Conflicted() bool
}

// GenerateOptions configure Generate: the run's own Options, and what
// happens around it.
type GenerateOptions struct {
	Options
	// Store saves the result; nil saves nothing (a dry run).
	Store Store
	// Checkpoints has Store save during the run too, not only at its end.
	Checkpoints bool
	// NotesDir is the state folder the run's notes for the author are
	// appended to; "" keeps them in the Report alone.
	NotesDir string
	// Stopped, when set, runs once the subagents have stopped, before
	// anything more is saved; an error ends the run there (a replay that
	// missed a request saves nothing).
	Stopped func(Report) error
	// Check, when set, runs once the result is saved without error and
	// reports whether the lesson as written passes validate --strict.
	Check func() bool
	// Images, when set, draws the images the run described once the
	// subagents are done (generate --images; see illustrate).
	Images *Images
}

// Result is what a generation run did.
type Result struct {
	Report  Report
	Outcome Outcome
	// RunErr is what stopped the run early (Run's error); SaveErr is
	// the final save's or the notes' failure.
	RunErr  error
	SaveErr error
	// Written lists the files the final save wrote.
	Written []string
	// StrictFailed: the lesson as written fails validate --strict.
	StrictFailed bool
	// Conflicted: an author's edit could not be merged (Store.Conflicted).
	Conflicted bool
	// Images is what the image pass did (GenerateOptions.Images).
	Images ImagesReport
}

// costMeter is the meter of the run's --max-cost, nil without one: a
// course's, or one for this run.
func (o GenerateOptions) costMeter() *costMeter {
	switch {
	case o.Shared != nil:
		return o.Shared.cost
	case o.Budget.Cost != nil:
		return &costMeter{c: o.Budget.Cost}
	}
	return nil
}

// Generate runs everything pending in scope (Run), with checkpoints
// through opts.Store, then saves the result and the notes, and tells how
// the run ended. Its error is for a run that stopped with nothing more
// saved: a planted link in the state it reads (statedir.LinkError), or
// what opts.Stopped refused. Everything else is in the Result.
func Generate(ctx context.Context, tree Tree, scope Scope, opts GenerateOptions) (Result, error) {
	if opts.Store != nil && opts.Checkpoints {
		opts.Checkpoint = opts.Store.Checkpoint
	}
	if opts.Events == nil {
		opts.Events = event.Discard
	}
	// The pictures drawn after the subagents spend the same --max-cost.
	cost := opts.costMeter()
	opts.cost = cost
	report, runErr := Run(ctx, tree, scope, opts.Options)
	if le := (*statedir.LinkError)(nil); errors.As(runErr, &le) {
		return Result{Report: report}, runErr
	}
	var images ImagesReport
	var recordErr error
	if opts.Images != nil && runErr == nil && ctx.Err() == nil {
		images, recordErr = drawImages(ctx, tree, scope, opts, &report, cost)
		// Pictures left for the cap end the run as a spent budget does.
		runErr = images.CostSpent
	}
	if opts.Stopped != nil {
		if err := opts.Stopped(report); err != nil {
			return Result{Report: report}, err
		}
	}
	res := Result{Report: report, RunErr: runErr, Images: images}
	if opts.Store != nil {
		// Saved even when the record failed: its pictures then read as
		// the author's later, the safe side.
		res.Written, res.SaveErr = opts.Store.Save()
		res.SaveErr = cmp.Or(res.SaveErr, recordErr)
		if res.SaveErr == nil && len(res.Written) > 0 {
			opts.Events(event.Event{Kind: event.Checkpoint, Files: res.Written})
		}
		if res.SaveErr == nil && opts.Journal != nil {
			// Everything is in the files now; a failed save keeps the
			// journal for the next run.
			res.SaveErr = opts.Journal.Remove()
		}
	}
	if err := saveNotes(opts.NotesDir, report.Notes, opts.Redact); err != nil && res.SaveErr == nil {
		res.SaveErr = err
	}
	opts.Events(event.Event{Kind: event.RunEnd, Status: runStatus(report, runErr)})
	if opts.Check != nil && opts.Store != nil && res.SaveErr == nil {
		res.StrictFailed = !opts.Check()
	}
	res.Conflicted = opts.Store != nil && opts.Store.Conflicted()
	res.Outcome = res.outcome()
	return res, nil
}

// outcome ranks what ended the run: a failed save first (the work may be
// lost), then why the run stopped, then what it left undone.
func (r Result) outcome() Outcome {
	switch {
	case r.SaveErr != nil:
		return Failed
	case errors.As(r.RunErr, new(*BudgetSpentError)):
		// A spent budget stops the run on purpose, everything committed
		// saved.
		return Partial
	case IsInterrupt(r.RunErr):
		return Interrupted
	case r.RunErr != nil:
		return Failed
	case len(r.Report.Incomplete()) > 0 || r.StrictFailed || r.Conflicted:
		return Partial
	}
	return Done
}

// Err is the run's outcome as an error: nil when done; the save's or
// the run's error when failed; ErrInterrupted; ErrPartial, or
// ErrConflict when a conflict is all that is left.
func (r Result) Err() error {
	switch r.Outcome {
	case Done:
		return nil
	case Failed:
		if r.SaveErr != nil {
			return r.SaveErr
		}
		return r.RunErr
	case Interrupted:
		return ErrInterrupted
	}
	if r.RunErr == nil && len(r.Report.Incomplete()) == 0 && !r.StrictFailed {
		return ErrConflict
	}
	return ErrPartial
}

// IsInterrupt tells a run stopped by the person (a signal, or "q" at a
// question) from one that failed.
func IsInterrupt(err error) bool {
	return errors.Is(err, ErrInterrupted) || errors.Is(err, context.Canceled)
}

// runStatus is the run_end event's status.
func runStatus(r Report, err error) string {
	switch {
	case err != nil:
		return "stopped: " + err.Error()
	case len(r.Incomplete()) > 0:
		return "partial"
	}
	return "done"
}

// saveNotes appends a run's notes to the notes file of the state folder
// dir (none when dir is "").
func saveNotes(dir string, notes []tool.Note, redact func(string) string) error {
	if len(notes) == 0 || dir == "" {
		return nil
	}
	if redact == nil {
		redact = func(s string) string { return s }
	}
	// Through statedir: never through a link, never outside the folder.
	f, err := statedir.OpenFile(dir, statedir.NotesFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("notes: %w", err)
	}
	w := bufio.NewWriter(f)
	for _, n := range notes {
		data, err := json.Marshal(n)
		if err != nil {
			f.Close()
			return err
		}
		fmt.Fprintf(w, "%s\n", redact(string(data)))
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("notes: %w", err)
	}
	return f.Close()
}
