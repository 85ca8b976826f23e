package cmd

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/course"
	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/modalities"
	"github.com/lessongen/lessongen/orchestrate"
	"github.com/lessongen/lessongen/templates"
)

// generateCourse runs the course's own levels when anything is pending
// there, through the one orchestrator, and saves: the lessons it named
// become new lesson files (course.File.Save). Its error is ErrPartial
// when something is left pending.
func (c *courseRun) generateCourse(ctx context.Context, all []course.Summary) error {
	if len(c.file.Course.Pending()) == 0 {
		return nil
	}
	run, err := c.courseOptions()
	if err != nil {
		return err
	}
	streams := *c.opts.io
	streams.ErrTTY = false // the lessons' lines follow: no live frame
	progress := newProgress(&streams)
	run.Events = event.Redacted(progress.Sink, c.red.String)
	fmt.Fprintf(c.opts.info(), "lessongen: %s: the course's own pending parts first\n", c.file.Path)
	res, err := orchestrate.Generate(ctx, course.NewTree(c.file, courseOverview(all)), orchestrate.Scope{},
		orchestrate.GenerateOptions{Options: run, Store: courseStore{c.file}})
	progress.Close()
	if err != nil {
		return err
	}
	printWrote(c.opts, res.Written)
	switch res.Outcome {
	case orchestrate.Failed:
		return explainProvider(res.Err(), c.cfg)
	case orchestrate.Interrupted:
		return ErrInterrupted
	}
	// The lessons named have files now; the rest stay pending items.
	if c.paths, err = resolved(c.file); err != nil {
		return err
	}
	if res.Outcome == orchestrate.Partial {
		fmt.Fprintf(c.opts.io.ErrOut, "lessongen: %s: the course's own levels left work pending: %s\n", c.file.Path, pendingNames(res.Report))
		return ErrPartial
	}
	return nil
}

// courseOptions are the course levels' run: the course's registry and
// tools, with the settings, model and Shared every lesson gets too.
func (c *courseRun) courseOptions() (orchestrate.Options, error) {
	reg, err := modalities.Course()
	if err != nil {
		return orchestrate.Options{}, err
	}
	br, err := bridge.New(reg)
	if err != nil {
		return orchestrate.Options{}, err
	}
	run := orchestrate.Options{Shared: c.shared, Bridge: br, Model: c.model,
		MaxSteps: c.cfg.MaxSteps, Concurrency: c.cfg.Concurrency, Instruction: c.opts.instruction,
		Secrets: c.red, Redact: c.red.String}
	if run.Approval, err = bridge.ParseApproval(c.cfg.Approve); err != nil {
		return run, &usageError{err}
	}
	if run.Form, err = bridge.ParseForm(c.cfg.ToolSchema); err != nil {
		return run, &usageError{err}
	}
	if run.Templates, err = templates.Load(c.cfg.Templates, templateLevels(c.opts.reg)); err != nil {
		return run, &usageError{err}
	}
	return run, nil
}

// resolved are the course's lesson files once new ones are written.
func resolved(f *course.File) ([]string, error) {
	paths, problems := f.Resolve()
	if err := problems.Err(); err != nil {
		return nil, err
	}
	return paths, nil
}

func pendingNames(r orchestrate.Report) string {
	var names []string
	for _, n := range r.Incomplete() {
		names = append(names, n.Level)
	}
	return strings.Join(names, ", ")
}

// courseOverview is the course.node subagent's outline: each lesson's
// title and what it teaches (course.Above's view of all lessons).
func courseOverview(all []course.Summary) string {
	return strings.Join(course.Above(&course.Course{}, all, len(all))[1:], "\n")
}

// courseStore saves the course file (orchestrate.Store).
type courseStore struct{ f *course.File }

func (s courseStore) Checkpoint(bool) ([]string, error) { return nil, nil }
func (s courseStore) Save() ([]string, error)           { return s.f.Save() }
func (s courseStore) Conflicted() bool                  { return false }

