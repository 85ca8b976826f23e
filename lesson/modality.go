package lesson

import (
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// Modality describes the lesson, the root of every document, for the
// registry.
func Modality() modality.Descriptor {
	return modality.Descriptor{
		Name:     "lesson",
		Doc:      "the lesson plan: metadata and slides",
		Intents:  Intents(),
		Read:     CapRead,
		Metadata: CapMetadata,
		Node:     CapNode,
		MaxNew:   MaxNewSlides,
		NewItems: "slides",
		Close:    ClosePlaceholders{},
		Render:   modality.NewRender(Render),
		PPTX:     modality.NewPPTX(RenderPPTX),
		// The lesson keeps nothing in memory that its file drops.
		Content:         modality.NewContent((*Plan).Describe),
		MetadataContent: modality.NewContent((*Plan).MetadataContent),
	}
}

// The optional capabilities the plan has, checked here so that losing one
// is a compile error (the conformance test's matrix lists them by kind).
var (
	_ session.Parent     = (*Plan)(nil)
	_ session.Provenance = (*Plan)(nil)
	_ session.Guarded    = (*Plan)(nil)
	_ modality.Citer     = (*Plan)(nil)
	_ modality.Defective = (*Plan)(nil)
	_ modality.Briefed   = AddSlide{}
	_ session.Targeted   = UpdateSlide{}
)
