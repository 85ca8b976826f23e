package cmd

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lessongen/lessongen/course"
	"github.com/lessongen/lessongen/internal/termsafe"
	"github.com/lessongen/lessongen/modalities"
	"github.com/lessongen/lessongen/orchestrate"
)

// coursePlan is plan's view of a course: the course's own steps, then
// each lesson's, with the course's chain above them.
type coursePlan struct {
	File    string             `json:"file"`
	Course  []orchestrate.Step `json:"course"`
	Lessons []lessonPlan       `json:"lessons"`
}

type lessonPlan struct {
	File string `json:"file"`
	// Pending is a lesson item the course names first: its steps are
	// known once its file is written.
	Pending bool               `json:"pending,omitempty"`
	Steps   []orchestrate.Step `json:"steps"`
}

// planCourse is what generate would run for the course in file: it loads
// and checks the course and its lessons as generate does (exit 2 for a
// problem), and plans each lesson with the summaries of the lessons
// before it as they are now.
func planCourse(file string, opts *generateOptions) (*coursePlan, error) {
	c := &courseRun{opts: opts}
	c.opts.file = file
	if err := c.load(); err != nil {
		return nil, err
	}
	all, err := c.summaries()
	if err != nil {
		return nil, err
	}
	reg, err := modalities.Course()
	if err != nil {
		return nil, err
	}
	p := &coursePlan{File: file, Lessons: make([]lessonPlan, len(all))}
	if p.Course, err = orchestrate.Plan(course.NewTree(c.file, courseOverview(all)), reg, orchestrate.Scope{}); err != nil {
		return nil, err
	}
	for i, path := range c.paths {
		p.Lessons[i] = lessonPlan{File: c.file.Course.Lessons[i].File, Pending: path == ""}
		if path == "" {
			continue
		}
		doc, err := loadLesson(path, opts.reg)
		if err != nil {
			return nil, err
		}
		scope := orchestrate.Scope{Above: course.Above(c.file.Course, all, i)}
		if p.Lessons[i].Steps, err = orchestrate.Plan(doc, opts.reg, scope); err != nil {
			return nil, &usageError{err}
		}
	}
	return p, nil
}

// runCoursePlan is plan for a course file.
func runCoursePlan(opts *planOptions) error {
	if opts.slide != "" {
		return usagef("--slide plans one lesson's slide; run plan on that lesson's file")
	}
	p, err := planCourse(opts.file, &generateOptions{io: opts.io, reg: opts.reg})
	if err != nil {
		return err
	}
	if opts.json {
		data, err := json.MarshalIndent(p, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(opts.io.Out, "%s\n", termsafe.JSON(data))
		return err
	}
	var out strings.Builder
	fmt.Fprintf(&out, "%s: %s\n", p.File, countSubagents(p.Course))
	for i, st := range p.Course {
		writeStep(&out, i, st)
	}
	for i, l := range p.Lessons {
		switch {
		case l.Pending:
			fmt.Fprintf(&out, "\nlesson %d: pending; the course's node subagent names it, then it is written and generated\n", i+1)
		case len(l.Steps) == 0:
			fmt.Fprintf(&out, "\nlesson %d (%s): nothing to do; nothing is pending.\n", i+1, l.File)
		default:
			fmt.Fprintf(&out, "\nlesson %d (%s): %s\n", i+1, l.File, countSubagents(l.Steps))
			for j, st := range l.Steps {
				writeStep(&out, j, st)
			}
		}
	}
	fmt.Fprint(opts.io.Out, termsafe.String(out.String()))
	return nil
}
