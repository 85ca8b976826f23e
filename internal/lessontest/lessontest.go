// Package lessontest holds the fixtures and checks the lesson and compose
// tests share: a lesson as an author writes it, loading it through the
// document, and what a save would write.
package lessontest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/sessiontest"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/modalities"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// Fractions is a lesson as an author writes it: comments, blank lines,
// pending metadata in every spelling, an authored slide with a pending
// field, a placeholder, and inline and file-backed whiteboards.
const Fractions = `# Fractions, grade 4.
version: 1

metadata:
  title: Adding fractions
  subject: !pending
  grade:
  duration_minutes: !pending "about 45"
  language:
  objectives:   # two or three
  vocabulary: !pending
  prerequisites:
  standards: !pending "CCSS codes"

slides:
  - id: intro
    title: Why fractions?
    section: Engage
    duration_minutes: 5
    notes: !pending "a hook about sharing pizza"
    props:
      heading: "{{ .lesson.title }} — {{ .slide.title }}"
    whiteboard: !pending "a pizza cut in eighths"

  # generated practice goes here
  - !pending "two practice slides"

  - id: wrap
    title: Wrap-up
    section: !pending
    whiteboard:
      heading: Wrap-up
      elements:
        - {id: t, type: text, text: Done, x: 10, y: 10, w: 100, h: 40}
        - !pending "a summary diagram"

  - id: recap
    title: Recap
    whiteboard: {file: boards/recap.yaml}
`

const Recap = `# Recap Board, kept in its own file.
heading: What we learned
elements: !pending "three bullet points"
`

