// Package templates holds the task prompt for each subagent level, embedded
// in the binary and overridable from a directory (--templates DIR) holding
// files of the same names.
package templates

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/lessongen/lessongen/internal/regfile"
)

//go:embed *.tmpl
var embedded embed.FS

// Level is one subagent level that needs a template, LEVEL.tmpl, named as
// the modality registry names it. Default is the template's text when none
// is embedded here (a modality may bring its own); an embedded file wins.
// common.tmpl holds the rules every level shares.
type Level struct {
	Name    string
	Default string
}

// Item is one pending spot as a prompt lists it.
type Item struct {
	Path string
	Hint string
	ID   string
	// Generated names what a stopped run already added for the placeholder.
	Generated []string
}

// Data is what a template may use.
type Data struct {
	// Node is the node's name, e.g. "lesson" or "slides/light/whiteboard".
	Node string
	// Level is the subagent level, e.g. "whiteboard.node".
	Level string
	// Context is the chain of descriptions from the lesson down to the node.
	Context []string
	// Pending lists what this subagent must fill.
	Pending []Item
	// MaxSteps is the subagent's budget of model turns.
	MaxSteps int
	// MaxCalls is the most tool calls run from one turn (0: not said).
	MaxCalls int
	// MaxNew is the most items (NewItems, e.g. "slides") the subagent may
	// add (0: not said).
	MaxNew   int
	NewItems string
	// Instruction is an extra request from the person running lessongen.
	Instruction string
	// Canvas states the rules of the node's space as numbers (size,
	// margins, heading band, readable font sizes) and Geometry the space
	// its content leaves free, for a node that has one. Canvas is the same
	// for every node of one canvas size, so it precedes the node's part.
	Canvas   string
	Geometry string
	// Sources is set when the author gave --sources: the prompt asks the
	// model to write from them and cite them.
	Sources bool
	// Carried is the source lines earlier subagents read, numbered, that
	// this one may cite without reading them again ("" for none).
	Carried string
	// Locked names the node's values the author wrote and Editable those an
	// earlier run generated; a prompt given an Instruction says which the
	// model may change.
	Locked   []string
	Editable []string
	// Rewrite is set when the person allowed changes to the author's values
	// (fill --rewrite), each approved on the terminal.
	Rewrite bool
}

// Set is the parsed templates for every level.
type Set struct {
	byLevel map[string]*template.Template
}

// Load parses a template for every level, with any file in dir (if not
// empty) replacing the default of the same name. A template that does not
// parse, or a file in dir that names no level, is an error naming the file.
func Load(dir string, levels []Level) (*Set, error) {
	files := map[string]string{}
	names := []string{"common"}
	for _, l := range levels {
		names = append(names, l.Name)
	}
	for _, name := range names {
		data, err := embedded.ReadFile(name + ".tmpl")
		switch {
		case err == nil:
			files[name] = string(data)
		case errors.Is(err, fs.ErrNotExist) && defaultOf(levels, name) != "":
			files[name] = defaultOf(levels, name)
		default:
			return nil, fmt.Errorf("templates: no template for level %s: add %s.tmpl", name, name)
		}
	}
	sources := map[string]string{}
	if dir != "" {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		for _, e := range entries {
			name, ok := strings.CutSuffix(e.Name(), ".tmpl")
			if !ok || e.IsDir() {
				continue
			}
			if _, known := files[name]; !known {
				return nil, fmt.Errorf("templates: %s names no level; use %s.tmpl", filepath.Join(dir, e.Name()), strings.Join(names, ".tmpl, "))
			}
			data, err := regfile.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				return nil, fmt.Errorf("templates: %w", err)
			}
			files[name] = string(data)
			sources[name] = filepath.Join(dir, e.Name())
		}
	}
	source := func(name string) string {
		if s, ok := sources[name]; ok {
			return s
		}
		return "embedded " + name + ".tmpl"
	}
	set := &Set{byLevel: map[string]*template.Template{}}
	for _, l := range levels {
		level := l.Name
		t := template.New(level).Option("missingkey=error").Funcs(template.FuncMap{
			"add": func(a, b int) int { return a + b },
		})
		if _, err := t.New("common").Parse(files["common"]); err != nil {
			return nil, fmt.Errorf("%s: %w", source("common"), err)
		}
		if _, err := t.Parse(files[level]); err != nil {
			return nil, fmt.Errorf("%s: %w", source(level), err)
		}
		// Render once with sample data so a template naming a field that
		// does not exist fails now, not in the middle of a run.
		if err := t.Execute(new(strings.Builder), sample(level)); err != nil {
			return nil, fmt.Errorf("%s: %w", source(level), err)
		}
		if err := t.ExecuteTemplate(new(strings.Builder), "turn", sample(level)); err != nil {
			return nil, fmt.Errorf("%s: %w", source("common"), err)
		}
		set.byLevel[level] = t
	}
	return set, nil
}

func sample(level string) Data {
	return Data{Node: "lesson", Level: level, Context: []string{"A lesson."}, Pending: []Item{{Path: "title", Hint: "h", ID: "p1"}}, MaxSteps: 8, Instruction: "x",
		Locked: []string{"a"}, Editable: []string{"b"}}
}

// ErrUnknownLevel is returned for a level without a template.
var ErrUnknownLevel = errors.New("no template for level")

// Render produces the prompt for a level: the system message, and the
// node's own part (common.tmpl's "task": where the node is, what is
// pending) that goes in the first user message. A template that ends with
// the node's part (every embedded one does) has it cut off the system
// message, so every subagent of a level sends the same system message and
// one cached prefix serves them all; a template that places it elsewhere,
// or writes its own, keeps its whole text as the system message and
// nodePart is "".
func (s *Set) Render(level string, d Data) (system, nodePart string, err error) {
	t, ok := s.byLevel[level]
	if !ok {
		return "", "", fmt.Errorf("%w %q", ErrUnknownLevel, level)
	}
	var b, task strings.Builder
	if err := t.Execute(&b, d); err != nil {
		return "", "", fmt.Errorf("template %s: %w", level, err)
	}
	system = strings.TrimSpace(b.String())
	// A common.tmpl of the person's own may have no "task", or one its
	// level never uses and that would not render: then there is no node's
	// part to cut, and the template's text is sent whole.
	if t.Lookup("task") == nil || t.ExecuteTemplate(&task, "task", d) != nil {
		return system + "\n", "", nil
	}
	part := strings.TrimSpace(task.String())
	if rest, ok := strings.CutSuffix(system, part); ok && part != "" && strings.TrimSpace(rest) != "" {
		return strings.TrimSpace(rest) + "\n", part + "\n", nil
	}
	return system + "\n", "", nil
}

// RenderTurn produces the user turn that continues a level's saved
// conversation with d.Instruction (common.tmpl's "turn"): the instruction,
// then what is locked and what may change.
func (s *Set) RenderTurn(level string, d Data) (string, error) {
	t, ok := s.byLevel[level]
	if !ok {
		return "", fmt.Errorf("%w %q", ErrUnknownLevel, level)
	}
	var b strings.Builder
	if err := t.ExecuteTemplate(&b, "turn", d); err != nil {
		return "", fmt.Errorf("template %s: %w", level, err)
	}
	return strings.TrimSpace(b.String()), nil
}

func defaultOf(levels []Level, name string) string {
	for _, l := range levels {
		if l.Name == name {
			return l.Default
		}
	}
	return ""
}
