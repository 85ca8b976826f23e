package compose_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

const boardFileSrc = `# A whiteboard in its own file.
canvas:
  width: 1280   # wide
  height: 720

heading: "Recap"
elements:
  - id: first
    type: text
    x: 10
    y: 10
    w: 300
    h: 50
    text: First point
  - !pending "two more points"
`

func copyExample(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../examples/photosynthesis")); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "lesson.yaml")
}

func roundTripCases(t *testing.T) map[string]string {
	t.Helper()
	fr := writeFiles(t, map[string]string{"lesson.yaml": fractionsSrc, "boards/recap.yaml": recapSrc})
	odd := writeFiles(t, map[string]string{"lesson.yaml": oddSrc})
	compact := writeFiles(t, map[string]string{"lesson.yaml": compactSrc})
	files := writeFiles(t, map[string]string{
		"lesson.yaml":   "version: 1\nmetadata:\n  title: Files\nslides:\n  - id: r\n    title: R\n    whiteboard: {file: boards/r.yaml}   # own file\n",
		"boards/r.yaml": boardFileSrc,
	})
	return map[string]string{
		"fractions":       filepath.Join(fr, "lesson.yaml"),
		"odd formatting":  filepath.Join(odd, "lesson.yaml"),
		"compact lists":   filepath.Join(compact, "lesson.yaml"),
		"file-backed":     filepath.Join(files, "lesson.yaml"),
		"bundled example": copyExample(t),
	}
}

// Loading and saving without a change writes nothing in place, and a copy
// is byte for byte the original, even with every whiteboard loaded.
func TestRoundTripUnchanged(t *testing.T) {
	for name, path := range roundTripCases(t) {
		t.Run(name, func(t *testing.T) {
			orig, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			d, err := compose.Load(path, testRegistry())
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			for warm := range 2 {
				if warm == 1 {
					if err := d.LoadAll(); err != nil {
						t.Fatalf("load all: %v", err)
					}
				}
				files, err := d.Render("")
				if err != nil {
					t.Fatal(err)
				}
				if len(files) != 0 {
					t.Errorf("warm=%d: an unchanged document writes %d files: %s", warm, len(files), files[0].Data)
				}
				copyPath := filepath.Join(filepath.Dir(path), "copy", "lesson.yaml")
				files, err = d.Render(copyPath)
				if err != nil {
					t.Fatal(err)
				}
				last := files[len(files)-1]
				if last.Path != copyPath || string(last.Data) != string(orig) {
					t.Errorf("warm=%d: a copy differs from the original:\n%s", warm, last.Data)
				}
			}
			if err := d.Save(""); err != nil {
				t.Fatal(err)
			}
			if after, _ := os.ReadFile(path); string(after) != string(orig) {
				t.Errorf("saving in place changed the file:\n%s", after)
			}
		})
	}
}

func TestRoundTripCRLF(t *testing.T) {
	src := strings.ReplaceAll(fractionsSrc, "\n", "\r\n")
	d := load(t, src, "boards/recap.yaml", strings.ReplaceAll(recapSrc, "\n", "\r\n"))
	if err := d.LoadAll(); err != nil {
		t.Fatal(err)
	}
	if files, err := d.Render(""); err != nil || len(files) != 0 {
		t.Errorf("unchanged CRLF file: %d files, %v", len(files), err)
	}
	s := d.Session()
	dispatch(t, s, lesson.SetObjectives{Objectives: lesson.Items("Add", "Compare")})
	dispatch(t, s, practice("Practice one"))
	dispatch(t, s, lesson.UpdateSlide{ID: "intro", Notes: ptr("Share a pizza.")})
	got := rendered(t, d)[d.Path]
	keptInOrder(t, src, got, "objectives:", "notes: !pending")
	// Spliced lines take the file's CRLF endings too: no bare LF anywhere.
	if bare := strings.Count(strings.ReplaceAll(string(got), "\r\n", ""), "\n"); bare != 0 {
		t.Errorf("%d bare LF line ends in a CRLF file:\n%q", bare, got)
	}
	d2 := reload(t, d)
	if v := plan(d2).Metadata.Objectives.Value; !slices.Equal(lesson.Texts(v), []string{"Add", "Compare"}) {
		t.Errorf("objectives after reload = %v", v)
	}
}

