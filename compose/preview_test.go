package compose_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

const stageSrc = `version: 1
metadata:
  title: Stage   # the author's comment
  objectives: !pending
slides:
  - id: a
    title: A
    whiteboard:
      heading: !pending
      elements: []
  - id: b
    title: B
    whiteboard:
      heading: !pending
      elements: []
  - id: r
    title: R
    whiteboard: {file: boards/r.yaml}
`

const stageBoardSrc = `# own file
heading: !pending
elements: []
`

// Stage shows a previewed change as the file that holds the node would be
// saved before and after it: "after" is byte for byte what saving writes
// once the change is made, and "before" is the file as saved now, so an
// earlier change of the run is in both and a diff shows this change only.
func TestStageIsTheSaveWithAndWithoutTheChange(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		node func(d *compose.Document) *session.Session
		in   session.Intent
		file string
	}{
		{"lesson", func(d *compose.Document) *session.Session { return d.Session() },
			lesson.SetObjectives{Objectives: []lesson.Item{{Text: "Name the states"}}}, "lesson.yaml"},
		{"inline child", func(d *compose.Document) *session.Session { return child(t, d, "a") },
			whiteboard.SetHeading{Heading: "Water"}, "lesson.yaml"},
		{"child in its own file", func(d *compose.Document) *session.Session { return child(t, d, "r") },
			whiteboard.SetHeading{Heading: "Ice"}, "boards/r.yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := load(t, stageSrc, "boards/r.yaml", stageBoardSrc)
			// An earlier change, committed: not part of this preview.
			if _, err := child(t, d, "b").Dispatch(ctx, whiteboard.SetHeading{Heading: "Earlier"}); err != nil {
				t.Fatal(err)
			}
			sess := tc.node(d)
			var render func() (compose.FileChange, error)
			if _, err := sess.Preview(tc.in, func(st session.State) { render = d.Stage(sess, st) }); err != nil {
				t.Fatal(err)
			}
			got, err := render()
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(filepath.Dir(d.Path), tc.file); got.Path != want {
				t.Errorf("path %q, want %q", got.Path, want)
			}
			saved := func() []byte {
				files, err := d.Render("")
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range files {
					if f.Path == got.Path {
						return f.Data
					}
				}
				data, err := os.ReadFile(got.Path) // unchanged: not written
				if err != nil {
					t.Fatal(err)
				}
				return data
			}
			if now := saved(); !bytes.Equal(got.Before, now) {
				t.Errorf("before:\n%s\nwant the file as saved now:\n%s", got.Before, now)
			}
			if !bytes.Contains(got.Before, []byte("Earlier")) && tc.file == "lesson.yaml" {
				t.Errorf("before lacks the committed change:\n%s", got.Before)
			}
			if _, err := sess.Dispatch(ctx, tc.in); err != nil {
				t.Fatal(err)
			}
			if now := saved(); !bytes.Equal(got.After, now) {
				t.Errorf("after:\n%s\nwant the file as saved with the change:\n%s", got.After, now)
			}
		})
	}
}

func child(t *testing.T, d *compose.Document, id string) *session.Session {
	t.Helper()
	s, err := d.Child(id, "whiteboard")
	if err != nil {
		t.Fatal(err)
	}
	return s
}
