package whiteboard

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"strings"

	"github.com/lessongen/lessongen/internal/nodemeta"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// PlaceImage adds an image element showing one of the pictures
// list_images lists. A model names the picture, never a path: the bridge
// reads it from the author's sources (WithPicture) before dispatch, and
// the save path copies it beside the lesson (Attachments).
type PlaceImage struct {
	Box
	Picture string `json:"picture" jsonschema:"the picture's name exactly as list_images gives it"`
	Alt     string `json:"alt" jsonschema:"alt text for screen readers: what the picture shows here, one sentence"`
	Placing
	// placed is the picture as read from the sources; nil until the
	// bridge reads it, so a model cannot supply bytes or a path.
	placed *placed
}

type placed struct {
	data        []byte
	description string
}

func (PlaceImage) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Adds: true,
		Doc: "Add an image element showing one of the author's pictures, named as list_images gives it (only in a run given --sources). The picture keeps its aspect inside the box: size the box to its width and height."}
}

// PictureName is the picture the intent names, for the bridge to read.
func (in PlaceImage) PictureName() string { return in.Picture }

// WithPicture is the intent with the picture's bytes and its description
// (its caption in the sources, or its file name).
func (in PlaceImage) WithPicture(data []byte, description string) session.Intent {
	in.placed = &placed{data: data, description: description}
	return in
}

func (in PlaceImage) applyTo(b *Board, rc *session.Context) error {
	if in.placed == nil {
		return session.Reject(session.KindPrecondition, "picture", "call list_images, then place_image with a name it lists", "no picture %q was read from the author's sources", in.Picture)
	}
	alt, err := nodemeta.NonEmpty("alt", in.Alt)
	if err != nil {
		return err
	}
	if err := b.checkBox(in.Box); err != nil {
		return err
	}
	mime := pictureTypes[strings.ToLower(path.Ext(in.Picture))]
	if err := checkPicture(in.placed.data, mime); err != nil {
		return session.Reject(session.KindInvalidArgs, "picture", "place another picture from list_images", "picture %q %v", in.Picture, err)
	}
	e := &Element{Type: KindImage, Description: yamlsrc.Val(in.placed.description), Alt: yamlsrc.Val(alt),
		PictureSrc: copyName(path.Base(in.Picture), in.placed.data)}
	e.picture = &picture{mime: mime, data: in.placed.data, copy: true}
	return b.add(rc, e, in.Box, in.Placing)
}

// copyName is where a picture a run brings in is saved, relative to the
// YAML file that holds its board: images/<name>-<8 hex digits of its
// SHA-256><ext>. The hash in the name means a copy never stands in for a
// different picture of the same name: neither an author's file nor an
// earlier run's copy that an older version of the lesson still names.
func copyName(name string, data []byte) string {
	ext := strings.ToLower(path.Ext(name))
	stem := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		case r >= 'A' && r <= 'Z':
			return r + ('a' - 'A')
		}
		return '-'
	}, strings.TrimSuffix(name, path.Ext(name)))
	stem = strings.Trim(stem, "-")
	if len(stem) > 40 {
		stem = stem[:40]
	}
	if stem == "" {
		stem = "picture"
	}
	sum := sha256.Sum256(data)
	return modality.PicturesFolder + "/" + stem + "-" + hex.EncodeToString(sum[:4]) + ext
}

// Attachments are the pictures this run brought in, for the save path to
// write beside the YAML file that holds the board.
func (b *Board) Attachments() []modality.Attachment {
	var out []modality.Attachment
	seen := map[string]bool{}
	for _, e := range b.elements() {
		if e.IsPlaceholder || e.picture == nil || !e.picture.copy || seen[e.PictureSrc] {
			continue
		}
		seen[e.PictureSrc] = true
		out = append(out, modality.Attachment{Src: e.PictureSrc, Data: e.picture.data})
	}
	return out
}

// Pictures are every picture the board names, the author's and the
// run's, for a save to another folder to copy beside the YAML file that
// holds the board.
func (b *Board) Pictures() []modality.Attachment {
	var out []modality.Attachment
	seen := map[string]bool{}
	for _, e := range b.elements() {
		src := path.Clean(e.PictureSrc)
		if e.IsPlaceholder || e.picture == nil || seen[src] {
			continue
		}
		seen[src] = true
		out = append(out, modality.Attachment{Src: src, Data: e.picture.data})
	}
	return out
}

// pictureNote is how describe mentions an image's picture file.
func (e *Element) pictureNote() string {
	if e.PictureSrc == "" {
		return ""
	}
	return ", picture " + e.PictureSrc
}

// pictureFields are an image's picture fields as its provenance hash
// covers them: an author who gives a generated image a picture, or
// changes one, makes it theirs. Nil without any, so the hash of an
// element without a picture is what it was before pictures existed.
type pictureFields struct {
	Src, Fit, Credit, Licence, Prompt string `json:",omitempty"`
}

func (e *Element) pictureFields() *pictureFields {
	p := pictureFields{e.PictureSrc, e.Fit, e.Credit, e.Licence, e.Prompt}
	if p == (pictureFields{}) {
		return nil
	}
	return &p
}
