// Package yamlsrc keeps a YAML file's bytes next to its parsed node tree so
// lessongen can report positions precisely and write changes back by splicing
// only the spots that changed: everything else keeps its exact bytes.
package yamlsrc

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Problem is one thing wrong with an input file, at a position a person can
// jump to. Warnings do not make a file invalid unless the caller is strict.
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
	Warning bool   `json:"warning,omitempty"`
}

func (p Problem) String() string {
	kind := ""
	if p.Warning {
		kind = "warning: "
	}
	return fmt.Sprintf("%s:%d:%d: %s%s", p.File, p.Line, p.Col, kind, p.Message)
}

// Problems collects every problem found, so a user fixes them all in one go.
// As an error it is non-nil only when it holds at least one non-warning.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Errs returns only the problems that are errors.
func (ps Problems) Errs() Problems {
	return slices.DeleteFunc(slices.Clone(ps), func(p Problem) bool { return p.Warning })
}

// Warnings returns only the warnings.
func (ps Problems) Warnings() Problems {
	return slices.DeleteFunc(slices.Clone(ps), func(p Problem) bool { return !p.Warning })
}

// Err returns ps as an error when it holds an error, else nil.
func (ps Problems) Err() error {
	if len(ps.Errs()) == 0 {
		return nil
	}
	return ps
}

// Sort orders problems by file and position, as an editor lists them.
func (ps Problems) Sort() {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Col - b.Col
	})
}

// Reporter accumulates problems for one file.
type Reporter struct {
	File     string
	Problems Problems
}

// At records an error at node n.
func (r *Reporter) At(n *yaml.Node, format string, args ...any) {
	r.add(n, false, format, args...)
}

// WarnAt records a warning at node n.
func (r *Reporter) WarnAt(n *yaml.Node, format string, args ...any) {
	r.add(n, true, format, args...)
}

func (r *Reporter) add(n *yaml.Node, warn bool, format string, args ...any) {
	line, col := 1, 1
	if n != nil && n.Line > 0 {
		line, col = n.Line, n.Column
	}
	r.Problems = append(r.Problems, Problem{File: r.File, Line: line, Col: col, Message: fmt.Sprintf(format, args...), Warning: warn})
}
