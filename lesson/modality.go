package lesson

import "github.com/lessongen/lessongen/modality"

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
