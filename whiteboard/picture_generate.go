package whiteboard

import (
	"fmt"
	"net/http"

	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// AttachPicture gives an image element a run generated, and that has no
// picture yet, one an image model drew for it (generate --images), with
// the prompt it was drawn from and a credit to the model. Hidden: the run
// dispatches it once the subagents are done; no model is offered it.
type AttachPicture struct {
	ID     string `json:"id"`
	Prompt string `json:"prompt"`
	Credit string `json:"credit"`
	data   []byte
}

func (AttachPicture) Spec() session.Spec {
	return session.Spec{Capability: CapNode, Hidden: true, Doc: "Give a generated image element the picture an image model drew for it."}
}

// generatedTypes are the types an image model may answer with, and the
// extension each is saved under.
var generatedTypes = map[string]string{"image/png": ".png", "image/jpeg": ".jpg", "image/webp": ".webp"}

func (in AttachPicture) applyTo(b *Board, rc *session.Context) error {
	e, err := b.list().Editable(in.ID, b.Protect)
	if err != nil {
		return err
	}
	if e.Type != KindImage || e.PictureSrc != "" {
		return session.Reject(session.KindPrecondition, "id", "", "%q is not an image without a picture", in.ID)
	}
	mime := http.DetectContentType(in.data)
	ext, ok := generatedTypes[mime]
	if !ok {
		return session.Reject(session.KindInvalidArgs, "", "", "the image model's answer is not a PNG, JPEG or WebP picture (it reads as %s)", mime)
	}
	if err := checkPicture(in.data, mime); err != nil {
		return session.Reject(session.KindInvalidArgs, "", "", "the image model's picture %v", err)
	}
	e.PictureSrc = copyName(in.ID+ext, in.data)
	e.picture = &picture{mime: mime, data: in.data, copy: true}
	e.Prompt = in.Prompt
	if e.Credit == "" {
		e.Credit = in.Credit
	}
	rc.Report(Set{Field: fmt.Sprintf("elements[%s].src", in.ID), Value: e.PictureSrc})
	return nil
}

// Unpictured lists the image elements a run generated with a description
// and no picture, each with the prompt an image model is asked to draw.
func (b *Board) Unpictured() []modality.Unpictured {
	var out []modality.Unpictured
	for _, e := range b.elements() {
		if e.IsPlaceholder || e.Authored || e.Type != KindImage || e.PictureSrc != "" {
			continue
		}
		desc, _ := e.imageText()
		if !desc.Set || desc.Value == "" {
			continue
		}
		out = append(out, modality.Unpictured{ID: e.ID, Prompt: b.imagePrompt(desc.Value)})
	}
	return out
}

// imagePrompt asks for a picture of what the element describes, drawn to
// sit on a classroom board: labels are the board's own text elements, so
// the picture has none (image models draw letters badly).
func (b *Board) imagePrompt(description string) string {
	p := description
	if b.Heading.Set && b.Heading.Value != "" {
		p += fmt.Sprintf(" (on a classroom whiteboard headed %q)", b.Heading.Value)
	}
	return p + ". A clear, simple illustration for school pupils on a plain background, with no words, letters or numbers in it."
}

// Illustrate is the intent that gives image id the picture data, drawn
// from prompt, credited to credit.
func (b *Board) Illustrate(id string, data []byte, prompt, credit string) session.Intent {
	return AttachPicture{ID: id, Prompt: prompt, Credit: credit, data: data}
}
