package imagefile

import (
	"bytes"
	"encoding/base64"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"strings"
	"testing"
	"time"

	"github.com/lessongen/lessongen/internal/picturetest"
)

// TestCheckRefusesPictureBombsBeforeDecoding: a header that declares
// more pixels than the limits is refused from the header alone, naming
// its size and the limit, quickly and without the memory it asks for.
func TestCheckRefusesPictureBombsBeforeDecoding(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"69-byte 65535×65535", picturetest.HeaderPNG(65535, 65535), "is 65535×65535 pixels; a picture may be at most 10000 pixels a side"},
		{"whole 30000×30000", picturetest.SolidPNG(30000, 30000), "is 30000×30000 pixels; a picture may be at most 10000 pixels a side"},
		{"16-bit colour past the budget", rgba64Header(9000, 9000), "is 9000×9000 pixels, 617 MB once decoded; a picture may take at most 128 MB"},
	} {
		start := time.Now()
		err := Check(c.data, "image/png")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Check = %v, want %q", c.name, err, c.want)
		}
		if _, _, err := Header(bytes.NewReader(c.data), "image/png"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Header = %v, want %q", c.name, err, c.want)
		}
		if _, err := Decode(c.data); err == nil {
			t.Errorf("%s: Decode decoded it", c.name)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: refused in %v", c.name, d)
		}
	}
}

// rgba64Header is a PNG header declaring w×h 16-bit RGBA (8 bytes a
// pixel once decoded).
func rgba64Header(w, h int) []byte {
	data := picturetest.HeaderPNG(w, h)
	data[24], data[25] = 16, 6 // bit depth, colour type
	return fixCRC(data, 12)
}

// fixCRC recomputes the CRC of the chunk whose type starts at i.
func fixCRC(data []byte, i int) []byte {
	n := int(data[i-4])<<24 | int(data[i-3])<<16 | int(data[i-2])<<8 | int(data[i-1])
	var b bytes.Buffer
	b.Write(data[:i+4+n])
	crc := crc32.ChecksumIEEE(data[i : i+4+n])
	b.Write([]byte{byte(crc >> 24), byte(crc >> 16), byte(crc >> 8), byte(crc)})
	b.Write(data[i+8+n:])
	return b.Bytes()
}

// TestCheckDecodesTheWholePicture: a header then anything else is not a
// picture; neither is a picture with bytes after its end.
func TestCheckDecodesTheWholePicture(t *testing.T) {
	good := picturetest.TwoColourPNG(40, 20)
	var g bytes.Buffer
	must(t, gif.Encode(&g, image.NewPaletted(image.Rect(0, 0, 8, 8), color.Palette{color.Black, color.White}), nil))
	var j bytes.Buffer
	must(t, jpeg.Encode(&j, image.NewGray(image.Rect(0, 0, 16, 16)), nil))
	for _, c := range []struct {
		name, mime string
		data       []byte
	}{
		{"png", "image/png", good},
		{"gif", "image/gif", g.Bytes()},
		{"jpeg", "image/jpeg", j.Bytes()},
		{"jpeg with a camera's trailing bytes", "image/jpeg", append(bytes.Clone(j.Bytes()), 0, 0, 0, 0)},
	} {
		if err := Check(c.data, c.mime); err != nil {
			t.Errorf("%s: a good picture refused: %v", c.name, err)
		}
	}
	for _, c := range []struct {
		name, mime string
		data       []byte
		want       string
	}{
		{"37-byte GIF89a<script>", "image/gif", []byte("GIF89a<script>alert(document.domain)"), "pixels a side"},
		{"GIF89a, a 1×1 header, <script>", "image/gif", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00<script>alert(1)</script>"), "is not a readable picture"},
		{"truncated 69-byte PNG", "image/png", good[:69], "is not a readable picture"},
		{"PNG then a script", "image/png", append(bytes.Clone(good), "<script>alert(1)</script>"...), "has 25 bytes after the end of the picture"},
		{"GIF then a script", "image/gif", append(bytes.Clone(g.Bytes()), "<script>alert(1)</script>"...), "has 25 bytes after the end of the picture"},
		{"truncated JPEG", "image/jpeg", j.Bytes()[:len(j.Bytes())/2], "is not a readable picture"},
		{"text named png", "image/png", []byte("just words"), "is not a png picture by its contents"},
		{"over 5 MB", "image/png", append(bytes.Clone(good), make([]byte, MaxBytes)...), "is larger than 5 MB"},
	} {
		if err := Check(c.data, c.mime); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Check = %v, want %q", c.name, err, c.want)
		}
	}
}

