package whiteboard_test

import (
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/sessiontest"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

const citedSrc = `elements:
  - id: title
    type: text
    x: 40
    y: 20
    w: 400
    h: 60
    text: A leaf
    sources: [ch1.md:3]
  - id: caption
    type: text
    x: 40
    y: 600
    w: 300
    h: 60
    text: !pending "a one-line caption"
  - !pending "a labelled diagram of a leaf"
`

func TestElementSourcesFormCheckedAtLoad(t *testing.T) {
	ps := decodeProblems(t, strings.Replace(citedSrc, "[ch1.md:3]", "[ch1.md:3, ch1.md]", 1))
	if len(ps) != 1 || !strings.HasPrefix(ps[0].String(), `board.yaml:9:25: whiteboard: element "title" (1).sources: citation "ch1.md"`) {
		t.Errorf("problems = %v, want one at the bad citation", ps)
	}
}

func TestAddAndUpdateCiteSources(t *testing.T) {
	s, b := newSession(t, citedSrc)
	o := observe(t, b)
	apply(t, s, b, whiteboard.AddText{Box: whiteboard.Box{X: 600, Y: 200, W: 300, H: 60}, Text: "Stomata let gas in",
		Placing: whiteboard.Placing{ID: "stoma", Sources: []string{"ch1.md:12-14"}}})
	if got := element(t, b, "stoma").Sources; len(got) != 1 || got[0] != "ch1.md:12-14" {
		t.Errorf("sources = %q", got)
	}
	if !strings.Contains(render(t, b), "sources:\n      - ch1.md:12-14") {
		t.Errorf("saved form lacks the citation:\n%s", render(t, b))
	}
	sessiontest.Rejected(t, s, whiteboard.AddText{Box: whiteboard.Box{X: 600, Y: 300, W: 300, H: 60}, Text: "x",
		Placing: whiteboard.Placing{Sources: []string{"ch1.md:0"}}}, session.KindInvalidArgs, "sources", "path:line", o)
	// An author's element without citations may be given some when its
	// pending text is filled; its author-written citations stay.
	apply(t, s, b, whiteboard.UpdateElement{ID: "caption", Text: ptr("A leaf in cross-section"), Sources: []string{"ch1.md:20"}})
	sessiontest.Rejected(t, s, whiteboard.UpdateElement{ID: "title", Sources: []string{"ch1.md:4"}}, session.KindPrecondition, "sources", "author's citations", o)
	var refs []string
	for _, r := range b.Citations() {
		refs = append(refs, r.Where+"="+r.Text)
	}
	if got := strings.Join(refs, " "); got != `element "title" (1).sources=ch1.md:3 element "caption" (2).sources=ch1.md:20 element "stoma" (3).sources=ch1.md:12-14` {
		t.Errorf("citations = %s", got)
	}
	notes := whiteboard.Render(b, nil).Notes
	if !strings.Contains(notes, "<li>text stoma: ch1.md:12-14</li>") || !strings.Contains(notes, "<li>text title: ch1.md:3</li>") {
		t.Errorf("notes lack the citations:\n%s", notes)
	}
}
