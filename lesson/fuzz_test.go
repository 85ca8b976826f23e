package lesson_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/lesson"
)

// FuzzLoad feeds arbitrary files to the loader. Whatever it accepts must
// save: unchanged it writes nothing, and after a change it writes a file
// that loads again and holds the change. It must never panic.
func FuzzLoad(f *testing.F) {
	example, err := os.ReadFile("../examples/photosynthesis/lesson.yaml")
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		string(example),
		fractionsSrc,
		oddSrc,
		compactSrc,
		plainSrc,
		romansSrc,
		"version: 1\nmetadata:\n  title: T\nslides: []\n",
		"version: 1\nmetadata:\n  title:\nslides: !pending \"a few\"\n",
		"version: 1\nmetadata: {title: T, objectives: [a, b]}\nslides:\n- {id: a, title: A, whiteboard: {elements: [{id: x, type: arrow, from: y, to: z}]}}\n",
		"version: 1\nmetadata:\n  title: T\nslides:\n  - id: a\n    title: A\n    notes: |2\n        indented\n      base\n    whiteboard: !pending\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "lesson.yaml")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := compose.Load(path, testRegistry())
		if err != nil {
			return
		}
		files, err := d.Render("")
		if err != nil {
			t.Fatalf("render of an unchanged lesson: %v", err)
		}
		if len(files) != 0 {
			t.Fatalf("an unchanged lesson writes %s:\n--- in\n%s\n--- out\n%s", files[0].Path, data, files[0].Data)
		}
		if d.LoadAll() == nil {
			if files, err := d.Render(""); err != nil || len(files) != 0 {
				t.Fatalf("an unchanged lesson with its boards loaded writes %d files (%v)", len(files), err)
			}
		}

		res, err := d.Session().Dispatch(context.Background(), lesson.AddSlide{Title: "Fuzz slide", DurationMinutes: 1, Briefs: map[string]string{"whiteboard": "anything"}})
		if err != nil {
			t.Fatalf("add slide: %v", err)
		}
		added := res.Outputs[0].(lesson.SlideAdded).ID
		if err := d.Save(""); err != nil {
			t.Fatalf("save after a change: %v\n--- in\n%s", err, data)
		}
		out, _ := os.ReadFile(path)
		d2, err := compose.Load(path, testRegistry())
		if err != nil {
			t.Fatalf("the saved lesson does not load: %v\n--- in\n%s\n--- out\n%s", err, data, out)
		}
		var ids []string
		d2.View(func(p *lesson.Plan) { ids = p.SlideIDs() })
		if !slices.Contains(ids, added) {
			t.Fatalf("the saved lesson lost the added slide %q: %v\n--- out\n%s", added, ids, out)
		}
	})
}