// A save after changes alters only the spots that changed: every other line
// of the original is still there, in order.
func TestSaveChangesOnlyChangedSpots(t *testing.T) {
	d := loadFractions(t)
	s := d.Session()
	ctx := context.Background()
	dispatch(t, s, lesson.SetObjectives{Objectives: lesson.Items("Add fractions with like denominators", "Explain the rule")})
	dispatch(t, s, lesson.SetSubject{Subject: "math"})
	dispatch(t, s, lesson.UpdateSlide{ID: "intro", Notes: ptr("Share 3 pizzas among 8 friends.")})
	if res := dispatch(t, s, practice("Practice one")); res.Outputs[0].(lesson.SlideAdded).PendingID != "p1" {
		t.Fatalf("added %+v", res.Outputs)
	}
	if added := s.ReconcileChildren(); !slices.Equal(added, []session.Key{board("practice-one")}) {
		t.Errorf("reconcile added %v", added)
	}
	// An inline board, through the lesson's session.
	if _, err := s.DispatchChild(ctx, board("wrap"), whiteboard.AddText{Box: whiteboard.Box{X: 200, Y: 10, W: 300, H: 40}, Text: "Key idea"}); err != nil {
		t.Fatal(err)
	}
	// A file-backed board, through the document.
	recap, err := d.Child("recap", "whiteboard")
	if err != nil {
		t.Fatal(err)
	}
	dispatch(t, recap, whiteboard.AddText{Box: whiteboard.Box{X: 10, Y: 10, W: 300, H: 40}, Text: "Same denominator, add numerators"})
	// A board a new slide placed, generated from its pending brief.
	if _, err := s.DispatchChild(ctx, board("practice-one"), whiteboard.SetHeading{Heading: "Practice"}); err != nil {
		t.Fatal(err)
	}

	files := rendered(t, d)
	if len(files) != 2 {
		t.Fatalf("writes %d files, want the lesson and the recap board", len(files))
	}
	got := files[d.Path]
	keptInOrder(t, fractionsSrc, got, "objectives:", "subject: !pending", "notes: !pending")
	for _, want := range []string{
		"  subject: math\n",
		"  objectives:   # two or three\n    - Add fractions with like denominators\n    - Explain the rule\n",
		"    notes: Share 3 pizzas among 8 friends.\n",
		"  - id: practice-one\n",
		"    whiteboard:\n      heading: Practice\n",
		"        - id: text1\n          type: text\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("saved lesson lacks %q:\n%s", want, got)
		}
	}
	recapPath := filepath.Join(filepath.Dir(d.Path), "boards", "recap.yaml")
	gotRecap, ok := files[recapPath]
	if !ok {
		t.Fatalf("the file-backed board's own file is not written; files: %v", slices.Collect(mapKeys(files)))
	}
	keptInOrder(t, recapSrc, gotRecap, "elements: !pending")
	if !strings.Contains(gotRecap, "Same denominator, add numerators") || strings.Contains(got, "Same denominator") {
		t.Errorf("the recap board's change went to the wrong file:\n%s", gotRecap)
	}

	d2 := reload(t, d)
	p2 := plan(d2)
	if !slices.Equal(p2.SlideIDs(), []string{"intro", "practice-one", "wrap", "recap"}) || p2.Metadata.Subject.Value != "math" {
		t.Errorf("reloaded %v, subject %q", p2.SlideIDs(), p2.Metadata.Subject.Value)
	}
	for id, want := range map[string]string{"wrap": "Key idea", "recap": "Same denominator"} {
		b, err := d2.Child(id, "whiteboard")
		if err != nil {
			t.Fatal(err)
		}
		b.View(func(st session.State) {
			if !strings.Contains(st.(*whiteboard.Board).Describe(), want) {
				t.Errorf("reloaded board %s lacks %q", id, want)
			}
		})
	}
}

func mapKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func TestFileBackedBoardChangeWritesOnlyItsFile(t *testing.T) {
	d := loadFractions(t)
	if files := d.ChildFiles(); len(files) != 1 || files[0] != "boards/recap.yaml" {
		t.Errorf("board files = %v", files)
	}
	recap, err := d.Child("recap", "whiteboard")
	if err != nil {
		t.Fatal(err)
	}
	dispatch(t, recap, whiteboard.SetLayout{Layout: "three bullets"})
	files, err := d.Render("")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || !strings.HasSuffix(files[0].Path, filepath.Join("boards", "recap.yaml")) {
		t.Fatalf("files = %v, want only the board's file", files)
	}
	want := strings.Replace(recapSrc, "heading: What we learned\n", "heading: What we learned\nlayout: three bullets\n", 1)
	if string(files[0].Data) != want {
		t.Errorf("board file:\n%s\nwant:\n%s", files[0].Data, want)
	}
	// Undo makes it unchanged again: nothing to write.
	dispatch(t, recap, session.Undo{})
	if files, _ := d.Render(""); len(files) != 0 {
		t.Errorf("after undo, %d files to write", len(files))
	}
}

func TestRenderElsewhereCopiesBoardFiles(t *testing.T) {
	d := load(t, fractionsSrc, "boards/recap.yaml", recapSrc)
	out := filepath.Join(t.TempDir(), "copy", "lesson.yaml")

	// Cold: the board file is copied as it is.
	files, err := d.Render(out)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]string{}
	for _, f := range files {
		byPath[f.Path] = string(f.Data)
	}
	boardOut := filepath.Join(filepath.Dir(out), "boards", "recap.yaml")
	if byPath[out] != fractionsSrc || byPath[boardOut] != recapSrc || len(byPath) != 2 {
		t.Errorf("render elsewhere wrote %v", slices.Collect(mapKeys(byPath)))
	}
	// Board files come before the lesson that refers to them.
	if files[len(files)-1].Path != out {
		t.Errorf("the lesson is not written last")
	}

	// Hot and changed: the changed board goes to the copy; the originals stay.
	recap, _ := d.Child("recap", "whiteboard")
	dispatch(t, recap, whiteboard.SetLayout{Layout: "bullets"})
	if err := d.Save(out); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(boardOut); !strings.Contains(string(data), "layout: bullets") {
		t.Errorf("copied board:\n%s", data)
	}
	if data, _ := os.ReadFile(filepath.Join(filepath.Dir(d.Path), "boards", "recap.yaml")); string(data) != recapSrc {
		t.Errorf("the original board changed:\n%s", data)
	}
	copied, err := compose.Load(out, testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	if err := copied.LoadAll(); err != nil {
		t.Fatal(err)
	}
}

func TestSaveIsAtomicAndKeepsPermissions(t *testing.T) {
	d := loadFractions(t)
	dir := filepath.Dir(d.Path)
	board := filepath.Join(dir, "boards", "recap.yaml")
	for _, p := range []string{d.Path, board} {
		if err := os.Chmod(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	dispatch(t, d.Session(), lesson.SetSubject{Subject: "math"})
	recap, _ := d.Child("recap", "whiteboard")
	dispatch(t, recap, whiteboard.SetLayout{Layout: "bullets"})
	if err := d.Save(""); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{d.Path, board} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v after save, want 0600", filepath.Base(p), fi.Mode().Perm())
		}
	}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(d.Path); !strings.Contains(string(data), "subject: math") {
		t.Errorf("saved:\n%s", data)
	}
}

