package templates

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEmbeddedTemplatesRenderEveryLevel(t *testing.T) {
	set, err := Load("", embeddedLevels(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, level := range levelNames(t) {
		system, part, err := set.Render(level, Data{
			Node: "slides/light/whiteboard", Level: level,
			Context:  []string{"A grade 7 lesson.", "Slide 2 of 8."},
			Pending:  []Item{{Path: "elements", Hint: "a chloroplast", ID: "p1"}, {Path: "heading"}},
			MaxSteps: 9, Instruction: "use British spelling",
			MaxCalls: 64, MaxNew: 60, NewItems: "elements",
		})
		if err != nil {
			t.Fatalf("%s: %v", level, err)
		}
		if strings.Contains(system, "slides/light") || !strings.Contains(part, "slides/light") {
			t.Errorf("%s: the node's part is not cut off the system message:\n%s\n---\n%s", level, system, part)
		}
		out := system + part
		for _, want := range []string{
			"Node: slides/light/whiteboard (" + level + ")",
			"1. A grade 7 lesson.\n2. Slide 2 of 8.",
			`- elements [placeholder p1], brief: "a chloroplast"`,
			"- heading\n",
			"You have 9 turns.",
			"(at most 64 are run; the rest come back with error kind \"limit\")",
			"- You may add at most 60 elements.\n",
			"The person running lessongen adds: use British spelling",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: prompt lacks %q:\n%s", level, want, out)
			}
		}
	}
	if _, _, err := set.Render("slides.node", Data{}); err == nil {
		t.Error("an unknown level rendered")
	}
}

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestOverrideDirectory(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "whiteboard.node.tmpl", "Draw {{ .Node }}. {{ template \"rules\" . }}")
	write(t, dir, "notes.txt", "ignored: not a template")
	set, err := Load(dir, embeddedLevels(t))
	if err != nil {
		t.Fatal(err)
	}
	out, part, _ := set.Render("whiteboard.node", Data{Node: "n", MaxSteps: 3})
	if !strings.HasPrefix(out, "Draw n. How to work:") || part != "" {
		t.Errorf("override not used, or given a node's part it does not write: %q %q", out, part)
	}
	out, _, _ = set.Render("lesson.node", Data{Node: "lesson", MaxSteps: 3})
	if !strings.Contains(out, "You are writing the slides") {
		t.Errorf("other levels should stay built in: %q", out)
	}
}

func TestBadOverridesNameTheFile(t *testing.T) {
	for name, tc := range map[string]struct{ file, text, want string }{
		"syntax":        {"lesson.node.tmpl", "{{ .Node ", "lesson.node.tmpl"},
		"unknown field": {"lesson.node.tmpl", "{{ .Nodes }}", "can't evaluate field Nodes"},
		"unknown level": {"slides.tmpl", "x", "slides.tmpl names no level"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, tc.file, tc.text)
			if _, err := Load(dir, embeddedLevels(t)); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing"), embeddedLevels(t)); err == nil {
		t.Error("a missing directory loaded")
	}
}

// embeddedLevels are the levels this package has a template for.
func embeddedLevels(t *testing.T) []Level {
	t.Helper()
	var out []Level
	for _, name := range levelNames(t) {
		out = append(out, Level{Name: name})
	}
	return out
}

func levelNames(t *testing.T) []string {
	t.Helper()
	files, err := fs.Glob(embedded, "*.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		if name := strings.TrimSuffix(f, ".tmpl"); name != "common" {
			names = append(names, name)
		}
	}
	return names
}

// A modality that brings its own template needs no file here; one that
// brings none and has none here is refused at load.
func TestDefaultTemplates(t *testing.T) {
	set, err := Load("", []Level{{Name: "poll.node", Default: `{{template "common" .}}Poll {{.Node}}`}})
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := set.Render("poll.node", Data{Node: "slides/a/poll", Level: "poll.node"})
	if err != nil || !strings.Contains(out, "Poll slides/a/poll") {
		t.Errorf("default template: %q %v", out, err)
	}
	if _, err := Load("", []Level{{Name: "poll.metadata"}}); err == nil || !strings.Contains(err.Error(), "poll.metadata.tmpl") {
		t.Errorf("a level without a template: %v", err)
	}
}

// Two subagents of one level send the same system message: the node's own
// part is cut off it and sent in the user message, where what many nodes
// share (the canvas's rules, then the lesson) comes before the node.
func TestNodePartComesLast(t *testing.T) {
	set, err := Load("", embeddedLevels(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, level := range levelNames(t) {
		render := func(node, hint string) (string, string) {
			system, part, err := set.Render(level, Data{Node: node, Level: level, Context: []string{"A lesson about light.", "Slide " + node + "."},
				Pending: []Item{{Path: "elements", Hint: hint, ID: "p1"}}, Canvas: "The canvas's rules.", Geometry: "Free space of " + node + ".", MaxSteps: 6, MaxCalls: 64})
			if err != nil {
				t.Fatal(err)
			}
			return system, part
		}
		sysA, a := render("slides/a/whiteboard", "light")
		sysB, b := render("slides/b/whiteboard", "water")
		if sysA != sysB || !strings.Contains(sysA, "How to work:") {
			t.Errorf("%s: the system messages differ or lack the rules:\n%s\n---\n%s", level, sysA, sysB)
		}
		shared := "The canvas's rules.\n\nWhere this is (from the lesson down to your node):\n1. A lesson about light.\n2. Slide slides/"
		if !strings.HasPrefix(a, shared) || !strings.HasPrefix(b, shared) {
			t.Errorf("%s: the node's part does not start with what nodes share:\n%s", level, a)
		}
	}
}

// An overridden common.tmpl of its own, without a "task" (or with one its
// levels never use, and that would not render), is sent whole as the
// system message: the run does not fail on a template nobody uses. And
// overrides that put the task alone, before other text, or nowhere, lose
// nothing and repeat nothing.
func TestOverridesWithoutTheTask(t *testing.T) {
	data := Data{Node: "n", Level: "whiteboard.node", Context: []string{"A lesson."}, MaxSteps: 3}
	common, err := embedded.ReadFile("common.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, common, level, system, part string }{
		{"no task in common", `{{ define "rules" }}Rules.{{ end }}{{ define "turn" }}{{ .Instruction }}{{ end }}`, `Draw {{ .Node }}. {{ template "rules" . }}`, "Draw n. Rules.\n", ""},
		{"unused broken task", `{{ define "turn" }}{{ .Instruction }}{{ end }}{{ define "task" }}{{ .Nope }}{{ end }}`, `Draw {{ .Node }}.`, "Draw n.\n", ""},
		{"task alone", string(common), `{{ template "task" . }}`, "", "Where this is"},
		{"text after the task", string(common), `Draw. {{ template "task" . }} Thanks.`, "", "Thanks."},
		{"task never used", string(common), `Draw {{ .Node }}.`, "Draw n.\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "common.tmpl", tc.common)
			write(t, dir, "whiteboard.node.tmpl", tc.level)
			set, err := Load(dir, []Level{{Name: "whiteboard.node"}})
			if err != nil {
				t.Fatal(err)
			}
			system, part, err := set.Render("whiteboard.node", data)
			if err != nil {
				t.Fatalf("render: %v", err)
			}
			if part != "" || (tc.system != "" && system != tc.system) || !strings.Contains(system, tc.part) {
				t.Errorf("system %q, node's part %q; want %q whole in the system message, no node's part", system, part, tc.system+tc.part)
			}
			if strings.Count(system, "Node: n") > 1 {
				t.Errorf("the node's part twice: %q", system)
			}
		})
	}
}
