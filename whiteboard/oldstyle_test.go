package whiteboard_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/lessongen/lessongen/whiteboard"
)

var update = flag.Bool("update", false, "rewrite golden files")

// oldStyleSrc writes colours the way files did before style had a stroke:
// `color` on a shape or arrow is both its text and its line colour.
const oldStyleSrc = `elements:
  - id: sun
    type: shape
    shape: ellipse
    x: 40
    y: 60
    w: 240
    h: 160
    label: Sun
    style: {color: darkorange, fill: "#fff3d6"}
  - id: leaf
    type: shape
    shape: rect
    x: 700
    y: 60
    w: 300
    h: 160
    label: Leaf
    style: {color: darkgreen}
  - id: note
    type: text
    x: 40
    y: 400
    w: 600
    h: 80
    text: Light travels to the leaf.
    style: {color: navy, fill: "#eef"}
  - id: rule
    type: shape
    shape: line
    x: 40
    y: 560
    w: 600
    h: 1
    style: {color: gray}
  - id: light
    type: arrow
    from: sun
    to: leaf
    label: light
`

// A file written before stroke existed draws exactly as it did then.
func TestOldStyleColoursRenderUnchanged(t *testing.T) {
	b, _ := decode(t, oldStyleSrc)
	got := whiteboard.Render(b, nil).Body
	path := filepath.Join("testdata", "oldstyle.svg.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("render changed:\n--- got\n%s\n--- want\n%s", got, want)
	}
}
