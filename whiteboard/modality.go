package whiteboard

import (
	"maps"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// Modality describes the whiteboard for the registry.
func Modality() modality.Descriptor {
	return modality.Descriptor{
		Name:      "whiteboard",
		Doc:       "a canvas of positioned elements",
		Intents:   Intents(),
		Read:      CapRead,
		Metadata:  CapMetadata,
		Node:      CapNode,
		MaxNew:    MaxNewElements,
		NewItems:  "elements",
		Close:     ClosePlaceholders{},
		Review:    DescribeWhiteboard{},
		Bindable:  bindableNames(),
		Bind:      func(p, v string) session.Intent { return ApplyBinding{Property: p, Value: v} },
		Codec:     codec(),
		Render:    modality.NewRender(Render),
		PPTX:      modality.NewPPTX(RenderPPTX),
		PPTXBoard: true,
		Content:   modality.NewContent((*Board).Content),
		Brief:     "what the slide's whiteboard should show; another assistant draws it from this", BriefRequired: true,
	}
}

// The optional capabilities a board has, checked here so that losing one
// is a compile error (the conformance test's matrix lists them by kind).
var (
	_ session.Summarizer     = (*Board)(nil)
	_ session.Provenance     = (*Board)(nil)
	_ session.Guarded        = (*Board)(nil)
	_ modality.Citer         = (*Board)(nil)
	_ modality.Defective     = (*Board)(nil)
	_ modality.Bounded       = (*Board)(nil)
	_ modality.Spatial       = (*Board)(nil)
	_ modality.TextShown     = (*Board)(nil)
	_ modality.Attacher      = (*Board)(nil)
	_ modality.Pictured      = (*Board)(nil)
	_ modality.Illustrated   = (*Board)(nil)
	_ modality.PicturePlacer = PlaceImage{}
)

func codec() *modality.Codec {
	c := modality.NewCodec(Decode, Todo,
		func(b *Board) *yaml.Node { n, _ := b.EncodeNode(); return n },
		func(b *Board, p string) bool { f := b.bindable(p); return f != nil && f.Set })
	c.Report = func(st session.State, r *yamlsrc.Reporter, path string) {
		st.(*Board).report(r, path)
	}
	return c
}

// bindables are the fields a slide's props may bind, by property name:
// the one list of them.
func (b *Board) bindables() map[string]*yamlsrc.Field[string] {
	return map[string]*yamlsrc.Field[string]{"heading": &b.Heading, "layout": &b.Layout}
}

func (b *Board) bindable(name string) *yamlsrc.Field[string] { return b.bindables()[name] }

func bindableNames() []string { return slices.Sorted(maps.Keys(new(Board).bindables())) }
