package whiteboard

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/lessongen/lessongen/session"
)

// Color is a CSS colour as a whiteboard stores it: #rgb, #rgba, #rrggbb,
// #rrggbbaa, rgb(r, g, b), rgba(r, g, b, a) or a CSS colour name. Nothing
// else is accepted — a colour ends up in rendered HTML and SVG and on
// terminals, so free text (or an escape sequence) has no place in it.
type Color string

// colorPattern is the one declaration of a colour's shape: the load check,
// the dispatch check and the tool schema (Pattern) all use it. A name must
// also be one of cssColorNames.
const colorPattern = `^(#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})|rgba?\( *[0-9]{1,3}%? *, *[0-9]{1,3}%? *, *[0-9]{1,3}%? *(, *(0|1|0?\.[0-9]+) *)?\)|[a-zA-Z]{3,20})$`

var colorRE = regexp.MustCompile(colorPattern)

// colorDoc says the same in words, for messages.
const colorDoc = "a CSS colour: #rgb, #rrggbb, rgb(r, g, b) or a colour name such as darkgreen"

// colorSchemaDoc is colorDoc as tool schemas say it, for strict ones
// (which take no pattern): shorter, as it is repeated in every colour of
// every tool that styles an element; a refusal gives colorDoc whole.
const colorSchemaDoc = "CSS colour"

// Pattern is the JSON Schema pattern a colour matches; the bridge puts it
// in tool schemas.
func (Color) Pattern() (pattern, doc string) { return colorPattern, colorSchemaDoc }

// Check reports whether c is a colour, and if not, why.
func (c Color) Check() error {
	s := string(c)
	if !colorRE.MatchString(s) {
		return fmt.Errorf("%q is not %s", s, colorDoc)
	}
	if s[0] != '#' && !strings.HasPrefix(s, "rgb") && !slices.Contains(cssColorNames, strings.ToLower(s)) {
		return fmt.Errorf("%q is not a CSS colour name; use %s", s, colorDoc)
	}
	return nil
}

// checkColor rejects an intent whose colour at path is not one; empty
// means "not given".
func checkColor(path string, c Color) error {
	if c == "" {
		return nil
	}
	if err := c.Check(); err != nil {
		return session.Reject(session.KindInvalidArgs, path, "use "+colorDoc, "%s: %v", path, err)
	}
	return nil
}

// cssColorNames are CSS Color Module Level 4's named colours.
var cssColorNames = []string{
	"aliceblue", "antiquewhite", "aqua", "aquamarine", "azure", "beige", "bisque", "black",
	"blanchedalmond", "blue", "blueviolet", "brown", "burlywood", "cadetblue", "chartreuse",
	"chocolate", "coral", "cornflowerblue", "cornsilk", "crimson", "cyan", "darkblue", "darkcyan",
	"darkgoldenrod", "darkgray", "darkgreen", "darkgrey", "darkkhaki", "darkmagenta",
	"darkolivegreen", "darkorange", "darkorchid", "darkred", "darksalmon", "darkseagreen",
	"darkslateblue", "darkslategray", "darkslategrey", "darkturquoise", "darkviolet", "deeppink",
	"deepskyblue", "dimgray", "dimgrey", "dodgerblue", "firebrick", "floralwhite", "forestgreen",
	"fuchsia", "gainsboro", "ghostwhite", "gold", "goldenrod", "gray", "green", "greenyellow",
	"grey", "honeydew", "hotpink", "indianred", "indigo", "ivory", "khaki", "lavender",
	"lavenderblush", "lawngreen", "lemonchiffon", "lightblue", "lightcoral", "lightcyan",
	"lightgoldenrodyellow", "lightgray", "lightgreen", "lightgrey", "lightpink", "lightsalmon",
	"lightseagreen", "lightskyblue", "lightslategray", "lightslategrey", "lightsteelblue",
	"lightyellow", "lime", "limegreen", "linen", "magenta", "maroon", "mediumaquamarine",
	"mediumblue", "mediumorchid", "mediumpurple", "mediumseagreen", "mediumslateblue",
	"mediumspringgreen", "mediumturquoise", "mediumvioletred", "midnightblue", "mintcream",
	"mistyrose", "moccasin", "navajowhite", "navy", "oldlace", "olive", "olivedrab", "orange",
	"orangered", "orchid", "palegoldenrod", "palegreen", "paleturquoise", "palevioletred",
	"papayawhip", "peachpuff", "peru", "pink", "plum", "powderblue", "purple", "rebeccapurple",
	"red", "rosybrown", "royalblue", "saddlebrown", "salmon", "sandybrown", "seagreen",
	"seashell", "sienna", "silver", "skyblue", "slateblue", "slategray", "slategrey", "snow",
	"springgreen", "steelblue", "tan", "teal", "thistle", "tomato", "transparent", "turquoise",
	"violet", "wheat", "white", "whitesmoke", "yellow", "yellowgreen",
}
