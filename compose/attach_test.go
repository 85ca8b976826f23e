package compose_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/picturetest"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

const boardInOwnFile = `version: 1
metadata:
  title: Leaves
slides:
  - id: s
    title: S
    whiteboard: {file: boards/s.yaml}
  - id: t
    title: T
    whiteboard:
      heading: Inline
      elements: !pending "a picture"
`

const ownBoard = "heading: Own\nelements: !pending \"a picture\"\n"

// placeLeaf places a picture on slide's board as the bridge would, and
// returns the src the board gives it.
func placeLeaf(t *testing.T, d *compose.Document, slide string, png []byte) string {
	t.Helper()
	child, err := d.Child(slide, "whiteboard")
	if err != nil {
		t.Fatal(err)
	}
	in := whiteboard.PlaceImage{Box: whiteboard.Box{X: 40, Y: 130, W: 400, H: 200}, Picture: "Leaf Photo.png", Alt: "a leaf"}
	dispatch(t, child, in.WithPicture(png, "a leaf"))
	var atts []string
	child.View(func(st session.State) {
		for _, a := range st.(*whiteboard.Board).Attachments() {
			atts = append(atts, a.Src)
		}
	})
	if len(atts) != 1 {
		t.Fatalf("attachments %v, want one", atts)
	}
	return atts[0]
}

// A save writes each placed picture beside the YAML file that holds its
// board, before that file, and the file names it.
func TestSaveWritesPlacedPicturesBesideTheirYAML(t *testing.T) {
	d := load(t, boardInOwnFile, "boards/s.yaml", ownBoard)
	dir := filepath.Dir(d.Path)
	png := picturetest.TwoColourPNG(40, 20)
	own, inline := placeLeaf(t, d, "s", png), placeLeaf(t, d, "t", png)
	if !regexp.MustCompile(`^images/leaf-photo-[0-9a-f]{8}\.png$`).MatchString(own) || own != inline {
		t.Fatalf("srcs %q and %q", own, inline)
	}
	written := mustSave(t, compose.NewSaver(d))
	for _, p := range []string{filepath.Join(dir, "boards", own), filepath.Join(dir, inline)} {
		if read(t, p) != string(png) {
			t.Errorf("%s does not hold the picture", p)
		}
	}
	if !strings.Contains(read(t, filepath.Join(dir, "boards/s.yaml")), "src: "+own) || !strings.Contains(read(t, d.Path), "src: "+inline) {
		t.Errorf("a YAML file does not name its copy")
	}
	if len(written) < 2 || !strings.HasSuffix(written[0].Path, ".png") {
		t.Errorf("pictures not written first: %v", written)
	}
}

// An author's different file, or a link, where a copy goes stops the
// save with what to do, the author's file untouched and no YAML naming a
// picture that is not there.
func TestSaveNeverWritesOverTheAuthorsFile(t *testing.T) {
	for _, c := range []struct {
		name  string
		plant func(t *testing.T, dir, src string)
		want  string
	}{
		{"other picture", func(t *testing.T, dir, src string) {
			os.MkdirAll(filepath.Join(dir, "images"), 0o755)
			os.WriteFile(filepath.Join(dir, src), []byte("the author's"), 0o644)
		}, "holds another picture; it is not overwritten"},
		{"link at file", func(t *testing.T, dir, src string) {
			os.MkdirAll(filepath.Join(dir, "images"), 0o755)
			os.WriteFile(filepath.Join(dir, "elsewhere.png"), []byte("the author's"), 0o644)
			os.Symlink("../elsewhere.png", filepath.Join(dir, src))
		}, "is not a regular file (a link?)"},
		{"link at folder", func(t *testing.T, dir, src string) {
			os.MkdirAll(filepath.Join(dir, "outside"), 0o755)
			os.Symlink("outside", filepath.Join(dir, "images"))
		}, "is not a folder (a link?)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := load(t, boardInOwnFile, "boards/s.yaml", ownBoard)
			dir := filepath.Dir(d.Path)
			before := read(t, d.Path)
			src := placeLeaf(t, d, "t", picturetest.TwoColourPNG(40, 20))
			c.plant(t, dir, src)
			_, err := compose.NewSaver(d).Save("")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("save: %v, want %q", err, c.want)
			}
			if read(t, d.Path) != before {
				t.Errorf("the lesson was written naming a picture not saved")
			}
			if data, err := os.ReadFile(filepath.Join(dir, "elsewhere.png")); err == nil && string(data) != "the author's" {
				t.Errorf("written through the link")
			}
		})
	}
}

const authoredPictures = `version: 1
metadata:
  title: Leaves
slides:
  - id: s
    title: S
    whiteboard: {file: boards/s.yaml}
  - id: t
    title: T
    whiteboard:
      heading: Inline
      elements:
        - {id: leaf, type: image, src: ./images/leaf.png, alt: a leaf, x: 40, y: 130, w: 400, h: 200}
`

const authoredBoard = "heading: Own\nelements:\n  - {id: deep, type: image, src: pics/deep/leaf.png, alt: a leaf, x: 40, y: 130, w: 400, h: 200}\n"

// A save into another folder copies the author's pictures of cold
// children, inline and file-backed, beside the YAML that names each; in
// place it writes none.
func TestSaveElsewhereCopiesTheAuthorsPictures(t *testing.T) {
	inline, deep := picturetest.TwoColourPNG(40, 20), picturetest.TwoColourPNG(30, 30)
	d := load(t, authoredPictures, "boards/s.yaml", authoredBoard, "images/leaf.png", string(inline), "boards/pics/deep/leaf.png", string(deep))
	// An edit after load: a save in place that wrote the picture would
	// stop on it ("holds another picture").
	edited := filepath.Join(filepath.Dir(d.Path), "images/leaf.png")
	if err := os.WriteFile(edited, []byte("edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(""); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := d.Save(filepath.Join(out, "lesson.yaml")); err != nil {
		t.Fatal(err)
	}
	if read(t, filepath.Join(out, "images/leaf.png")) != string(inline) || read(t, filepath.Join(out, "boards/pics/deep/leaf.png")) != string(deep) {
		t.Errorf("the author's pictures were not copied beside the YAML that names them")
	}
	if read(t, edited) != "edited" {
		t.Errorf("the input's picture changed")
	}
}

// A link at any folder between the YAML's and the picture's stops the
// save, nothing written through it.
func TestSaveElsewhereRefusesALinkOnTheWay(t *testing.T) {
	d := load(t, authoredPictures, "boards/s.yaml", authoredBoard, "images/leaf.png", string(picturetest.TwoColourPNG(40, 20)), "boards/pics/deep/leaf.png", string(picturetest.TwoColourPNG(30, 30)))
	out, outside := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(out, "boards"), 0o755)
	os.Symlink(outside, filepath.Join(out, "boards", "pics"))
	err := d.Save(filepath.Join(out, "lesson.yaml"))
	if err == nil || !strings.Contains(err.Error(), filepath.Join(out, "boards", "pics")+" is not a folder (a link?)") {
		t.Fatalf("save: %v, want the link refused", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) > 0 {
		t.Errorf("written through the link: %v", entries)
	}
}
