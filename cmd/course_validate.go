package cmd

import (
	"github.com/lessongen/lessongen/course"
	"github.com/lessongen/lessongen/internal/yamlsrc"
)

// validateCourse checks a course file (validateFile's, for a course): the
// file itself, that every lesson file it names is inside its folder,
// each lesson as validate checks a lesson (problems name the lesson's
// file), and across lessons what course.Check looks at (warnings).
func validateCourse(opts *validateOptions, file string) (fileResult, yamlsrc.Problems) {
	res := fileResult{File: file, Course: true}
	f, err := course.Load(file)
	if err != nil {
		return res, asProblems(file, err)
	}
	paths, problems := f.Resolve()
	valid := len(problems.Errs()) == 0
	all := make([]course.Summary, len(paths))
	res.Lessons, res.Pending = len(paths), len(f.Course.Pending())
	for i, p := range paths {
		if p == "" {
			all[i] = course.Summary{Pending: true}
			continue
		}
		lr, ps := validateFile(opts, p)
		problems = append(problems, ps...)
		valid = valid && lr.Valid
		res.Slides += lr.Slides
		res.Pending += lr.Pending
		if all[i], err = course.ReadSummary(p, f.Course.Lessons[i].File); err != nil {
			valid = false
		}
	}
	if valid {
		warnings := course.Check(all, paths)
		problems = append(problems, warnings...)
		valid = !(opts.strict && len(warnings) > 0)
	}
	res.Valid = valid
	if !valid {
		res.Slides, res.Pending = 0, 0
	}
	return res, problems
}

// asProblems is a load error as problems, one without a position at line 0.
func asProblems(file string, err error) yamlsrc.Problems {
	if ps, ok := err.(yamlsrc.Problems); ok {
		return ps
	}
	return yamlsrc.Problems{{File: file, Message: err.Error()}}
}
