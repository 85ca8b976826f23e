package imagefile

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"io"
	"strconv"
	"strings"
)

// CheckSVG accepts an SVG document that only draws itself. It is an
// allow-list, not a deny-list: the elements, attributes, CSS properties
// and CSS functions of a still drawing are named below and everything
// else is refused — script, foreign content, animation (which can set
// any attribute to anything), event handlers, a DOCTYPE (entities, an
// external DTD), processing instructions (an xml-stylesheet), CSS
// at-rules (@import, @font-face) and escapes, and any reference out of
// the file: an href is a #fragment or an embedded raster picture that
// passes Check itself, a url() is a url(#fragment). A browser shows an
// SVG picture without running or fetching any of these, but other
// viewers of the page or of the copied file might, so they are refused,
// not cleaned.
func CheckSVG(data []byte) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	var c svgChecker
	root := true
	var style *strings.Builder // the text of an open <style>
	for {
		tok, err := d.Token()
		if err == io.EOF {
			if root {
				return errors.New("is not an SVG picture: no <svg> element")
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("is not an SVG picture: %v", err)
		}
		switch t := tok.(type) {
		case xml.Directive:
			return errors.New("SVG has a DOCTYPE, which can declare entities or load a DTD from elsewhere; delete its <!DOCTYPE …> line (an SVG picture needs none)")
		case xml.ProcInst:
			if t.Target != "xml" {
				return fmt.Errorf("SVG has a <?%s?> instruction; a picture may not load anything outside itself", t.Target)
			}
		case xml.CharData:
			if style != nil {
				style.Write(t)
			}
		case xml.EndElement:
			if style != nil {
				if err := checkStyleSheet(style.String()); err != nil {
					return err
				}
				style = nil
			}
		case xml.StartElement:
			if root && t.Name.Local != "svg" {
				return fmt.Errorf("is not an SVG picture: its root is <%s>, not <svg>", t.Name.Local)
			}
			root = false
			if style != nil {
				return errors.New("SVG has an element inside <style>")
			}
			if err := c.elementOK(t); err != nil {
				return err
			}
			if t.Name.Local == "style" {
				style = &strings.Builder{}
			}
		}
	}
}

const (
	svgNS   = "http://www.w3.org/2000/svg"
	xlinkNS = "http://www.w3.org/1999/xlink"
	xmlNS   = "http://www.w3.org/XML/1998/namespace"
)

// editorNS are the namespaces drawing programs keep their own notes in
// (Inkscape, Sodipodi, Illustrator, Sketch, Affinity, licence metadata):
// no viewer acts on an element or attribute in them.
var editorNS = set(
	"http://www.inkscape.org/namespaces/inkscape",
	"http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd",
	"http://www.w3.org/1999/02/22-rdf-syntax-ns#",
	"http://creativecommons.org/ns#",
	"http://web.resource.org/cc/",
	"http://purl.org/dc/elements/1.1/",
	"http://purl.org/dc/terms/",
	"http://ns.adobe.com/AdobeIllustrator/10.0/",
	"http://ns.adobe.com/AdobeSVGViewerExtensions/3.0/",
	"http://ns.adobe.com/Extensibility/1.0/",
	"http://ns.adobe.com/Graphs/1.0/",
	"http://ns.adobe.com/SaveForWeb/1.0/",
	"http://ns.adobe.com/Variables/1.0/",
	"http://ns.adobe.com/ImageReplacement/1.0/",
	"http://www.bohemiancoding.com/sketch/ns",
	"http://www.serif.com/",
	"http://www.openswatchbook.org/uri/2009/osb",
)

// svgElements are the elements of a still drawing. Absent on purpose:
// script, foreignObject, a (a link), animate, set, animateMotion,
// animateTransform, discard, and anything else.
var svgElements = set(
	"svg", "g", "defs", "symbol", "use", "title", "desc", "metadata", "switch", "style",
	"path", "rect", "circle", "ellipse", "line", "polyline", "polygon",
	"text", "tspan", "textPath",
	"image",
	"linearGradient", "radialGradient", "stop", "pattern", "clipPath", "mask", "marker",
	"filter", "feBlend", "feColorMatrix", "feComponentTransfer", "feComposite",
	"feConvolveMatrix", "feDiffuseLighting", "feDisplacementMap", "feDistantLight",
	"feDropShadow", "feFlood", "feFuncA", "feFuncB", "feFuncG", "feFuncR",
	"feGaussianBlur", "feImage", "feMerge", "feMergeNode", "feMorphology", "feOffset",
	"fePointLight", "feSpecularLighting", "feSpotLight", "feTile", "feTurbulence",
)

