package textfit

import (
	"html"
	"math"
	"strconv"
	"strings"
)

// SVG returns a <text> element that draws l's lines at the top of box, one
// <tspan> per line at the baseline Baseline gives, in the embedded font (the
// page must include FontFaceCSS). align is "left" (or ""), "center" or
// "right", as whiteboard styles name it; fill is a CSS colour, "" for the
// default. Blank lines take their height but draw nothing.
//
// text-rendering="geometricPrecision" keeps the browser from hinting or
// rounding glyph advances, so lines are as wide as measured.
func (l Layout) SVG(box Box, align, fill string) string {
	x, anchor := box.X, "start"
	switch align {
	case "center":
		x, anchor = box.X+box.W/2, "middle"
	case "right":
		x, anchor = box.X+box.W, "end"
	}
	var b strings.Builder
	family := `'` + FontFamily + `'`
	if l.Style.Mono {
		family = MonoStack
	}
	b.WriteString(`<text font-family="` + family + `" font-size="` + coord(l.Style.Size()) + `"`)
	if l.Style.Bold {
		b.WriteString(` font-weight="bold"`)
	}
	if anchor != "start" {
		b.WriteString(` text-anchor="` + anchor + `"`)
	}
	if fill != "" {
		b.WriteString(` fill="` + html.EscapeString(fill) + `"`)
	}
	if l.Style.Mono {
		// Code keeps its spaces: indentation is part of it.
		b.WriteString(` xml:space="preserve" style="white-space:pre"`)
	}
	b.WriteString(` text-rendering="geometricPrecision">`)
	for i, line := range l.Lines {
		if line == "" {
			continue
		}
		b.WriteString(`<tspan x="` + coord(x) + `" y="` + coord(box.Y+l.Baseline(i)) + `">`)
		b.WriteString(html.EscapeString(strings.Map(xmlChar, line)))
		b.WriteString(`</tspan>`)
	}
	b.WriteString(`</text>`)
	return b.String()
}

// coord formats a coordinate to 1/100 px, plenty for a screen and stable in
// golden files.
func coord(v float64) string {
	return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
}

// xmlChar drops the control characters XML 1.0 forbids (a board's text may
// hold one from a model or a pasted file): one would make the whole SVG
// unreadable to an XML parser.
func xmlChar(r rune) rune {
	if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF {
		return -1
	}
	return r
}
