//go:build unix

package sources

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lessongen/lessongen/internal/picturetest"
	"github.com/lessongen/lessongen/session"
)

// imageSetup makes a sources folder with pictures good and bad beside a
// canary picture outside it.
func imageSetup(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	src := filepath.Join(base, "src")
	must(t, os.MkdirAll(filepath.Join(src, "diagrams"), 0o755))
	write := func(name string, data []byte) {
		must(t, os.WriteFile(filepath.Join(src, name), data, 0o644))
	}
	write("diagrams/leaf.png", picturetest.TwoColourPNG(400, 200))
	write("diagrams/leaf.png.txt", []byte("\n  A leaf cut across  \nsecond line\n"))
	write("cell.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 80"><rect width="10" height="10"/></svg>`))
	write("fake.png", []byte("just text, not a picture"))
	write("notes.md", []byte("# notes\n"))
	must(t, os.WriteFile(filepath.Join(base, "canary.png"), picturetest.TwoColourPNG(10, 10), 0o644))
	must(t, os.Symlink("../canary.png", filepath.Join(src, "out.png")))
	must(t, os.Link(filepath.Join(base, "canary.png"), filepath.Join(src, "hard.png")))
	must(t, syscall.Mkfifo(filepath.Join(src, "pipe.png"), 0o644))
	big := append(picturetest.TwoColourPNG(10, 10), make([]byte, MaxImageBytes)...)
	write("big.png", big)
	write("bomb.png", picturetest.HeaderPNG(65535, 65535))
	write("cut.gif", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00<script>alert(1)</script>"))
	return src
}

func TestImagesListsPicturesByHeader(t *testing.T) {
	s, err := Open([]string{imageSetup(t)})
	must(t, err)
	defer s.Close()
	l := s.Images()
	want := []Image{
		{Name: "cell.svg", Description: "cell.svg", Type: "image/svg+xml", Width: 120, Height: 80, Bytes: 99},
		// listed by its header, refused when read (below)
		{Name: "cut.gif", Description: "cut.gif", Type: "image/gif", Width: 1, Height: 1},
		{Name: "diagrams/leaf.png", Description: "A leaf cut across", Type: "image/png", Width: 400, Height: 200},
	}
	if len(l.Images) != len(want) {
		t.Fatalf("listed %+v, want %d pictures", l.Images, len(want))
	}
	for i, w := range want {
		got := l.Images[i]
		w.Bytes = got.Bytes
		if got != w {
			t.Errorf("picture %d = %+v, want %+v", i, got, w)
		}
	}
	note := l.Note()
	for _, left := range []string{`"fake.png" is not a png picture by its contents`, `"big.png" is`, `"hard.png" has 2 hard links`, `"pipe.png" is not a regular file`, `"out.png" cannot be read`, `"bomb.png" is 65535×65535 pixels; a picture may be at most 10000 pixels a side`} {
		if !strings.Contains(note, left) {
			t.Errorf("note %q does not say %s", note, left)
		}
	}
	if strings.Contains(note, "notes.md") {
		t.Errorf("note %q mentions a text source", note)
	}
}

func TestReadImageRefusesWhatListImagesLeavesOut(t *testing.T) {
	s, err := Open([]string{imageSetup(t)})
	must(t, err)
	defer s.Close()
	data, mime, e := s.ReadImage("diagrams/leaf.png")
	if e != nil || mime != "image/png" || string(data) != string(picturetest.TwoColourPNG(400, 200)) {
		t.Fatalf("ReadImage(leaf) = %d bytes, %q, %v", len(data), mime, e)
	}
	for _, c := range []struct {
		name string
		kind session.ErrorKind
	}{
		{"../canary.png", session.KindPermission},
		{"out.png", session.KindPermission},
		{"hard.png", session.KindPermission},
		{"pipe.png", session.KindPermission},
		{"big.png", session.KindPermission},
		{"fake.png", session.KindInvalidArgs},
		{"bomb.png", session.KindInvalidArgs},
		{"cut.gif", session.KindInvalidArgs},
		{"notes.md", session.KindInvalidArgs},
		{"missing.png", session.KindNotFound},
	} {
		if _, _, e := s.ReadImage(c.name); e == nil || e.Kind != c.kind {
			t.Errorf("ReadImage(%q) = %v, want a %s refusal", c.name, e, c.kind)
		}
	}
	if got := s.ImageDescription("diagrams/leaf.png"); got != "A leaf cut across" {
		t.Errorf("description %q", got)
	}
}