// A save that cannot complete leaves the input intact and no temporary
// file behind. Files written before the failure are whole.
func TestFailedSaveLeavesInputIntact(t *testing.T) {
	d := loadFractions(t)
	dispatch(t, d.Session(), lesson.SetSubject{Subject: "math"})
	// The target is a directory: the final rename must fail.
	outDir := t.TempDir()
	blocked := filepath.Join(outDir, "out.yaml")
	if err := os.MkdirAll(filepath.Join(blocked, "keep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(blocked); err == nil {
		t.Fatal("save over a directory succeeded")
	}
	err := filepath.WalkDir(outDir, func(p string, e fs.DirEntry, err error) error {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", p)
		}
		if filepath.Base(p) == "recap.yaml" {
			if data, _ := os.ReadFile(p); string(data) != recapSrc {
				t.Errorf("a partly written board file: %q", data)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(d.Path); string(data) != fractionsSrc {
		t.Error("the input changed")
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string // substrings of the error, each with its position
	}{
		{"syntax", map[string]string{"lesson.yaml": "version: 1\nmetadata: [\n"}, []string{"lesson.yaml:2:1: invalid YAML"}},
		{"not a mapping", map[string]string{"lesson.yaml": "- a\n"}, []string{"lesson.yaml:1:1: a lesson file is a mapping"}},
		{"wrong version", map[string]string{"lesson.yaml": "version: 2\nmetadata:\n  title: T\nslides: []\n"}, []string{"lesson.yaml:1:10: version 2 is not supported"}},
		{"typo and missing title", map[string]string{"lesson.yaml": "version: 1\nmetadata:\n  titel: T\nslides: []\n"},
			[]string{`lesson.yaml:3:3: unknown key "titel" in metadata; did you mean "title"?`}},
		{"duplicate and bad ids", map[string]string{"lesson.yaml": "version: 1\nmetadata:\n  title: T\nslides:\n  - {id: a, title: A}\n  - {id: a, title: B}\n  - {id: 'no spaces', title: C}\n"},
			[]string{`lesson.yaml:6:10: duplicate slide id "a" (first at line 5)`, `lesson.yaml:7:10: slide "no spaces" (3).id "no spaces" must use only letters`}},
		{"board file under a file", map[string]string{"lesson.yaml": "version: 1\nmetadata:\n  title: T\nslides:\n  - id: a\n    title: A\n    whiteboard: {file: lesson.yaml/none.yaml}\n"},
			[]string{`lesson.yaml:7:24: slide "a" (1).whiteboard.file "lesson.yaml/none.yaml" cannot be created: lesson.yaml is not a folder`}},
		{"board file outside", map[string]string{"lesson.yaml": "version: 1\nmetadata:\n  title: T\nslides:\n  - id: a\n    title: A\n    whiteboard: {file: ../x.yaml}\n"},
			[]string{"must stay inside the lesson's folder"}},
		{"bad inline board", map[string]string{"lesson.yaml": "version: 1\nmetadata:\n  title: T\nslides:\n  - id: a\n    title: A\n    whiteboard:\n      canvas: {width: 5, height: 5}\n"},
			[]string{`lesson.yaml:8:7: slide "a" (1).whiteboard.canvas must be between 100`}},
		{"misspelt child and field", map[string]string{"lesson.yaml": "version: 1\nmetadata:\n  title: T\nslides:\n  - id: a\n    titel: A\n    whitebord: !pending\n    colour: red\n"},
			[]string{`lesson.yaml:6:5: unknown key "titel" in slide "a" (1); did you mean "title"?`, `lesson.yaml:7:5: unknown key "whitebord" in slide "a" (1); did you mean "whiteboard"?`,
				`lesson.yaml:8:5: unknown key "colour" in slide "a" (1); allowed keys: id, title, section, duration_minutes, notes, callouts, sources, props, generated_for, whiteboard`}},
		{"durations out of range", map[string]string{"lesson.yaml": "version: 1\nmetadata:\n  title: T\n  duration_minutes: 2\nslides:\n  - id: a\n    title: A\n    duration_minutes: 500\n"},
			[]string{"lesson.yaml:4:21: metadata.duration_minutes must be between 5 and 600, got 2", `lesson.yaml:8:23: slide "a" (1).duration_minutes must be between 1 and 120, got 500`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, tt.files)
			_, err := compose.Load(filepath.Join(dir, "lesson.yaml"), testRegistry())
			var ps yamlsrc.Problems
			if !errors.As(err, &ps) {
				t.Fatalf("err = %v, want Problems", err)
			}
			msg := strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "")
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error lacks %q:\n%s", w, msg)
				}
			}
		})
	}
	if _, err := compose.Load(filepath.Join(t.TempDir(), "none.yaml"), testRegistry()); err == nil || !strings.Contains(err.Error(), "cannot read the lesson") {
		t.Errorf("missing file: %v", err)
	}
}

