package conformance_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"
	"text/tabwriter"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

var update = flag.Bool("update", false, "rewrite testdata/capabilities.txt from the registry")

const matrixFile = "testdata/capabilities.txt"

// capability is one optional thing a kind may have: an interface its
// state or one of its intents implements (asserted with the very types
// its consumer asserts), or a descriptor hook it sets.
type capability struct {
	name, usedBy string
	has          func(k *modality.Descriptor, st session.State) bool
}

// state is a capability found by asserting the state to T.
func state[T any](usedBy string) capability {
	return capability{reflect.TypeFor[T]().String(), usedBy, func(_ *modality.Descriptor, st session.State) bool {
		_, ok := st.(T)
		return ok
	}}
}

// intent is a capability found by asserting one of the kind's intents to T.
func intent[T any](usedBy string) capability {
	return capability{reflect.TypeFor[T]().String() + " (intent)", usedBy, func(k *modality.Descriptor, _ session.State) bool {
		for _, in := range k.Intents {
			if _, ok := in.(T); ok {
				return true
			}
		}
		return false
	}}
}

func hook(name, usedBy string, set func(k *modality.Descriptor) bool) capability {
	return capability{name, usedBy, func(k *modality.Descriptor, _ session.State) bool { return set(k) }}
}

// capabilities are every optional interface and descriptor hook a kind
// may implement. A new one found by type assertion belongs here, so the
// matrix shows which kinds lack it.
var capabilities = []capability{
	state[session.Parent]("session: places children"),
	state[session.Summarizer]("orchestrate: short describe for siblings"),
	state[session.Provenance]("orchestrate: refinement keeps author's values"),
	state[session.Guarded]("bridge: fill --rewrite"),
	state[modality.Citer]("compose: sources in notes, --sources check"),
	state[modality.Timed]("compose: minutes vs the slide's"),
	state[modality.Defective]("bridge, orchestrate: layout defects"),
	state[modality.Bounded]("bridge: narrower number bounds in schemas"),
	state[modality.Spatial]("orchestrate: canvas rules in the prompt"),
	state[modality.AnswerKeyed]("orchestrate: answers not shown on the slide"),
	state[modality.TextShown]("orchestrate: text read for shown answers"),
	state[modality.Attacher]("compose: attachments saved"),
	state[modality.Pictured]("compose: pictures copied on save elsewhere"),
	state[modality.Illustrated]("orchestrate: generate --images"),
	intent[modality.Briefed]("bridge: briefs per child kind"),
	intent[session.Targeted]("bridge: a step focused on one item"),
	intent[modality.PicturePlacer]("bridge: list_images, pictures from --sources"),
	hook("Brief", "bridge: parent's add tool", func(k *modality.Descriptor) bool { return k.Brief != "" }),
	hook("BriefRequired", "bridge: brief required", func(k *modality.Descriptor) bool { return k.BriefRequired }),
	hook("Bindable", "orchestrate: slide props bind", func(k *modality.Descriptor) bool { return len(k.Bindable) > 0 }),
	hook("MaxNew", "bridge: items a subagent adds", func(k *modality.Descriptor) bool { return k.MaxNew > 0 }),
	hook("Review", "orchestrate: --review turn", func(k *modality.Descriptor) bool { return k.Review != nil }),
	hook("MetadataContent", "orchestrate: resume compares metadata", func(k *modality.Descriptor) bool { return k.MetadataContent != nil }),
	hook("Prompts", "templates: own prompts (else embedded)", func(k *modality.Descriptor) bool { return len(k.Prompts) > 0 }),
	hook("Codec.Report", "compose: defects after binding", func(k *modality.Descriptor) bool { return k.Codec != nil && k.Codec.Report != nil }),
	// A kind brings no style of its own: the page's stylesheet must name
	// its class (the one its Render's fragment carries), or it is drawn
	// unstyled.
	hook("rule in render/page.css", "render: the page's stylesheet", func(k *modality.Descriptor) bool {
		return regexp.MustCompile(`\.` + regexp.QuoteMeta(k.Name) + `\b`).Match(pageCSS)
	}),
}

// pageCSS is the stylesheet render embeds in every page.
var pageCSS = func() []byte {
	data, err := os.ReadFile("../../render/page.css")
	if err != nil {
		panic(err)
	}
	return data
}()

// TestCapabilityMatrix writes which registered kind (and the toy) has
// which optional capability, and compares it with the golden file: a kind
// added without the capabilities its peers have shows in review as a
// column of "-", where before it passed every test without a word.
// Rewrite it with go test ./internal/conformance -run TestCapabilityMatrix -update.
func TestCapabilityMatrix(t *testing.T) {
	reg := registry(t)
	states := map[string]session.State{}
	doc, err := compose.Load(writeLesson(t, reg, t.TempDir()), reg)
	if err != nil {
		t.Fatal(err)
	}
	doc.Session().View(func(st session.State) { states[reg.Root().Name] = st })
	for _, k := range reg.Children() {
		// A typed nil: the assertions read the method set only.
		states[k.Name] = reflect.Zero(k.Codec.Model).Interface().(session.State)
	}

	var b bytes.Buffer
	b.WriteString("# Which kind has which optional capability, found as its consumer finds it.\n")
	b.WriteString("# Rewrite: go test ./internal/conformance -run TestCapabilityMatrix -update\n\n")
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprint(w, "capability\tused by")
	for _, k := range reg.All() {
		fmt.Fprintf(w, "\t%s", k.Name)
	}
	fmt.Fprintln(w)
	for _, c := range capabilities {
		fmt.Fprintf(w, "%s\t%s", c.name, c.usedBy)
		for _, k := range reg.All() {
			mark := "-"
			if c.has(k, states[k.Name]) {
				mark = "yes"
			}
			fmt.Fprintf(w, "\t%s", mark)
		}
		fmt.Fprintln(w)
	}
	w.Flush()

	if *update {
		if err := os.MkdirAll(filepath.Dir(matrixFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(matrixFile, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(matrixFile)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("the capability matrix changed: review it, then rewrite %s with -update.\ngot:\n%s\nwant:\n%s", matrixFile, b.Bytes(), want)
	}
}