// WriteFiles writes name → content under a fresh temp dir and returns it.
func WriteFiles(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Load writes src as lesson.yaml (with any extra files) and loads it.
func Load(t testing.TB, src string, extra ...string) *compose.Document {
	t.Helper()
	files := map[string]string{"lesson.yaml": src}
	for i := 0; i+1 < len(extra); i += 2 {
		files[extra[i]] = extra[i+1]
	}
	dir := WriteFiles(t, files)
	d, err := compose.Load(filepath.Join(dir, "lesson.yaml"), Registry())
	if err != nil {
		t.Fatalf("Load:\n%v", err)
	}
	return d
}

func LoadFractions(t testing.TB) *compose.Document {
	t.Helper()
	return Load(t, Fractions, "boards/recap.yaml", Recap)
}

// Plan returns the document's plan. Tests dispatch from one goroutine, so
// reading it between dispatches is safe.
func Plan(d *compose.Document) *lesson.Plan {
	var p *lesson.Plan
	d.View(func(x *lesson.Plan) { p = x })
	return p
}

func Dispatch(t testing.TB, s *session.Session, in session.Intent) session.Result {
	t.Helper()
	return sessiontest.Dispatch(t, s, in)
}

// Rendered returns what a save in place would write: path → content, with
// unchanged files read from disk.
func Rendered(t testing.TB, d *compose.Document) map[string]string {
	t.Helper()
	files, err := d.Render("")
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	out := map[string]string{}
	for _, f := range files {
		out[f.Path] = string(f.Data)
	}
	if _, ok := out[d.Path]; !ok {
		data, err := os.ReadFile(d.Path)
		if err != nil {
			t.Fatal(err)
		}
		out[d.Path] = string(data)
	}
	return out
}

// View is everything observable about a lesson: the bytes a save would
// write, its description, outline and pending list.
type View struct {
	files    map[string]string
	describe string
	outline  string
	pending  []session.Pending
	ids      []string
}

func Look(t testing.TB, d *compose.Document) View {
	t.Helper()
	p := Plan(d)
	return View{Rendered(t, d), p.Describe(), p.Outline(), p.Pending(), p.SlideIDs()}
}

func (v View) diff(t testing.TB, what string, want View) {
	t.Helper()
	if !reflect.DeepEqual(v.files, want.files) {
		for path, data := range v.files {
			if want.files[path] != data {
				t.Errorf("%s: %s differs:\n--- got\n%s--- want\n%s", what, filepath.Base(path), data, want.files[path])
			}
		}
		if len(v.files) != len(want.files) {
			t.Errorf("%s: writes %d files, want %d", what, len(v.files), len(want.files))
		}
	}
	if v.describe != want.describe || v.outline != want.outline {
		t.Errorf("%s: description differs:\n--- got\n%s\n%s\n--- want\n%s\n%s", what, v.describe, v.outline, want.describe, want.outline)
	}
	if !reflect.DeepEqual(v.pending, want.pending) {
		t.Errorf("%s: pending differs:\n got %+v\nwant %+v", what, v.pending, want.pending)
	}
	if !reflect.DeepEqual(v.ids, want.ids) {
		t.Errorf("%s: slide ids %v, want %v", what, v.ids, want.ids)
	}
}

// Apply dispatches in to s (the lesson's session or a board's), then checks
// that Undo restores everything exactly and Redo re-applies it identically.
func Apply(t testing.TB, d *compose.Document, s *session.Session, in session.Intent) session.Result {
	t.Helper()
	return sessiontest.Apply(t, s, in, Observe(t, d))
}

func Observe(t testing.TB, d *compose.Document) sessiontest.Observer[View] {
	return sessiontest.Observer[View]{
		Look: func() View { return Look(t, d) },
		Diff: func(what string, got, want View) { got.diff(t, what, want) },
	}
}

// Reload saves d's rendering to a fresh directory and loads it again.
func Reload(t testing.TB, d *compose.Document) *compose.Document {
	t.Helper()
	out := filepath.Join(t.TempDir(), "lesson.yaml")
	if err := d.Save(out); err != nil {
		t.Fatalf("save: %v", err)
	}
	d2, err := compose.Load(out, Registry())
	if err != nil {
		data, _ := os.ReadFile(out)
		t.Fatalf("the saved lesson does not Load:\n%v\n%s", err, data)
	}
	if err := d2.LoadAll(); err != nil {
		t.Fatalf("the saved whiteboards do not Load: %v", err)
	}
	return d2
}

// KeptInOrder checks that every line of orig appears in got in the same
// order, except lines containing one of the changed substrings: a save
// alters only the spots that changed.
func KeptInOrder(t testing.TB, orig, got string, changed ...string) {
	t.Helper()
	gotLines := strings.Split(got, "\n")
	at := 0
	for n, line := range strings.Split(orig, "\n") {
		skip := false
		for _, c := range changed {
			if strings.Contains(line, c) {
				skip = true
			}
		}
		if skip {
			continue
		}
		found := false
		for i := at; i < len(gotLines); i++ {
			if gotLines[i] == line {
				at, found = i+1, true
				break
			}
		}
		if !found {
			t.Errorf("line %d %q was lost or moved:\n%s", n+1, line, got)
			return
		}
	}
}

func WantOutputs(t testing.TB, res session.Result, want ...any) {
	t.Helper()
	if !reflect.DeepEqual(res.Outputs, want) {
		t.Errorf("outputs = %#v, want %#v", res.Outputs, want)
	}
}

// Board names the whiteboard child of a slide.
func Board(slide string) session.Key { return session.Key{Placement: slide, Kind: "whiteboard"} }

// Registry is the registry lessongen runs with, from the one list.
func Registry() *modality.Registry { return modalities.Must() }

// Odd is written the way people really write YAML: four-space indents,
// flow mappings and lists, every quoting style, comments on every kind of
// line, blank lines, an alias, a block scalar, no final newline.
const Odd = `---
# Odd but valid.
version:    1          # spaces before the value

metadata:
    title:   'It''s "quoted"'   # single quotes with an escape
    subject: "biology"
    grade: 7
    duration_minutes: 45.0
    language: en
    objectives: ["Name the inputs", 'Name the outputs']
    prerequisites: &pre
        - cells


        - energy   # after two blank lines
    standards: *pre
    vocabulary: [{term: leaf, definition: "a plant's food factory"}]

slides:
    # first
    -   id: one
        title: >-
            A folded
            title
        notes: |
            Line one.

            Line three, after a blank line.
        whiteboard: {heading: One, elements: [{id: t, type: text, text: "Hi: there", x: 1, y: 1, w: 10, h: 10}]}
    - {id: two, title: Two, whiteboard: !pending "later"}
    - id: three
      title: "Three"   # two-space continuation inside a four-space file
      whiteboard:
          canvas: {width: 1280, height: 720}
          elements:
          - id: a
            type: shape
            shape: rect
            x: 0
            y: 0
            w: 100
            h: 100   # last line has no newline`

// Practice is the slide the tests' model adds.
func Practice(title string) lesson.AddSlide {
	return lesson.AddSlide{Title: title, Section: "Explore", DurationMinutes: 10, Notes: "Work in pairs.", Briefs: map[string]string{"whiteboard": "three fraction bars"}}
}

// Compact uses compact sequences (dashes at the key's column).
const Compact = `version: 1
metadata:
  title: Compact
  objectives:
  - one
  - two
slides:
- id: a
  title: A
  whiteboard:
    elements:
    - {id: x, type: text, text: X, x: 0, y: 0, w: 10, h: 10}
    - !pending "more"
- !pending "later slides"
`