// generateLessons runs the selected lessons (positions) side by side:
// each waits only for earlier ones whose summary is still to be written
// (course.Waits), and starts with the earlier lessons' summaries as they
// are then.
func (c *courseRun) generateLessons(ctx context.Context, sel []int) map[int]error {
	all, err := c.summaries()
	if err != nil {
		return map[int]error{-1: err}
	}
	if c.bridge, err = newBridge(c.opts.reg); err != nil {
		return map[int]error{-1: err}
	}
	var run []int
	for _, i := range sel {
		if c.paths[i] != "" {
			run = append(run, i)
		}
	}
	// A lesson's summary is taken from it once its metadata level ends,
	// and read again from its file once it ends, so a later lesson starts
	// with what it wrote, and no lesson reads the others' files.
	var mu sync.Mutex
	return course.Schedule(ctx, run, course.Waits(all, run), func(ctx context.Context, i int, ready func()) error {
		mu.Lock()
		above := course.Above(c.file.Course, all, i)
		mu.Unlock()
		rel := c.file.Course.Lessons[i].File
		err := c.lesson(ctx, i, above, func(doc *compose.Document) {
			mu.Lock()
			all[i] = summaryOf(doc, rel)
			mu.Unlock()
			ready()
		})
		if s, rerr := course.ReadSummary(c.paths[i], rel); rerr == nil {
			mu.Lock()
			all[i] = s
			mu.Unlock()
		}
		return err
	})
}

// summaryOf is what later lessons are told of a lesson being generated,
// from the document in memory.
func summaryOf(doc *compose.Document, rel string) course.Summary {
	s := course.Summary{File: rel}
	doc.View(func(p *lesson.Plan) {
		m := &p.Metadata
		s.Title = m.Title.Value
		s.Objectives, s.KeyPoints = lesson.Texts(m.Objectives.Value), lesson.Texts(m.KeyLearningPoints.Value)
		for _, t := range m.Vocabulary.Value {
			if !t.IsPlaceholder {
				s.Vocabulary = append(s.Vocabulary, course.Term{Term: t.Term, Definition: t.Definition})
			}
		}
	})
	return s
}

// lesson is one lesson's generate, with the course above its chain.
func (c *courseRun) lesson(ctx context.Context, i int, above []string, ready func(*compose.Document)) error {
	o := *c.opts
	o.file = c.paths[i]
	// One live frame cannot show many lessons: each prints lines.
	streams := *o.io
	streams.ErrTTY = false
	o.io = &streams
	g := &generation{opts: &o, cfg: c.cfg, start: time.Now(), srcs: c.srcs, red: c.red,
		course: &lessonOfCourse{model: c.model, bridge: c.bridge, shared: c.shared, above: above, ready: ready}}
	return g.run(ctx)
}

// lessonOfCourse is what a lesson's generate takes from its course run.
type lessonOfCourse struct {
	model  llm.Model
	bridge *bridge.Bridge
	shared *orchestrate.Shared
	above  []string
	// ready is told once the lesson's metadata level has ended: what
	// later lessons are told of it is written.
	ready func(*compose.Document)
}

// worst is the course run's error: the worst of its lessons' and the
// course's own (a failure, then invalid input, then an interrupt, then
// work left), each lesson's named on stderr.
func (c *courseRun) worst(errs map[int]error, courseErr error) error {
	worst, rank := courseErr, exitRank(courseErr)
	for i := range c.paths {
		err, ran := errs[i]
		if !ran {
			continue
		}
		name := c.file.Course.Lessons[i].File
		if err == nil {
			fmt.Fprintf(c.opts.info(), "lessongen: lesson %d (%s): done\n", i+1, name)
		} else {
			fmt.Fprintf(c.opts.io.ErrOut, "lessongen: lesson %d (%s): %v\n", i+1, name, err)
		}
		if r := exitRank(err); r > rank {
			worst, rank = err, r
		}
	}
	if err, ok := errs[-1]; ok {
		return err
	}
	return printed(worst)
}

// exitRank orders exit codes from best to worst.
func exitRank(err error) int {
	switch exitCode(err) {
	case ExitOK:
		return 0
	case ExitPartial:
		return 1
	case ExitInterrupted:
		return 2
	case ExitUsage:
		return 3
	}
	return 4
}