// svgAttributes are the attributes of a still drawing, besides the
// presentation properties (which may also be set in CSS) and href.
var svgAttributes = set(
	"id", "class", "style", "version", "baseProfile", "viewBox", "preserveAspectRatio",
	"x", "y", "width", "height", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry",
	"fx", "fy", "fr", "d", "points", "pathLength", "transform",
	"dx", "dy", "rotate", "textLength", "lengthAdjust", "startOffset", "method", "spacing", "side",
	"offset", "gradientUnits", "gradientTransform", "spreadMethod",
	"patternUnits", "patternContentUnits", "patternTransform",
	"clipPathUnits", "maskUnits", "maskContentUnits",
	"markerWidth", "markerHeight", "markerUnits", "refX", "refY", "orient",
	"filterUnits", "primitiveUnits", "in", "in2", "result", "mode", "operator",
	"k1", "k2", "k3", "k4", "stdDeviation", "type", "values", "tableValues",
	"slope", "intercept", "amplitude", "exponent", "scale",
	"xChannelSelector", "yChannelSelector", "radius", "order", "kernelMatrix",
	"divisor", "bias", "targetX", "targetY", "edgeMode", "preserveAlpha",
	"surfaceScale", "diffuseConstant", "specularConstant", "specularExponent",
	"kernelUnitLength", "azimuth", "elevation", "pointsAtX", "pointsAtY", "pointsAtZ",
	"limitingConeAngle", "z", "baseFrequency", "numOctaves", "seed", "stitchTiles",
	"requiredFeatures", "requiredExtensions", "systemLanguage",
	"role", "focusable", "tabindex", "lang", "media",
	"enable-background", "xml:space", "xml:lang",
)

// svgProperties are the presentation properties a still drawing may set,
// as attributes or in CSS.
var svgProperties = set(
	"fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity",
	"stroke-linecap", "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray",
	"stroke-dashoffset", "opacity", "color", "display", "visibility", "overflow",
	"clip-path", "clip-rule", "clip", "mask", "filter", "marker", "marker-start", "marker-mid", "marker-end",
	"stop-color", "stop-opacity", "flood-color", "flood-opacity", "lighting-color",
	"font", "font-family", "font-size", "font-size-adjust", "font-stretch", "font-style",
	"font-variant", "font-weight", "font-kerning", "font-feature-settings", "line-height",
	"text-anchor", "text-decoration", "text-rendering", "text-transform", "dominant-baseline",
	"alignment-baseline", "baseline-shift", "letter-spacing", "word-spacing", "kerning",
	"writing-mode", "direction", "unicode-bidi", "white-space",
	"glyph-orientation-horizontal", "glyph-orientation-vertical",
	"shape-rendering", "image-rendering", "color-rendering", "color-interpolation",
	"color-interpolation-filters", "paint-order", "vector-effect", "mix-blend-mode",
	"isolation", "transform", "transform-origin", "transform-box", "pointer-events",
	"enable-background",
	// what Inkscape writes into style attributes
	"font-variant-ligatures", "font-variant-caps", "font-variant-numeric",
	"font-variant-east-asian", "font-variant-position", "font-variant-alternates",
	"font-variation-settings", "text-align", "text-indent", "text-decoration-line",
	"text-decoration-style", "text-decoration-color", "text-orientation",
	"inline-size", "shape-inside", "shape-padding", "shape-margin", "solid-color",
	"solid-opacity", "block-progression", "background-color",
)

