package whiteboard

import (
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/textfit"
)

// TestAddEquationSaysWhatIsDrawn: add_equation's description of latex
// says what the board really draws: a stacked fraction, not a/b, at the
// size equationSVG gives it in the box the description names.
func TestAddEquationSaysWhatIsDrawn(t *testing.T) {
	f, _ := reflect.TypeFor[AddEquation]().FieldByName("Latex")
	doc := f.Tag.Get("jsonschema")
	if strings.Contains(doc, "as a/b") || !strings.Contains(doc, `\frac{a}{b} as a stacked fraction`) {
		t.Errorf("the description does not say a fraction is stacked: %s", doc)
	}
	m := regexp.MustCompile(`a (\d+) px box draws one at (\d+) px`).FindStringSubmatch(doc)
	if m == nil {
		t.Fatalf("the description names no example size: %s", doc)
	}
	h, _ := strconv.ParseFloat(m[1], 64)
	svg := equationSVG(`\frac{a}{b}`, textfit.Box{X: 0, Y: 0, W: 600, H: h}, textfit.Style{}, "#000")
	got := regexp.MustCompile(`font-size:([0-9.]+)px`).FindStringSubmatch(svg)
	if got == nil {
		t.Fatalf("no font size drawn: %s", svg)
	}
	size, _ := strconv.ParseFloat(got[1], 64)
	if strconv.Itoa(int(size)) != m[2] {
		t.Errorf("a %s px box draws a fraction at %g px; the description says %s", m[1], size, m[2])
	}
}
