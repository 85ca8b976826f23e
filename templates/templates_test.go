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
		out, err := set.Render(level, Data{
			Node: "slides/light/whiteboard", Level: level,
			Context:  []string{"A grade 7 lesson.", "Slide 2 of 8."},
			Pending:  []Item{{Path: "elements", Hint: "a chloroplast", ID: "p1"}, {Path: "heading"}},
			MaxSteps: 9, Instruction: "use British spelling",
			MaxCalls: 64, MaxNew: 60, NewItems: "elements",
		})
		if err != nil {
			t.Fatalf("%s: %v", level, err)
		}
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
	if _, err := set.Render("slides.node", Data{}); err == nil {
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
	out, _ := set.Render("whiteboard.node", Data{Node: "n", MaxSteps: 3})
	if !strings.HasPrefix(out, "Draw n. How to work:") {
		t.Errorf("override not used: %q", out)
	}
	out, _ = set.Render("lesson.node", Data{Node: "lesson", MaxSteps: 3})
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
	out, err := set.Render("poll.node", Data{Node: "slides/a/poll", Level: "poll.node"})
	if err != nil || !strings.Contains(out, "Poll slides/a/poll") {
		t.Errorf("default template: %q %v", out, err)
	}
	if _, err := Load("", []Level{{Name: "poll.metadata"}}); err == nil || !strings.Contains(err.Error(), "poll.metadata.tmpl") {
		t.Errorf("a level without a template: %v", err)
	}
}

// Two subagents of one level differ only after the fixed instructions: the
// node's own part comes last, so a server's prompt cache can reuse
// everything before it.
func TestNodePartComesLast(t *testing.T) {
	set, err := Load("", embeddedLevels(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, level := range levelNames(t) {
		render := func(node, hint string) string {
			out, err := set.Render(level, Data{Node: node, Level: level, Context: []string{"A lesson about " + hint + "."},
				Pending: []Item{{Path: "elements", Hint: hint, ID: "p1"}}, Canvas: "The canvas's rules.", Geometry: "Free space of " + node + ".", MaxSteps: 6, MaxCalls: 64})
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		a, b := render("slides/a/whiteboard", "light"), render("slides/b/whiteboard", "water")
		fixed, _, ok := strings.Cut(a, "Node: slides/a/whiteboard")
		if !ok || !strings.HasPrefix(b, fixed) || !strings.Contains(fixed, "How to work:") || !strings.Contains(fixed, "The canvas's rules.") {
			t.Errorf("%s: the prompts share %q before the node's part; want the fixed instructions, rules and canvas included", level, fixed)
		}
	}
}