func TestBoardFilePaths(t *testing.T) {
	tests := []struct {
		file string
		ok   bool
	}{
		{"boards/b.yaml", true},
		{"..boards/b.yaml", true}, // a folder whose name starts with two dots
		{"boards/../b.yaml", true},
		{"../b.yaml", false},
		{"boards/../../b.yaml", false},
		{"/tmp/b.yaml", false},
	}
	for _, tt := range tests {
		dir := writeFiles(t, map[string]string{
			"lesson.yaml":     "version: 1\nmetadata:\n  title: T\nslides:\n  - id: a\n    title: A\n    whiteboard: {file: \"" + tt.file + "\"}\n",
			"boards/b.yaml":   "heading: B\n",
			"..boards/b.yaml": "heading: B\n",
			"b.yaml":          "heading: B\n",
		})
		_, err := compose.Load(filepath.Join(dir, "lesson.yaml"), testRegistry())
		if tt.ok && err != nil {
			t.Errorf("%s: %v", tt.file, err)
		}
		if !tt.ok && (err == nil || !strings.Contains(err.Error(), "must stay inside the lesson's folder")) {
			t.Errorf("%s: %v, want a refusal", tt.file, err)
		}
	}
}

func TestBadBoardFileIsReportedWhenLoaded(t *testing.T) {
	d := load(t, "version: 1\nmetadata:\n  title: T\nslides:\n  - id: a\n    title: A\n    whiteboard: {file: b.yaml}\n",
		"b.yaml", "canvas:\n  width: 1280\n  colour: red\n  height: 720\n")
	err := d.LoadAll()
	var ps yamlsrc.Problems
	if !errors.As(err, &ps) || len(ps) != 1 || ps[0].Line != 3 || ps[0].Col != 3 || !strings.HasSuffix(ps[0].File, "b.yaml") {
		t.Errorf("err = %v, want the board file's own position", err)
	}
	if _, err := d.Child("a", "whiteboard"); err == nil {
		t.Error("a bad board loaded")
	}
}

func TestChildrenAreSlidesWithBoards(t *testing.T) {
	d := load(t, "version: 1\nmetadata:\n  title: T\nslides:\n  - {id: a, title: A}\n  - {id: b, title: B, whiteboard: !pending \"later\"}\n  - !pending\n")
	if got := d.Session().Children(); !slices.Equal(got, []session.Key{board("b")}) {
		t.Errorf("children = %v, want only the slide with a whiteboard", got)
	}
	if _, err := d.Child("a", "whiteboard"); !errors.Is(err, session.ErrUnknownChild) {
		t.Errorf("board of a slide without one: %v", err)
	}
	b, err := d.Child("b", "whiteboard")
	if err != nil {
		t.Fatal(err)
	}
	b.View(func(st session.State) {
		if got := st.(*whiteboard.Board).Pending(); len(got) != 3 {
			t.Errorf("a pending board has pending %v", got)
		}
	})
}

