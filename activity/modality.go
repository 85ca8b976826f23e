package activity

import (
	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// Modality describes the activity for the registry: everything the rest
// of lessongen needs to place, generate, load, save and draw one.
func Modality() modality.Descriptor {
	return modality.Descriptor{
		Name:     "activity",
		Doc:      "a task pupils do: instructions, grouping, minutes, success criteria, support, stretch and a teacher-only model answer",
		Intents:  Intents(),
		Read:     CapRead,
		Metadata: CapMetadata,
		Node:     CapNode,
		Close:    ClosePlaceholders{},
		Review:   DescribeActivity{},
		Codec: modality.NewCodec(Decode, Todo,
			func(a *Activity) *yaml.Node { n, _ := a.EncodeNode(); return n },
			nil),
		Render:  modality.NewRender(Render),
		PPTX:    modality.NewPPTX(RenderPPTX),
		Content: modality.NewContent((*Activity).Content),
		Brief:   "only when the hint of the placeholder this slide fills, or the author's instruction, asks for an activity: what pupils should do and how they work; another assistant writes the instructions, success criteria and model answer. Omit otherwise, even on a slide where pupils do a task: its whiteboard poses the task",
	}
}

// The optional capabilities an activity has, checked here so that losing
// one is a compile error (the conformance test's matrix lists them by kind).
var (
	_ session.State      = (*Activity)(nil)
	_ session.Provenance = (*Activity)(nil)
	_ session.Guarded    = (*Activity)(nil)
	_ modality.Timed     = (*Activity)(nil)
)
