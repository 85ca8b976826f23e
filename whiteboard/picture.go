package whiteboard

import (
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lessongen/lessongen/internal/imagefile"
	"github.com/lessongen/lessongen/internal/regfile"
	"github.com/lessongen/lessongen/internal/textfit"
	"github.com/lessongen/lessongen/modality"
)

// MaxPictureBytes is the largest picture file an image element may name:
// the one limit, declared with the picture types and the pixel limits in
// internal/imagefile, so a picture listed from the sources is one a
// lesson may hold.
const MaxPictureBytes = imagefile.MaxBytes

// pictureTypes are the picture files an image's src may name, by
// extension, with the type their bytes must have.
var pictureTypes = imagefile.Types

// picture is an image element's file, read and checked once at load.
type picture struct {
	mime string
	data []byte
	// copy marks a picture a run brought in (place_image, generate
	// --images): the save path writes it beside the YAML (Attachments).
	copy bool
}

// loadPicture reads and checks e's src, a file inside dir (the folder of
// the YAML file holding e): "" when it is good or absent, else what is
// wrong. os.Root refuses `..` and symlinks that lead out of dir;
// regfile refuses a pipe or device without waiting on it, and
// readPicture a hard link, as the sources sandbox does.
func (e *Element) loadPicture(dir string) string {
	src := e.PictureSrc
	if src == "" || e.Type != KindImage {
		return ""
	}
	if !filepath.IsLocal(filepath.FromSlash(src)) {
		return fmt.Sprintf("src %q must be a file inside the lesson's folder (no .., not absolute)", src)
	}
	want, ok := pictureTypes[strings.ToLower(filepath.Ext(src))]
	if !ok {
		return fmt.Sprintf("src %q must be a PNG, JPEG, SVG, WebP or GIF file", src)
	}
	data, err := readPicture(dir, filepath.FromSlash(src))
	if err != nil {
		return fmt.Sprintf("src %q: %v", src, err)
	}
	if err := checkPicture(data, want); err != nil {
		return fmt.Sprintf("src %q: %v", src, err)
	}
	e.picture = &picture{mime: want, data: data}
	return ""
}

// readPicture reads name inside dir, at most MaxPictureBytes.
func readPicture(dir, name string) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := regfile.OpenIn(root, name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, errors.New("no such file in the lesson's folder")
	case errors.Is(err, regfile.ErrNotRegular):
		if pe, ok := errors.AsType[*fs.PathError](err); ok {
			return nil, pe.Err // the path is already in the message
		}
		return nil, err
	case err != nil:
		return nil, fmt.Errorf("cannot be opened inside the lesson's folder (a symlink out of it is refused): %v", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if n := regfile.Links(fi); n > 1 {
		return nil, fmt.Errorf("has %d hard links and is not read: a hard link may lead to a file outside the lesson's folder; put a copy of the picture in the folder instead", n)
	}
	data, over, err := regfile.ReadAtMost(f, MaxPictureBytes)
	if err != nil {
		return nil, err
	}
	if over {
		return nil, fmt.Errorf("is larger than %d MB; make the picture smaller", MaxPictureBytes>>20)
	}
	return data, nil
}

// checkPicture says whether data is a picture of type want by its bytes,
// not its name, within the pixel limits (imagefile.Check, the one check
// every way in shares).
func checkPicture(data []byte, want string) error { return imagefile.Check(data, want) }

// dataURI is the picture as a data: URI, to embed in the page.
func (p *picture) dataURI() string {
	return "data:" + p.mime + ";base64," + base64.StdEncoding.EncodeToString(p.data)
}

// creditLine is the credit and licence as shown under a picture.
func (e *Element) creditLine() string {
	var parts []string
	if e.Credit != "" {
		parts = append(parts, e.Credit)
	}
	if e.Licence != "" {
		parts = append(parts, e.Licence)
	}
	return strings.Join(parts, " · ")
}

// creditBand is the height kept at the foot of a picture's box for its
// credit line, and creditFontSize its size: small, as credits are shown.
const (
	creditBand     = 18.0
	creditFontSize = 12.0
)

// renderPicture draws e's picture in box, keeping its aspect (meet for
// contain, slice for cover: the image element clips to its own box), with
// its alt text as title and label and the credit small underneath; false
// when e has no picture.
func (e *Element) renderPicture(s *strings.Builder, box textfit.Box) bool {
	if e.picture == nil {
		return false
	}
	_, alt := e.imageText()
	credit := e.creditLine()
	pic := box
	if credit != "" && box.H > 2*creditBand {
		pic.H -= creditBand
	}
	aspect := "xMidYMid meet"
	if e.Fit == "cover" {
		aspect = "xMidYMid slice"
	}
	fmt.Fprintf(s, "<image x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" preserveAspectRatio=\"%s\" role=\"img\" aria-label=\"%s\" href=\"%s\"><title>%s</title></image>",
		n(pic.X), n(pic.Y), n(pic.W), n(pic.H), aspect, html.EscapeString(alt.Value), e.picture.dataURI(), html.EscapeString(alt.Value))
	if pic.H < box.H {
		band := textfit.Box{X: box.X, Y: pic.Y + pic.H + 2, W: box.W, H: creditBand - 2}
		s.WriteString("<g class=\"credit\">" + textfit.Wrap(credit, textfit.Style{FontSize: creditFontSize}, band.W).SVG(band, "right", "#56606b") + "</g>")
	}
	return true
}

// credits lists the board's pictures for the lesson's credits list.
func (b *Board) credits() []modality.Credit {
	var out []modality.Credit
	for _, e := range b.elements() {
		if !e.IsPlaceholder && e.picture != nil {
			_, alt := e.imageText()
			out = append(out, modality.Credit{Picture: alt.Value, File: e.PictureSrc, Credit: e.Credit, Licence: e.Licence})
		}
	}
	return out
}