func TestScaleKeepsAspectWithinTheBox(t *testing.T) {
	img, err := Decode(picturetest.TwoColourPNG(4000, 1000))
	must(t, err)
	got := Scale(img, img.Bounds(), 800, 600)
	if b := got.Bounds(); b.Dx() != 800 || b.Dy() != 200 {
		t.Errorf("4000×1000 into 800×600 is %v", b)
	}
	if r, _, b, _ := got.At(100, 100).RGBA(); r == 0 || b != 0 {
		t.Errorf("the left half is not red after scaling")
	}
	if small := Scale(img, image.Rect(0, 0, 10, 10), 800, 600); small.Bounds().Dx() != 10 {
		t.Errorf("a part smaller than the box was scaled to %v", small.Bounds())
	}
	if same := Scale(img, img.Bounds(), 8000, 8000); same != img {
		t.Error("a picture that fits was copied")
	}
}

// TestCheckSVGRefusesHostileForms: each form docs/reference.md says is refused
// — script, an event handler, a link to anything outside — in every
// spelling a viewer would act on, is refused.
func TestCheckSVGRefusesHostileForms(t *testing.T) {
	const open = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">`
	innerScript := base64.StdEncoding.EncodeToString([]byte(open + `<script>alert(1)</script></svg>`))
	for _, c := range []struct{ name, svg, want string }{
		{"style @import", open + `<style>@import url(https://example.com/a.css);</style></svg>`, "at-rule"},
		{"@font-face src:url()", open + `<style>@font-face { font-family: x; src: url(https://example.com/f.woff) }</style></svg>`, "at-rule"},
		{"xml-stylesheet", `<?xml-stylesheet href="https://example.com/a.css"?>` + open + `</svg>`, "<?xml-stylesheet?> instruction"},
		{"external DTD", `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "https://example.com/svg11.dtd">` + open + `</svg>`, "DOCTYPE"},
		{"entity", `<!DOCTYPE svg [<!ENTITY x "https://example.com/">]>` + open + `</svg>`, "DOCTYPE"},
		{"CSS-escaped url", open + `<rect width="1" height="1" style="fill: u\72l(https://example.com/x)"/></svg>`, "CSS escape"},
		{"CSS-escaped url in a sheet", open + `<style>rect { fill: u\72l(https://example.com/x) }</style></svg>`, "CSS escape"},
		{"SMIL set href", open + `<image width="1" height="1"><set attributeName="href" to="https://example.com/x.png"/></image></svg>`, "<set> element"},
		{"animate javascript", open + `<a><animate attributeName="href" values="javascript:alert(1)"/></a></svg>`, "<a> element"},
		{"animate alone", open + `<rect width="1" height="1"><animate attributeName="fill" values="javascript:alert(1)"/></rect></svg>`, "<animate> element"},
		{"nested svg data with script", open + `<image width="1" height="1" href="data:image/svg+xml;base64,` + innerScript + `"/></svg>`, "SVG embeds"},
		{"script", open + `<script>alert(1)</script></svg>`, "<script> element"},
		{"xhtml script", open + `<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script></svg>`, "<script> element in namespace"},
		{"svg script by prefix", `<s:svg xmlns:s="http://www.w3.org/2000/svg"><s:script>alert(1)</s:script></s:svg>`, "<script> element"},
		{"foreignObject", open + `<foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://example.com"/></foreignObject></svg>`, "<foreignObject> element"},
		{"onload", `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>`, "event handler (onload)"},
		{"onclick on a shape", open + `<rect width="1" height="1" onclick="alert(1)"/></svg>`, "event handler (onclick)"},
		{"ONMOUSEOVER", open + `<rect width="1" height="1" ONMOUSEOVER="alert(1)"/></svg>`, "event handler (ONMOUSEOVER)"},
		{"url( in an attribute", open + `<rect width="1" height="1" fill="url(https://example.com/x.svg#p)"/></svg>`, `attribute fill loads "url(https://example.com/x.svg#p)"`},
		{"url( quoted in filter", open + `<rect width="1" height="1" filter="url( 'https://example.com/f.svg#f')"/></svg>`, "attribute filter loads"},
		{"url( in style", open + `<rect width="1" height="1" style="fill:url(//example.com/p)"/></svg>`, "attribute style fill loads"},
		{"image-set in a sheet", open + `<style>svg { fill: image-set("https://example.com/a.png" 1x) }</style></svg>`, "calls image-set()"},
		{"unknown property in a sheet", open + `<style>svg { background-image: none }</style></svg>`, `sets "background-image: none"`},
		{"remote href", open + `<image width="1" height="1" href="https://example.com/x.png"/></svg>`, `SVG links to "https://example.com/x.png"`},
		{"remote xlink:href", open + `<use xlink:href="https://example.com/s.svg#a"/></svg>`, `SVG links to "https://example.com/s.svg#a"`},
		{"javascript href", open + `<use href="javascript:alert(1)"/></svg>`, `SVG links to "javascript:alert(1)"`},
		{"data html", open + `<image width="1" height="1" href="data:text/html;base64,PHNjcmlwdD4="/></svg>`, "SVG embeds"},
		{"embedded bomb", open + `<image width="1" height="1" href="data:image/png;base64,` + base64.StdEncoding.EncodeToString(picturetest.HeaderPNG(65535, 65535)) + `"/></svg>`, "at most 10000 pixels a side"},
		{"embedded pictures past the budget together", open + strings.Repeat(`<image width="1" height="1" href="data:image/png;base64,`+base64.StdEncoding.EncodeToString(picturetest.SolidPNG(10000, 5000))+`"/>`, 3) + `</svg>`, "more than 128 MB once decoded in all"},
		{"xml:base", open + `<g xml:base="https://example.com/"><use href="#a"/></g></svg>`, "attribute xml:base"},
		{"unknown attribute", open + `<rect width="1" height="1" src="https://example.com/x"/></svg>`, "attribute src on <rect>"},
		{"unknown namespace", open + `<rect xmlns:e="urn:evil" e:href="https://example.com/x" width="1" height="1"/></svg>`, "unknown namespace"},
		{"element in a style", open + `<style><script>alert(1)</script></style></svg>`, "inside <style>"},
		{"not svg", `<html><script>alert(1)</script></html>`, "its root is <html>"},
		{"unknown entity", open + `<text>&xxe;</text></svg>`, "is not an SVG picture"},
	} {
		err := CheckSVG([]byte(c.svg))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: CheckSVG = %v, want %q", c.name, err, c.want)
		}
	}
}

