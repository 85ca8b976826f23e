package whiteboard

import (
	"strings"

	"github.com/lessongen/lessongen/internal/rule"
)

// The ranges and choices below are declared once, as struct tags on the
// intents (intents.go). The tool schema a model sees, the load check and the
// dispatch check all read them from there.

// canvasSide is the range of a canvas side, in pixels.
func canvasSide() rule.Rule { return rule.Of[SetCanvas]("width") }

// sizeRule is the range of an element's w or h.
func sizeRule(field string) rule.Rule { return rule.Of[Box](field) }

// shapeRule lists the shapes a shape element can take.
func shapeRule() rule.Rule { return rule.Of[AddShape]("shape") }

// headsRule lists where an arrow's arrowheads may go.
func headsRule() rule.Rule { return rule.Of[AddArrow]("heads") }

// fitRule lists how a picture may fill its box.
func fitRule() rule.Rule { return rule.Of[Element]("fit") }

// shapeSynonyms are the names authors reach for that mean a shape by
// another name, for "did you mean".
var shapeSynonyms = map[string]string{
	"circle": "ellipse", "oval": "ellipse",
	"square": "rect", "box": "rect", "rectangle": "rect",
}

func kindList() string {
	names := make([]string, len(Kinds()))
	for i, k := range Kinds() {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}