// Removing a slide detaches its board; undoing the removal brings it back
// with its changes.
func TestRemovedSlideBoardComesBack(t *testing.T) {
	d := loadFractions(t)
	s := d.Session()
	ctx := context.Background()
	dispatch(t, s, practice("Practice one"))
	s.ReconcileChildren()
	if _, err := s.DispatchChild(ctx, board("practice-one"), whiteboard.SetHeading{Heading: "Kept"}); err != nil {
		t.Fatal(err)
	}
	dispatch(t, s, lesson.RemoveSlide{ID: "practice-one"})
	s.ReconcileChildren()
	if _, err := d.Child("practice-one", "whiteboard"); !errors.Is(err, session.ErrUnknownChild) {
		t.Errorf("board of a removed slide: %v", err)
	}
	if strings.Contains(rendered(t, d)[d.Path], "Kept") {
		t.Error("a removed slide's board is still saved")
	}
	dispatch(t, s, session.Undo{})
	s.ReconcileChildren()
	if !strings.Contains(rendered(t, d)[d.Path], "heading: Kept") {
		t.Errorf("the board's change did not come back:\n%s", rendered(t, d)[d.Path])
	}
}

func TestSaveChangesOddFormatting(t *testing.T) {
	d := load(t, oddSrc)
	s := d.Session()
	ctx := context.Background()
	plan(d).Protect = false // to replace the author's title
	dispatch(t, s, lesson.SetTitle{Title: "Plain now"})
	dispatch(t, s, lesson.AddSlide{Title: "Four", DurationMinutes: 3, Briefs: map[string]string{"whiteboard": "a summary"}})
	s.ReconcileChildren()
	for _, id := range []string{"one", "three"} {
		if _, err := s.DispatchChild(ctx, board(id), whiteboard.AddText{Box: whiteboard.Box{X: 500, Y: 500, W: 10, H: 10}, Text: "new " + id}); err != nil {
			t.Fatal(err)
		}
	}
	got := rendered(t, d)[d.Path]
	// The title line changes, and the flow-style board of slide one is
	// rewritten whole; everything else stays.
	keptInOrder(t, oddSrc, got, "title:   'It''s", "whiteboard: {heading: One", "h: 100   # last line")
	for _, want := range []string{
		// The comment after a replaced value stays.
		"    title: Plain now   # single quotes with an escape\n",
		// New text uses the file's four-space step ...
		"        whiteboard:\n            heading: One\n            elements:\n                - id: t\n",
		// ... and new items follow their list's own column.
		"            h: 100   # last line has no newline\n          - id: text1\n            type: text\n",
		"    - id: four\n      title: Four\n      duration_minutes: 3\n      whiteboard: !pending \"a summary\"",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("saved lacks %q:\n%s", want, got)
		}
	}
	if strings.HasSuffix(got, "\n") {
		t.Error("a file without a final newline gained one")
	}
	d2 := reload(t, d)
	if ids := plan(d2).SlideIDs(); !slices.Equal(ids, []string{"one", "two", "three", "four"}) {
		t.Errorf("reloaded slides %v", ids)
	}
}

