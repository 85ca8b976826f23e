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
		{in.WithPicture(picturetest.HeaderPNG(65535, 65535), "x"), "is 65535×65535 pixels; a picture may be at most 10000 pixels a side"},
		{in.WithPicture(picturetest.TwoColourPNG(40, 20)[:69], "x"), "is not a readable picture"},
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

// generate --images draws only the images a run generated without a
// picture; the drawn picture is saved with its prompt and credit, and
// only a real picture is taken.
func TestUnpicturedAndAttachPicture(t *testing.T) {
	s, b := newSession(t, `heading: Leaves
elements:
  - id: mine
    type: image
    description: the author's own placeholder
    x: 10
    y: 100
    w: 100
    h: 100
  - !pending "two pictures"
`)
	dispatch(t, s, whiteboard.AddImage{Box: box(200, 100, 300, 200), Description: "a leaf", Alt: "a leaf", Placing: whiteboard.Placing{ID: "leaf"}})
	in := whiteboard.PlaceImage{Box: box(600, 100, 300, 200), Picture: "cell.png", Alt: "a cell", Placing: whiteboard.Placing{ID: "cell"}}
	dispatch(t, s, in.WithPicture(picturetest.TwoColourPNG(20, 10), "a cell"))
	wants := b.Unpictured()
	if len(wants) != 1 || wants[0].ID != "leaf" || !strings.HasPrefix(wants[0].Prompt, `a leaf (on a classroom whiteboard headed "Leaves")`) {
		t.Fatalf("unpictured %+v, want only leaf", wants)
	}
	for _, bad := range []struct {
		id   string
		data []byte
		want string
	}{
		{"mine", picturetest.TwoColourPNG(8, 8), "was written by the author"},
		{"cell", picturetest.TwoColourPNG(8, 8), "is not an image without a picture"},
		{"leaf", []byte("<html>not a picture</html>"), "is not a PNG, JPEG or WebP picture"},
		// a hostile --images server: a 5 MB answer, a picture bomb, a header and nothing else
		{"leaf", append(picturetest.TwoColourPNG(8, 8), make([]byte, whiteboard.MaxPictureBytes)...), "the image model's picture is larger than 5 MB"},
		{"leaf", picturetest.HeaderPNG(65535, 65535), "the image model's picture is 65535×65535 pixels; a picture may be at most 10000 pixels a side"},
		{"leaf", picturetest.SolidPNG(30000, 30000), "is 30000×30000 pixels"},
		{"leaf", picturetest.TwoColourPNG(40, 20)[:69], "the image model's picture is not a readable picture"},
	} {
		if _, err := s.Dispatch(context.Background(), b.Illustrate(bad.id, bad.data, "p", "c")); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("illustrate %s: %v, want %q", bad.id, err, bad.want)
		}
	}
	png := picturetest.TwoColourPNG(16, 8)
	dispatch(t, s, b.Illustrate("leaf", png, wants[0].Prompt, "generated by dall-e-3"))
	saved := render(t, b)
	for _, want := range []string{"prompt: a leaf (on a classroom", "credit: generated by dall-e-3", "src: images/leaf-"} {
		if !strings.Contains(saved, want) {
			t.Errorf("saved board lacks %q:\n%s", want, saved)
		}
	}
	if len(b.Unpictured()) != 0 || len(b.Attachments()) != 2 {
		t.Errorf("after drawing: unpictured %v, attachments %d", b.Unpictured(), len(b.Attachments()))
	}
}
