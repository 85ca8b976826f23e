package sources

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"fmt"
	"image"
	_ "image/gif" // the picture formats a listed image may be in
	_ "image/jpeg"
	_ "image/png"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"

	_ "golang.org/x/image/webp"

	"github.com/lessongen/lessongen/internal/clip"
	"github.com/lessongen/lessongen/internal/regfile"
	"github.com/lessongen/lessongen/session"
)

// MaxImageBytes is the largest picture a lesson may show, from the
// sources or beside the lesson: every picture is embedded in the HTML
// page, so a few of this size still make a page that opens quickly.
const MaxImageBytes = 5 << 20

// MaxImages bounds what list_images lists, as MaxFiles does for text.
const MaxImages = 200

// ImageTypes are the picture files a lesson may show, by extension, with
// the type their bytes must have.
var ImageTypes = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
	".gif": "image/gif", ".webp": "image/webp", ".svg": "image/svg+xml",
}

// CaptionExt ends the name of an image's sidecar: "leaf.png.txt" holds
// the caption of "leaf.png" on its first line.
const CaptionExt = ".txt"

// Image is one picture in the sources, as list_images shows it. Only its
// header is read to list it.
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
func imageType(name string) string { return ImageTypes[strings.ToLower(path.Ext(name))] }

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
	if img.Width, img.Height, err = imageSize(bufio.NewReader(f), img.Type); err != nil {
		return Image{}, refuse(session.KindInvalidArgs, "", "%q %v", name, err)
	}
	if img.Description == "" {
		img.Description = path.Base(rel)
	}
	return img, nil
}

// imageSize reads a picture's pixel size from its header, after checking
// that its bytes are of type want.
func imageSize(br *bufio.Reader, want string) (w, h int, err error) {
	if want == "image/svg+xml" {
		return svgSize(io.LimitReader(br, 64<<10))
	}
	head, _ := br.Peek(512)
	if got := http.DetectContentType(head); got != want {
		return 0, 0, fmt.Errorf("is not a %s picture by its contents (it reads as %s)", strings.TrimPrefix(want, "image/"), got)
	}
	c, _, err := image.DecodeConfig(br)
	if err != nil {
		return 0, 0, fmt.Errorf("is not a readable picture: %v", err)
	}
	return c.Width, c.Height, nil
}

// svgSize reads the root element's width and height, or its viewBox.
func svgSize(r io.Reader) (w, h int, err error) {
	d := xml.NewDecoder(r)
	for {
		tok, err := d.Token()
		if err != nil {
			return 0, 0, fmt.Errorf("is not an SVG picture: %v", err)
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if el.Name.Local != "svg" {
			return 0, 0, fmt.Errorf("is not an SVG picture: its root is <%s>", el.Name.Local)
		}
		attrs := map[string]string{}
		for _, a := range el.Attr {
			attrs[a.Name.Local] = a.Value
		}
		w, h = pixels(attrs["width"]), pixels(attrs["height"])
		if vb := strings.Fields(strings.ReplaceAll(attrs["viewBox"], ",", " ")); (w == 0 || h == 0) && len(vb) == 4 {
			w, h = pixels(vb[2]), pixels(vb[3])
		}
		return w, h, nil
	}
}

// pixels reads "400", "400px" or "400.5" as whole pixels, 0 otherwise.
func pixels(s string) int {
	f, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "px"), 64)
	if err != nil || f <= 0 || f > 1e6 {
		return 0
	}
	return int(f + 0.5)
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

// ReadImage reads a listed picture whole, checked to be of the type its
// name says by its bytes, at most MaxImageBytes.
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
	if _, _, err := imageSize(bufio.NewReader(bytes.NewReader(data)), mime); err != nil {
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
