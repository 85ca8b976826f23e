package modality_test

import (
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

type noop struct{}

func (noop) Spec() session.Spec { return session.Spec{Capability: "x"} }

type state struct{}

func (*state) Reduce(*session.Context, session.Intent) (func(), error) { return nil, nil }
func (*state) Recompile(*session.Context, session.Intent)              {}
func (*state) Describe() string                                        { return "" }
func (*state) Pending() []session.Pending                              { return nil }

func desc(name string, child bool) modality.Descriptor {
	d := modality.Descriptor{Name: name, Doc: "a " + name, Intents: []session.Intent{noop{}}, Read: "r", Metadata: "m", Node: "n", Close: noop{},
		Render:  modality.NewRender(func(*state, map[string]string) modality.Rendered { return modality.Rendered{} }),
		PPTX:    modality.NewPPTX(func(*state, map[string]string, pptx.Box) modality.PPTXRendered { return modality.PPTXRendered{} }),
		Content: modality.NewContent((*state).Describe)}
	if child {
		d.Codec = modality.NewCodec(
			func(*yaml.Node, *yamlsrc.Reporter, string) *state { return &state{} },
			func(string) *state { return &state{} },
			func(*state) *yaml.Node { return nil },
			nil)
	}
	return d
}

func TestRegistry(t *testing.T) {
	reg, err := modality.New(desc("lesson", false), desc("whiteboard", true), desc("quiz", true))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"lesson.metadata", "lesson.node", "whiteboard.metadata", "whiteboard.node", "quiz.metadata", "quiz.node"}
	if got := reg.LevelNames(); !slices.Equal(got, want) {
		t.Errorf("levels %v, want %v", got, want)
	}
	if l, ok := reg.Level("quiz.node"); !ok || l.Modality != "quiz" || l.Part != session.LevelNode || !l.Allows("r") || !l.Allows("n") || l.Allows("m") {
		t.Errorf("quiz.node = %+v", l)
	}
	if _, ok := reg.Child("lesson"); ok {
		t.Error("the root is not a child kind")
	}
	if d, ok := reg.Lookup("lesson"); !ok || d != reg.Root() {
		t.Error("Lookup misses the root")
	}
	// Children hands out a copy: the registry does not change after New.
	kids := reg.Children()
	kids[0] = nil
	if reg.Children()[0] == nil {
		t.Error("the registry's children changed from outside")
	}
}

func TestNewRefusesIncompleteDescriptors(t *testing.T) {
	noClose := desc("quiz", true)
	noClose.Close = nil
	noBind := desc("quiz", true)
	noBind.Bindable = []string{"kind"}
	noRender, noPPTX, noContent, noDoc := desc("quiz", true), desc("quiz", true), desc("quiz", true), desc("quiz", true)
	noRender.Render, noPPTX.PPTX, noContent.Content, noDoc.Doc = nil, nil, nil, ""
	for _, tc := range []struct {
		name     string
		children []modality.Descriptor
		want     string
	}{
		{"twice", []modality.Descriptor{desc("quiz", true), desc("quiz", true)}, "registered twice"},
		{"child without codec", []modality.Descriptor{desc("quiz", false)}, "needs a codec"},
		{"no close", []modality.Descriptor{noClose}, "closes its placeholders"},
		{"bindable without bind", []modality.Descriptor{noBind}, "no Bind"},
		{"no render", []modality.Descriptor{noRender}, "Render and PPTX are required"},
		{"no pptx", []modality.Descriptor{noPPTX}, "Render and PPTX are required"},
		{"no content", []modality.Descriptor{noContent}, "no Content"},
		{"no doc", []modality.Descriptor{noDoc}, "no Doc"},
	} {
		if _, err := modality.New(desc("lesson", false), tc.children...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestWithAddsAChildKind(t *testing.T) {
	reg, err := modality.New(desc("lesson", false), desc("whiteboard", true))
	if err != nil {
		t.Fatal(err)
	}
	more, err := reg.With(desc("poll", true))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range more.Children() {
		names = append(names, d.Name)
	}
	if !slices.Equal(names, []string{"whiteboard", "poll"}) || more.Root().Name != "lesson" {
		t.Errorf("With: root %s, children %v", more.Root().Name, names)
	}
	if len(reg.Children()) != 1 {
		t.Error("With changed the registry it was called on")
	}
	if _, err := reg.With(desc("whiteboard", true)); err == nil {
		t.Error("With registered a kind twice")
	}
}