// cssFunctions are the CSS functions a value may call: colours,
// arithmetic and transforms; url() only as url(#fragment).
var cssFunctions = set(
	"url", "rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch", "color",
	"calc", "min", "max", "clamp", "var",
	"matrix", "translate", "translatex", "translatey", "scale", "scalex", "scaley",
	"rotate", "skew", "skewx", "skewy",
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// svgChecker checks one SVG's elements, counting what its embedded
// pictures take once decoded: each within the limits is not enough, as a
// 5 MB SVG can hold fifty of them.
type svgChecker struct{ embedded int64 }

func (c *svgChecker) elementOK(el xml.StartElement) error {
	switch {
	case el.Name.Space == svgNS || el.Name.Space == "":
		if !svgElements[el.Name.Local] {
			return fmt.Errorf("SVG has a <%s> element; a picture may hold only drawing elements (no script, link, animation or foreign content)", el.Name.Local)
		}
	case !editorNS[el.Name.Space]:
		return fmt.Errorf("SVG has a <%s> element in namespace %q; a picture may hold only drawing elements", el.Name.Local, el.Name.Space)
	default:
		// An editor's note (sodipodi:namedview, rdf:RDF): no viewer acts
		// on it or its attributes; an event handler is refused all the same.
		for _, a := range el.Attr {
			if strings.HasPrefix(strings.ToLower(a.Name.Local), "on") && a.Name.Space == "" {
				return fmt.Errorf("SVG has an event handler (%s); a picture may not run anything", a.Name.Local)
			}
		}
		return nil
	}
	for _, a := range el.Attr {
		if err := c.attributeOK(el.Name.Local, a); err != nil {
			return err
		}
	}
	return nil
}

func (c *svgChecker) attributeOK(el string, a xml.Attr) error {
	name, v := a.Name.Local, a.Value
	if a.Name.Space == "xmlns" || editorNS[a.Name.Space] {
		return nil // a namespace declaration, an editor's note
	}
	switch a.Name.Space {
	case xmlNS:
		name = "xml:" + name
	case xlinkNS:
		switch name {
		case "href":
			return c.hrefOK(v)
		case "title", "type", "show", "actuate", "role", "arcrole":
			return nil // words about the link, never fetched
		}
		return fmt.Errorf("SVG attribute xlink:%s on <%s>; a picture may hold only drawing attributes", name, el)
	case "":
		if name == "xmlns" {
			return nil
		}
		if name == "href" {
			return c.hrefOK(v)
		}
	default:
		return fmt.Errorf("SVG attribute %s:%s on <%s> is in an unknown namespace; a picture may hold only drawing attributes", a.Name.Space, name, el)
	}
	switch {
	case strings.HasPrefix(strings.ToLower(name), "on"):
		return fmt.Errorf("SVG has an event handler (%s); a picture may not run anything", name)
	case name == "style":
		return checkDeclarations(v, "attribute style")
	case svgProperties[name]:
		return checkValue(v, "attribute "+name)
	case svgAttributes[name], strings.HasPrefix(name, "aria-"), strings.HasPrefix(name, "data-"):
		// Plain values (numbers, names, path data) that a viewer never
		// fetches; still, no url() out of the file.
		return checkValue(v, "attribute "+name)
	}
	return fmt.Errorf("SVG has an attribute %s on <%s> that a still drawing does not use; a picture may hold only drawing attributes", name, el)
}

// embeddable are the pictures an SVG may hold as a data: URI.
var embeddable = set("image/png", "image/jpeg", "image/gif", "image/webp")

// hrefOK allows a link to a part of the same file, or an embedded raster
// picture (PNG, JPEG, GIF, WebP, base64) that passes Check; an embedded
// SVG is refused, as it would be a second document to check.
func (c *svgChecker) hrefOK(v string) error {
	t := strings.TrimSpace(v)
	if strings.HasPrefix(t, "#") {
		return nil
	}
	if rest, ok := strings.CutPrefix(t, "data:"); ok {
		meta, payload, ok := strings.Cut(rest, ",")
		mime, enc, _ := strings.Cut(strings.ToLower(meta), ";")
		if mime == "image/jpg" {
			mime = "image/jpeg"
		}
		if ok && enc == "base64" && embeddable[mime] {
			data, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(payload), ""))
			if err != nil {
				return fmt.Errorf("SVG embeds a picture that is not base64: %v", err)
			}
			// Counted from the header, before Check decodes it.
			if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil && cfg.Width <= MaxSide && cfg.Height <= MaxSide {
				c.embedded += int64(cfg.Width) * int64(cfg.Height) * bytesPerPixel(cfg.ColorModel, mime, data)
			}
			if c.embedded > MaxDecodedBytes {
				return fmt.Errorf("SVG embeds pictures that take more than %d MB once decoded in all; embed fewer or smaller ones", MaxDecodedBytes>>20)
			}
			if err := Check(data, mime); err != nil {
				return fmt.Errorf("SVG embeds a picture that %v", err)
			}
			return nil
		}
		return fmt.Errorf("SVG embeds %q; a picture may embed only a base64 PNG, JPEG, GIF or WebP", clip(t))
	}
	return fmt.Errorf("SVG links to %q; a picture may not load anything outside itself", clip(t))
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// checkStyleSheet allows rules of a selector and declarations
// (`.leaf { fill: green }`), and nothing else: no at-rule, no escape.
func checkStyleSheet(css string) error {
	css, err := cssPlain(css, "<style>")
	if err != nil {
		return err
	}
	for {
		sel, rest, ok := strings.Cut(css, "{")
		if !ok {
			if strings.TrimSpace(sel) != "" {
				return fmt.Errorf("SVG <style> has %q outside a rule", clip(strings.TrimSpace(sel)))
			}
			return nil
		}
		if i := strings.IndexFunc(sel, func(r rune) bool { return !selectorRune(r) }); i >= 0 {
			return fmt.Errorf("SVG <style> has a selector %q; a picture may use only plain selectors", clip(strings.TrimSpace(sel)))
		}
		body, after, ok := strings.Cut(rest, "}")
		if !ok {
			return errors.New("SVG <style> has a rule without its closing }")
		}
		if err := checkDeclarations(body, "<style>"); err != nil {
			return err
		}
		css = after
	}
}

func selectorRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(" \t\r\n.#,>+~*:-_()[]=\"'|^$", r)
}

// checkDeclarations allows `property: value` pairs of svgProperties.
func checkDeclarations(css, where string) error {
	css, err := cssPlain(css, where)
	if err != nil {
		return err
	}
	for decl := range strings.SplitSeq(css, ";") {
		if strings.TrimSpace(decl) == "" {
			continue
		}
		prop, v, ok := strings.Cut(decl, ":")
		prop = strings.ToLower(strings.TrimSpace(prop))
		if !ok || !svgProperties[prop] && !strings.HasPrefix(prop, "--") && !strings.HasPrefix(prop, "-inkscape-") {
			return fmt.Errorf("SVG %s sets %q; a picture may set only drawing properties", where, clip(strings.TrimSpace(decl)))
		}
		if err := checkValue(v, where+" "+prop); err != nil {
			return err
		}
	}
	return nil
}

// cssPlain is css without comments, refused when it holds what a
// reader would have to decode to judge: an escape (`u\72l(` is url(),
// an at-rule (@import, @font-face), or markup.
func cssPlain(css, where string) (string, error) {
	var b strings.Builder
	for {
		before, after, ok := strings.Cut(css, "/*")
		b.WriteString(before)
		if !ok {
			break
		}
		b.WriteByte(' ')
		_, css, ok = strings.Cut(after, "*/")
		if !ok {
			return "", fmt.Errorf("SVG %s has a comment without its end", where)
		}
	}
	out := b.String()
	switch {
	case strings.Contains(out, `\`):
		return "", fmt.Errorf("SVG %s has a CSS escape (\\); a picture's CSS is read as written", where)
	case strings.Contains(out, "@"):
		return "", fmt.Errorf("SVG %s has a CSS at-rule (@import, @font-face…); a picture may not load anything outside itself", where)
	case strings.ContainsAny(out, "<&"):
		return "", fmt.Errorf("SVG %s has markup in its CSS", where)
	}
	return out, nil
}

// checkValue allows a value whose functions are cssFunctions, url() only
// to a #fragment, with no escape.
func checkValue(v, where string) error {
	if strings.Contains(v, `\`) {
		return fmt.Errorf("SVG %s has a CSS escape (\\); a picture's CSS is read as written", where)
	}
	low := strings.ToLower(v)
	for i := strings.IndexByte(low, '('); i >= 0; i = strings.IndexByte(low, '(') {
		j := i
		for j > 0 && (isIdent(low[j-1])) {
			j--
		}
		fn := low[j:i]
		arg := strings.TrimLeft(low[i+1:], " \t\r\n\"'")
		switch {
		case fn == "":
			// a bracket in a plain value (path data, a list)
		case !cssFunctions[fn]:
			return fmt.Errorf("SVG %s calls %s(); a picture may use only colour, arithmetic and transform functions", where, fn)
		case fn == "url" && !strings.HasPrefix(arg, "#"):
			return fmt.Errorf("SVG %s loads %q; a picture may not load anything outside itself (only url(#id))", where, clip(strings.TrimSpace(v)))
		}
		low = low[i+1:]
	}
	if strings.Contains(low, "javascript:") {
		return fmt.Errorf("SVG %s holds a javascript: link", where)
	}
	return nil
}

func isIdent(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// svgSize reads the root element's width and height, or its viewBox.
func svgSize(r io.Reader) (w, h int, err error) {
	d := xml.NewDecoder(r)
	for {
		tok, err := d.Token()
		if err != nil {
			return 0, 0, fmt.Errorf("is not an SVG picture: %v", err)
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if el.Name.Local != "svg" {
			return 0, 0, fmt.Errorf("is not an SVG picture: its root is <%s>", el.Name.Local)
		}
		attrs := map[string]string{}
		for _, a := range el.Attr {
			attrs[a.Name.Local] = a.Value
		}
		w, h = pixels(attrs["width"]), pixels(attrs["height"])
		if vb := strings.Fields(strings.ReplaceAll(attrs["viewBox"], ",", " ")); (w == 0 || h == 0) && len(vb) == 4 {
			w, h = pixels(vb[2]), pixels(vb[3])
		}
		return w, h, nil
	}
}

// pixels reads "400", "400px" or "400.5" as whole pixels, 0 otherwise.
func pixels(s string) int {
	f, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "px"), 64)
	if err != nil || f <= 0 || f > 1e6 {
		return 0
	}
	return int(f + 0.5)
}
