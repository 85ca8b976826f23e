package whiteboard_test

import (
	"encoding/xml"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/whiteboard"
)

// Code, output, table cells and a label that try to close the SVG, open a
// CDATA end or carry control characters draw as text: the board's SVG is
// well-formed XML with one <svg> and no element the author did not ask for.
func TestHostileTextInNewElementsStaysText(t *testing.T) {
	const src = `heading: h
elements:
  - {id: c1, type: code, code: "</svg><script>alert(1)</script>\u0001]]>\u202e", output: "<img src=x onerror=alert(2)>\u0007", x: 80, y: 140, w: 1120, h: 120}
  - {id: t1, type: table, header: ["</text><script>", "&amp;\u0002"], rows: [["<b>", "]]>"]], x: 80, y: 300, w: 600, h: 200}
  - {id: b1, type: blank, label: "<script>x</script>\u0003", x: 80, y: 520, w: 600, h: 60}
`
	b, _ := decode(t, src)
	svg := whiteboard.Render(b, nil).Body
	if strings.Contains(svg, "<script") || strings.Contains(svg, "<img") || strings.Contains(svg, "<b>") {
		t.Errorf("markup from the board's text drawn as markup:\n%s", svg)
	}
	if regexp.MustCompile("[\x00-\x08\x0b\x0c\x0e-\x1f]").MatchString(svg) {
		t.Errorf("a control character, which XML forbids, is in the SVG")
	}
	m := regexp.MustCompile(`(?s)<svg.*</svg>`).FindString(svg)
	d := xml.NewDecoder(strings.NewReader(m))
	d.Strict = true
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
	}
}
