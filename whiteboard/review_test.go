package whiteboard_test

import (
	"strings"
	"testing"

	"github.com/lessongen/lessongen/whiteboard"
)

// describe_whiteboard lists every element's style as drawn (defaults
// included) and how its text fits, measured.
func TestDescribeWhiteboardReviewsStyleAndFit(t *testing.T) {
	s, b := newSession(t, oldStyleSrc)
	tight := whiteboard.AddText{Box: box(700, 400, 120, 40), Text: "A caption far too long for this box", Style: &whiteboard.Style{Color: "#333", FontSize: 18, Bold: true}}
	tight.ID = "tight"
	tight.Sources = []string{"ch1.md:4", "ch1.md:10-12"}
	apply(t, s, b, tight)
	res := dispatch(t, s, whiteboard.DescribeWhiteboard{})
	got := res.Outputs[0].(string)
	want := `Style and text fit, element by element:
- sun: color darkorange, stroke darkorange, fill #fff3d6, font 24; text 1 line(s) needing 43x30 of its 240x160 box: fits; centred in the shape
- leaf: color darkgreen, stroke darkgreen, fill none, font 24; text 1 line(s) needing 47x30 of its 300x160 box: fits; centred in the shape
- note: color navy, no outline, fill #eef, font 24; text 1 line(s) needing 253x30 of its 600x80 box: fits; drawn from the box's top down (y 400 to 430), left-aligned
- rule: color gray, stroke gray
- light: color #1b1f24, stroke #1b1f24, label font 18
- tight: color #333, no outline, fill none, font 18 bold; text 3 line(s) needing 111x68 of its 120x40 box: does not fit; drawn from the box's top down (y 400 to 468), left-aligned; cites ch1.md:4, ch1.md:10-12`
	if !strings.HasSuffix(got, want) {
		t.Errorf("got:\n%s\nwant it to end:\n%s", got, want)
	}
	if !strings.HasPrefix(got, b.Describe()) {
		t.Errorf("the review should start with the description")
	}
}
