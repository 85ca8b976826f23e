package render_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/pptx/pptxtest"
	"github.com/lessongen/lessongen/render"
)

// reuseTerms is what a reuse of allkinds must honour: its licence and
// its credit with the link.
var reuseTerms = []string{"CC BY 4.0", "CC-BY-4.0", "Adapted from Water for Year 5, The Example Trust", "https://example.org/water"}

// The licence and the credit are on every copy, the pupil's too, in
// every format; so are the outcome, the key questions and the learning
// cycles. The misconceptions' responses are the teacher's alone.
func TestOverviewMetadataInEveryOutput(t *testing.T) {
	pupilToo := append([]string{"I can name the three states of water.", "What happens to water when it freezes?", "I can say where steam goes."}, reuseTerms...)
	response := "It is water vapour condensing into droplets"
	for name, w := range map[string]func(bool) render.Writer{"html": render.HTMLWriter, "md": render.MarkdownWriter} {
		for _, handout := range []bool{false, true} {
			got := write(t, allKinds, w(handout))
			for _, s := range pupilToo {
				if !bytes.Contains(got, []byte(s)) {
					t.Errorf("%s (handout %v) lacks %q", name, handout, s)
				}
			}
			if bytes.Contains(got, []byte(response)) == handout {
				t.Errorf("%s (handout %v): the misconception's response shown: %v", name, handout, !handout)
			}
		}
	}
	for _, handout := range []bool{false, true} {
		parts := pptxtest.Parts(t, renderPPTX(t, allKinds, handout))
		overview := strings.Join(pptxtest.Texts(pptxtest.Slides(parts)[0]), "\n")
		for _, s := range pupilToo[:2] {
			if !strings.Contains(overview, s) {
				t.Errorf("pptx (handout %v): the overview slide lacks %q:\n%s", handout, s, overview)
			}
		}
		for _, s := range []string{"CC BY 4.0 (CC-BY-4.0)", reuseTerms[2], reuseTerms[3], "Explain (12 min): I can say where steam goes."} {
			if !strings.Contains(overview, s) {
				t.Errorf("pptx (handout %v): the overview slide lacks %q:\n%s", handout, s, overview)
			}
		}
		var all bytes.Buffer
		for _, b := range parts {
			all.Write(b)
		}
		if bytes.Contains(all.Bytes(), []byte(response)) == handout {
			t.Errorf("pptx (handout %v): the misconception's response shown: %v", handout, !handout)
		}
	}
}