func TestSaveChangesBundledExample(t *testing.T) {
	path := copyExample(t)
	orig, _ := os.ReadFile(path)
	summaryPath := filepath.Join(filepath.Dir(path), "slides", "summary.yaml")
	origSummary, _ := os.ReadFile(summaryPath)
	d, err := compose.Load(path, testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	s := d.Session()
	ctx := context.Background()
	dispatch(t, s, lesson.SetObjectives{Objectives: lesson.Items("Name the inputs and outputs of photosynthesis")})
	dispatch(t, s, lesson.SetStandards{Standards: []string{"MS-LS1-6"}})
	dispatch(t, s, lesson.UpdateSlide{ID: "light", Notes: ptr("Light hits the thylakoids.")})
	dispatch(t, s, lesson.AddSlide{Title: "Inputs and outputs", DurationMinutes: 5, Briefs: map[string]string{"whiteboard": "a two-column table"}})
	dispatch(t, s, lesson.AddSlide{Title: "Where it happens", DurationMinutes: 5, Briefs: map[string]string{"whiteboard": "a chloroplast map"}})
	dispatch(t, s, lesson.ClosePlaceholders{})
	s.ReconcileChildren()
	steps := []struct {
		id string
		in session.Intent
	}{
		{"hook", whiteboard.AddShape{Box: whiteboard.Box{X: 80, Y: 300, W: 300, H: 200}, Shape: "rect", Label: "Guess 1"}},
		{"hook", whiteboard.ClosePlaceholders{}},
		{"light", whiteboard.SetHeading{Heading: "The light reactions"}},
		{"light", whiteboard.AddEquation{Box: whiteboard.Box{X: 100, Y: 100, W: 500, H: 80}, Latex: `2H_2O \to 4H^+ + O_2`}},
		{"equation", whiteboard.UpdateElement{ID: "reactants", Text: ptr("Reactants")}},
		{"summary", whiteboard.AddText{Box: whiteboard.Box{X: 40, Y: 200, W: 360, H: 300}, Text: "Inputs: light, water, CO2"}},
	}
	for _, st := range steps {
		if _, err := s.DispatchChild(ctx, board(st.id), st.in); err != nil {
			t.Fatalf("%s %T: %v", st.id, st.in, err)
		}
	}
	files := rendered(t, d)
	keptInOrder(t, string(orig), files[path],
		"objectives:", "standards: !pending", `notes: !pending "explain`, `whiteboard: !pending "a labelled chloroplast`,
		`- !pending "three empty boxes`, `- !pending "two practice slides`, `text: !pending "a short label for the reactants"`)
	if !strings.Contains(files[path], "# A null value is pending: lessongen writes the objectives.\n  objectives:\n    - Name the inputs") {
		t.Errorf("saved:\n%s", files[path])
	}
	if strings.Contains(files[path], "Inputs: light") {
		t.Error("the summary board's change went into the lesson file")
	}
	keptInOrder(t, string(origSummary), files[summaryPath], "elements: !pending")
	reload(t, d)
}

// An output beside the lesson would write its whiteboard files over the
// input's own; that is refused before anything is written.
func TestOutputBesideLessonWithBoardFilesIsRefused(t *testing.T) {
	d := loadFractions(t)
	beside := filepath.Join(filepath.Dir(d.Path), "out.yaml")
	if _, err := d.Render(beside); !errors.Is(err, compose.ErrSharedOutput) {
		t.Errorf("render beside: %v", err)
	}
	if err := d.CheckOutput(""); err != nil {
		t.Errorf("in place: %v", err)
	}
	if err := d.CheckOutput(filepath.Join(t.TempDir(), "out.yaml")); err != nil {
		t.Errorf("another folder: %v", err)
	}
}

func TestTwoSlidesCannotShareABoardFile(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "b"), 0o755)
	os.WriteFile(filepath.Join(dir, "b", "x.yaml"), []byte("heading: H\nelements: []\n"), 0o644)
	path := filepath.Join(dir, "l.yaml")
	os.WriteFile(path, []byte("version: 1\nmetadata:\n  title: T\nslides:\n  - id: a\n    title: A\n    whiteboard: {file: b/x.yaml}\n  - id: c\n    title: C\n    whiteboard: {file: ./b/x.yaml}\n"), 0o644)
	_, err := compose.Load(path, testRegistry())
	if err == nil || !strings.Contains(err.Error(), "l.yaml:10:24: slide \"c\" (2).whiteboard.file \"./b/x.yaml\" is already used by another child (line 7)") {
		t.Errorf("got %v", err)
	}
}
