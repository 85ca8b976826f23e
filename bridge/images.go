package bridge

import (
	"reflect"
	"slices"

	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/tool"
)

// ListImages lists the pictures in the author's sources.
type ListImages struct{}

func (ListImages) Spec() session.Spec {
	return session.Spec{Capability: tool.CapPictures, ReadOnly: true,
		Doc: "List the pictures in the author's sources (PNG, JPEG, SVG, WebP, GIF): name, description, type, width and height in pixels, bytes. Show one with place_image where it fits what the board explains."}
}

func (ListImages) Run(tc tool.Context) ([]any, *tool.Error) {
	if tc.Sources == nil {
		return nil, noSources()
	}
	l := tc.Sources.Images()
	out := []any{l.Images}
	if len(l.Images) == 0 {
		out = []any{"the sources hold no pictures"}
	}
	if note := l.Note(); note != "" {
		out = append(out, note)
	}
	return out, nil
}

// withPicture reads the picture in names from the sources into it; other
// intents pass unchanged.
func withPicture(tc tool.Context, in session.Intent) (session.Intent, *tool.Error) {
	p, ok := in.(modality.PicturePlacer)
	if !ok {
		return in, nil
	}
	if tc.Sources == nil {
		return nil, callErr(session.KindPermission, "picture", "use add_image for a placeholder an illustrator can draw from", "this run has no --sources, so there are no pictures to place")
	}
	data, _, e := tc.Sources.ReadImage(p.PictureName())
	if e != nil {
		return nil, &tool.Error{Kind: e.Kind, Path: "picture", Message: e.Message, Hint: e.Hint}
	}
	return p.WithPicture(data, tc.Sources.ImageDescription(p.PictureName())), nil
}

// places reports whether the entry's intent places a picture.
func (e *entry) places() bool { return e.typ.Implements(reflect.TypeFor[modality.PicturePlacer]()) }

// placesPictures reports whether level l has an intent that places a
// picture: only such levels are offered list_images, and that intent
// only with the sources (WithPictures).
func (c *Catalog) placesPictures(l modality.Level) bool {
	for _, e := range c.entries {
		if !e.spec.Hidden && l.Allows(e.spec.Capability) && e.places() {
			return true
		}
	}
	return false
}

// WithPictures is level l as a run with (sources) or without --sources
// offers it: the intents that place a picture from the sources are
// offered only with them, so a run without sources is offered none.
func WithPictures(l modality.Level, sources bool) modality.Level {
	if sources {
		l.Grant = append(slices.Clip(l.Grant), tool.CapPictures)
	}
	return l
}
