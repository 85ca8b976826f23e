package compose_test

import (
	"strings"
	"testing"

	"github.com/lessongen/lessongen/whiteboard"
)

// An author's element without citations may be given some when its pending
// text is filled: the key is spliced in, every other byte stays.
func TestCitationAddedToAuthorsElement(t *testing.T) {
	src := `version: 1
metadata:
  title: T   # keep
slides:
  - id: a
    title: A
    whiteboard:
      elements:
        - id: cap     # the caption
          type: text
          x: 40
          y: 600
          w: 300
          h: 60
          text: !pending "a caption"
`
	d := load(t, src)
	b, err := d.Child("a", "whiteboard")
	if err != nil {
		t.Fatal(err)
	}
	text := "A leaf"
	dispatch(t, b, whiteboard.UpdateElement{ID: "cap", Text: &text, Sources: []string{"ch1.md:3"}})
	got := rendered(t, d)[d.Path]
	want := strings.Replace(src, `text: !pending "a caption"`, "text: A leaf\n          sources:\n            - ch1.md:3", 1)
	if got != want {
		t.Errorf("saved:\n%s\nwant:\n%s", got, want)
	}
	var where []string
	for _, f := range d.Citations() {
		for _, r := range f.Refs {
			where = append(where, f.File[strings.LastIndex(f.File, "/")+1:]+" "+r.Where)
		}
	}
	if strings.Join(where, ",") != `lesson.yaml slide "a" (1).whiteboard: element "cap" (1).sources` {
		t.Errorf("citations = %q", where)
	}
}
