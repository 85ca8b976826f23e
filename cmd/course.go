package cmd

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/course"
	"github.com/lessongen/lessongen/internal/redact"
	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/internal/termsafe"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/orchestrate"
)

// courseRun is generate on a course file: the course's own pending
// levels (course.metadata, course.node: outcomes, lessons to name) run
// first, then every lesson as one generate each, side by side, with one
// model client (rate limit, retries) and one orchestrate.Shared (budget,
// requests in flight) between them. Each lesson keeps its own lock,
// state and history, so a rerun resumes each where it stopped.
type courseRun struct {
	opts *generateOptions // its streams redacted
	cfg  *settings
	srcs *sources.Sandbox
	red  *redact.Redactor

	file   *course.File
	paths  []string // lesson files by position; "" for a pending item
	model  llm.Model
	shared *orchestrate.Shared
	// bridge is the lessons' tool catalogs, derived once for all:
	// deriving them is most of a lesson's CPU before its first request,
	// and derived per lesson they kept a big course's lessons queued on
	// the cores, starting one after another (#39).
	bridge *bridge.Bridge
}

// runCourse is runGenerate for a course file (course.Sniff).
func runCourse(ctx context.Context, opts *generateOptions) error {
	return prepared(opts, func(cfg *settings) error { return checkCourseFlags(opts, cfg) },
		func(o *generateOptions, cfg *settings, srcs *sources.Sandbox, red *redact.Redactor) error {
			c := &courseRun{opts: o, cfg: cfg, srcs: srcs, red: red}
			return c.run(ctx)
		})
}

// checkCourseFlags refuses what a course run cannot do for many lessons
// at once: one output file, one recording, one terminal to ask on, one
// state folder.
func checkCourseFlags(opts *generateOptions, cfg *settings) error {
	switch {
	case opts.slide != "" || opts.metadata:
		return usagef("fill works on one lesson; name a lesson file of the course")
	case opts.out != "":
		return usagef("-o writes one lesson; a course's lessons are written in place (copy the course folder to keep the originals)")
	case opts.dryRun:
		return usagef("--dry-run shows one lesson's diff; run it on a lesson file of the course")
	case cfg.Record != "" || cfg.Replay != "":
		return usagef("--record and --replay hold one lesson's requests; run them on a lesson file of the course")
	case opts.interactive || opts.rewrite || cfg.Approve == string(bridge.ApproveAsk):
		return usagef("--interactive, --rewrite and --approve ask ask on the terminal, which the course's lessons would share; run them on a lesson file")
	case opts.json:
		return usagef("--json prints one lesson's summary; each lesson of a course prints its own on stderr")
	case cfg.Events != "" && cfg.Events != "-":
		return usagef("--events FILE logs one lesson's run; with a course use --events - (stderr), or run a lesson file")
	case cfg.StateDir != "":
		// One folder would hold every lesson's conversations, journal and
		// provenance, and its lock would let one lesson run at a time.
		return usagef("--state-dir names one state folder, but each lesson of a course keeps its own (.lessongen/FILE beside it); unset it (state_dir in the config, LESSONGEN_STATE_DIR), or run a lesson file")
	}
	// Before the course's own levels send anything.
	if err := checkMaxCost(cfg, cfg.Images); err != nil {
		return err
	}
	printModelNotes(opts.io.ErrOut, cfg, time.Now())
	return nil
}

func (c *courseRun) run(ctx context.Context) error {
	if err := c.load(); err != nil {
		return err
	}
	all, err := c.summaries()
	if err != nil {
		return err
	}
	sel, err := course.Select(c.opts.lessons, all)
	if err != nil {
		return &usageError{err}
	}
	release, err := c.lock()
	if err != nil {
		return err
	}
	defer release()
	if c.model, err = newModel(c.cfg, nil, c.opts.io.ErrOut); err != nil {
		return err
	}
	// One --max-cost for the course, as one --max-requests: a lesson's
	// own cap would let each lesson spend it again.
	c.shared = orchestrate.NewShared(orchestrate.Budget{MaxRequests: c.cfg.MaxRequests, MaxTokens: c.cfg.MaxTokensTotal, Cost: costCap(c.cfg, c.model)}, c.cfg.Concurrency)
	courseErr := c.generateCourse(ctx, all)
	if courseErr != nil && !errors.Is(courseErr, ErrPartial) {
		return c.continued(ctx, courseErr)
	}
	errs := c.generateLessons(ctx, sel)
	return c.continued(ctx, c.worst(errs, courseErr))
}

// continued says, when the course run was interrupted, the command that
// continues it (each lesson goes on where it stopped), and returns err.
func (c *courseRun) continued(ctx context.Context, err error) error {
	if exitCode(err) == ExitInterrupted {
		if cmd := resumeCommand(ctx, c.red.String); cmd != "" {
			// The command quotes file names, which may hold anything.
			fmt.Fprintf(c.opts.io.ErrOut, "lessongen: to continue, run the same command: %s\n", termsafe.Line(cmd))
		}
	}
	return err
}

// load reads the course and checks it and every lesson it names, before
// any model request (exit 2 with every problem).
func (c *courseRun) load() error {
	f, err := course.Load(c.opts.file)
	if err != nil {
		return asUsage(err)
	}
	paths, problems := f.Resolve()
	for _, p := range paths {
		if p == "" {
			continue
		}
		if _, err := loadLesson(p, c.opts.reg); err != nil {
			var ps yamlsrc.Problems
			if !errors.As(err, &ps) {
				ps = yamlsrc.Problems{{File: p, Message: err.Error()}}
			}
			problems = append(problems, ps...)
		}
	}
	if problems.Err() != nil {
		return problems.Errs()
	}
	c.file, c.paths = f, paths
	return nil
}

// asUsage makes a course that cannot be read the user's to fix (exit 2).
func asUsage(err error) error {
	var ps yamlsrc.Problems
	if errors.As(err, &ps) {
		return err
	}
	return &usageError{err}
}

// summaries reads every lesson's summary, in course order; a pending
// item is a lesson whose summary is all to be written.
func (c *courseRun) summaries() ([]course.Summary, error) {
	all := make([]course.Summary, len(c.paths))
	for i, p := range c.paths {
		if p == "" {
			all[i] = course.Summary{Pending: true}
			continue
		}
		s, err := course.ReadSummary(p, c.file.Course.Lessons[i].File)
		if err != nil {
			return nil, err
		}
		all[i] = s
	}
	return all, nil
}

// lock takes the course file's own lock: one course run at a time names
// its pending lessons. Each lesson takes its own as it runs.
func (c *courseRun) lock() (func(), error) {
	return acquire([]string{c.file.Path}, nil, c.opts.io.ErrOut)
}
