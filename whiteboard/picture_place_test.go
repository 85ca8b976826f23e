package whiteboard_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/picturetest"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

// A placed picture is an image element whose src names its copy, which
// the board lists for the save path, described as the sources caption it.
func TestPlaceImageShowsThePictureItWasHanded(t *testing.T) {
	s, b := newSession(t, "heading: Leaves\nelements: !pending \"a leaf\"\n")
	png := picturetest.TwoColourPNG(40, 20)
	in := whiteboard.PlaceImage{Box: box(40, 130, 400, 200), Picture: "diagrams/Leaf photo.png", Alt: "a leaf"}
	dispatch(t, s, in.WithPicture(png, "A leaf cut across"))
	atts := b.Attachments()
	if len(atts) != 1 || string(atts[0].Data) != string(png) || !regexp.MustCompile(`^images/leaf-photo-[0-9a-f]{8}\.png$`).MatchString(atts[0].Src) {
		t.Fatalf("attachments %+v", atts)
	}
	saved := render(t, b)
	for _, want := range []string{"src: " + atts[0].Src, "description: A leaf cut across", "alt: a leaf"} {
		if !strings.Contains(saved, want) {
			t.Errorf("saved board lacks %q:\n%s", want, saved)
		}
	}
	if !strings.Contains(b.Describe(), "picture "+atts[0].Src) {
		t.Errorf("describe does not name the picture: %s", b.Describe())
	}
	// Another picture under the same name gets another file.
	in.Alt, in.ID = "another leaf", "leaf2"
	dispatch(t, s, in.WithPicture(picturetest.TwoColourPNG(41, 20), "another"))
	if atts2 := b.Attachments(); len(atts2) != 2 || atts2[1].Src == atts[0].Src {
		t.Errorf("two pictures named alike share a file: %+v", atts2)
	}
}

// The picture comes only from the bridge: an intent without one, or with
// bytes that are not the picture its name says, is refused.
func TestPlaceImageRefusesWithoutARealPicture(t *testing.T) {
	s, b := newSession(t, "heading: Leaves\nelements: !pending \"a leaf\"\n")
	in := whiteboard.PlaceImage{Box: box(40, 130, 400, 200), Picture: "leaf.png", Alt: "a leaf"}
	for _, c := range []struct {
		in   session.Intent
		want string
	}{
		{in, `no picture "leaf.png" was read from the author's sources`},
		{in.WithPicture([]byte("not a png"), "x"), "is not a png picture by its contents"},
		{whiteboard.PlaceImage{Box: box(40, 130, 400, 200), Picture: "x.svg", Alt: "a"}.WithPicture([]byte(`<svg><script>alert(1)</script></svg>`), "x"), "SVG has a <script> element"},
	} {
		_, err := s.Dispatch(context.Background(), c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("dispatch: %v, want %q", err, c.want)
		}
	}
	if len(b.Attachments()) != 0 {
		t.Errorf("a refused picture is kept")
	}
}