// TestCheckSVGAcceptsDrawings: what drawing programs write — styles,
// gradients, url(#id), editor metadata, an embedded raster picture —
// passes.
func TestCheckSVGAcceptsDrawings(t *testing.T) {
	png64 := base64.StdEncoding.EncodeToString(picturetest.TwoColourPNG(4, 4))
	for _, svg := range []string{
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 200"><defs><linearGradient id="g"><stop offset="0" stop-color="green"/></linearGradient></defs><rect width="100" height="200" fill="url(#g)"/></svg>`,
		`<?xml version="1.0" encoding="UTF-8"?>
<!-- Generator: Adobe Illustrator 27.0.0 -->
<svg version="1.1" id="Layer_1" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" x="0px" y="0px" viewBox="0 0 50 50" style="enable-background:new 0 0 50 50;" xml:space="preserve">
<style type="text/css">
	.st0{fill:#3A7D44;stroke:#000000;stroke-width:2;stroke-miterlimit:10;}
	.st1{font-family:'Arial', sans-serif; font-size:12px;}
</style>
<circle class="st0" cx="25" cy="25" r="20"/><text transform="matrix(1 0 0 1 10 30)" class="st1">Leaf</text>
<image width="4" height="4" xlink:title="a leaf" xlink:href="data:image/png;base64,` + png64 + `"/>
</svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:cc="http://creativecommons.org/ns#" xmlns:dc="http://purl.org/dc/elements/1.1/" width="210mm" height="297mm" viewBox="0 0 210 297" inkscape:version="1.3">
<sodipodi:namedview id="nv" pagecolor="#ffffff" inkscape:zoom="0.5"/>
<metadata><rdf:RDF><cc:Work rdf:about=""><dc:format>image/svg+xml</dc:format><cc:license rdf:resource="http://creativecommons.org/licenses/by/4.0/"/></cc:Work></rdf:RDF></metadata>
<g inkscape:label="Layer 1" inkscape:groupmode="layer"><path d="M 10,10 L 100,100 Z" style="fill:none;stroke:#000;stroke-width:0.26" sodipodi:nodetypes="cc"/>
<filter id="f"><feGaussianBlur stdDeviation="2"/><feColorMatrix type="matrix" values="1 0 0 0 0 0 1 0 0 0 0 0 1 0 0 0 0 0 1 0"/></filter>
<circle cx="5" cy="5" r="4" filter="url(#f)" clip-path="url( &quot;#c&quot; )"/></g></svg>`,
	} {
		if err := CheckSVG([]byte(svg)); err != nil {
			t.Errorf("a drawing refused: %v\n%s", err, svg)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
