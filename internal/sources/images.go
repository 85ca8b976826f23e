package sources

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/lessongen/lessongen/internal/clip"
	"github.com/lessongen/lessongen/internal/imagefile"
	"github.com/lessongen/lessongen/internal/regfile"
	"github.com/lessongen/lessongen/session"
)

// MaxImageBytes is the largest picture file a lesson may show
// (imagefile holds the limits and the checks of every picture).
const MaxImageBytes = imagefile.MaxBytes

// MaxImages bounds what list_images lists, as MaxFiles does for text.
const MaxImages = 200

// CaptionExt ends the name of an image's sidecar: "leaf.png.txt" holds
// the caption of "leaf.png" on its first line.
const CaptionExt = ".txt"

// Image is one picture in the sources, as list_images shows it. Only its
// header is read to list it (imagefile.Header: type and pixel limits).
type Image struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Type        string `json:"type"`
	// Width and Height are in pixels; 0 for an SVG that states neither.
	Width  int   `json:"width"`
	Height int   `json:"height"`
	Bytes  int64 `json:"bytes"`
}

// ImageListing is what Images finds.
type ImageListing struct {
	Images []Image
	// More counts the pictures past MaxImages; Skipped says which
	// pictures were left out and why.
	More    int
	Skipped []string
}

// Note says what the listing leaves out and why, "" when nothing.
func (l ImageListing) Note() string {
	var notes []string
	if l.More > 0 {
		notes = append(notes, fmt.Sprintf("%d more pictures not listed (at most %d are)", l.More, MaxImages))
	}
	if len(l.Skipped) > 0 {
		notes = append(notes, "not listed: "+strings.Join(l.Skipped, "; "))
	}
	return strings.Join(notes, ". ")
}

// imageType is the type a picture of this name must have, "" for a name
// that is no picture.
func imageType(name string) string { return imagefile.Types[strings.ToLower(path.Ext(name))] }

// Images lists the pictures in the sources, each described by its
// sidecar caption (or its file name), type, pixel size and bytes.
func (s *Sandbox) Images() ImageListing {
	var l ImageListing
	for i := range s.roots {
		r := &s.roots[i]
		_ = fs.WalkDir(r.r.FS(), ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || imageType(p) == "" {
				return nil
			}
			name := p
			if len(s.roots) > 1 {
				name = r.name + "/" + p
			}
			if len(l.Images) >= MaxImages {
				l.More++
				return nil
			}
			img, e := r.describeImage(name, p)
			if e != nil {
				l.Skipped = append(l.Skipped, e.Message)
				return nil
			}
			l.Images = append(l.Images, img)
			return nil
		})
	}
	return l
}

// describeImage reads the header of the picture rel (name as listed).
func (r *root) describeImage(name, rel string) (Image, *Error) {
	f, e := r.openRegular(name, rel, MaxImageBytes)
	if e != nil {
		return Image{}, e
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Image{}, refuse(session.KindInvalidArgs, "", "%q could not be read: %v", name, err)
	}
	img := Image{Name: name, Type: imageType(rel), Bytes: fi.Size(), Description: r.caption(rel)}
	if img.Width, img.Height, err = imagefile.Header(f, img.Type); err != nil {
		return Image{}, refuse(session.KindInvalidArgs, "", "%q %v", name, err)
	}
	if img.Description == "" {
		img.Description = path.Base(rel)
	}
	return img, nil
}

// caption is the first line of rel's sidecar, "" when there is none or
// it is not a short text file.
func (r *root) caption(rel string) string {
	f, e := r.openRegular(rel+CaptionExt, rel+CaptionExt, MaxLineBytes*4)
	if e != nil {
		return ""
	}
	defer f.Close()
	data, _, err := regfile.ReadAtMost(f, MaxLineBytes*4)
	if err != nil || bytes.IndexByte(data, 0) >= 0 {
		return ""
	}
	for line := range strings.Lines(string(data)) {
		if line = strings.TrimSpace(line); line != "" {
			return clip.Text(clipLine(line))
		}
	}
	return ""
}

// ReadImage reads a listed picture whole, at most MaxImageBytes, checked
// by imagefile.Check: of the type its name says, within the pixel limits,
// readable to its end.
func (s *Sandbox) ReadImage(name string) (data []byte, mime string, e *Error) {
	r, rel, e := s.resolve(name)
	if e != nil {
		return nil, "", e
	}
	mime = imageType(rel)
	if mime == "" {
		return nil, "", refuse(session.KindInvalidArgs, imagesHint, "%q is not a picture (PNG, JPEG, SVG, WebP or GIF)", name)
	}
	f, e := r.openRegular(name, rel, MaxImageBytes)
	if e != nil {
		if e.Kind == session.KindNotFound {
			e.Hint = imagesHint
		}
		return nil, "", e
	}
	defer f.Close()
	data, over, err := regfile.ReadAtMost(f, MaxImageBytes)
	if err != nil || over {
		return nil, "", refuse(session.KindPermission, imagesHint, "%q could not be read whole (at most %d bytes)", name, MaxImageBytes)
	}
	if err := imagefile.Check(data, mime); err != nil {
		return nil, "", refuse(session.KindInvalidArgs, imagesHint, "%q %v", name, err)
	}
	return data, mime, nil
}

const imagesHint = "call list_images for the pictures you may place"

// ImageDescription is how list_images describes a picture: its sidecar
// caption, or its file name.
func (s *Sandbox) ImageDescription(name string) string {
	r, rel, e := s.resolve(name)
	if e != nil {
		return path.Base(name)
	}
	if c := r.caption(rel); c != "" {
		return c
	}
	return path.Base(rel)
}
