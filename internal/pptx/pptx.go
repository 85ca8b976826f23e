// Package pptx writes a PowerPoint deck (PresentationML, ECMA-376
// transitional) from slides of native shapes: text boxes, rectangles,
// ellipses, lines, connectors with arrowheads, pictures with alt text,
// groups, tables and Office Math. It knows nothing of lessons or modalities; the
// render package and each modality's PPTX hook fill a Deck.
//
// Why our own writer (compared for #26): github.com/casibase/goppt v1.0.0
// (Apache-2.0, 18,700 lines, young, no known importers) writes connectors
// but never binds them to the shapes they join, has no Office Math, writes a
// slide's notes as one run (line breaks lost) and escapes text with
// encoding/xml's EscapeText, which turns a control character into a visible
// U+FFFD. The parts this issue needs fit in a few hundred lines that we
// understand end to end, with the escaping rule in one place (clean).
package pptx

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"fmt"
	"hash/crc32"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// Slide size: 16:9 at 13.333 × 7.5 in, PowerPoint's default widescreen.
const (
	SlideWidth  int64 = 12192000
	SlideHeight int64 = 6858000
	// EMUPerPoint converts points (font sizes, line widths) to EMU.
	EMUPerPoint = 12700
	// notes page: portrait letter.
	notesWidth  int64 = 6858000
	notesHeight int64 = 9144000
)

// Deck is a whole presentation.
type Deck struct {
	// Title, Subject, Keywords and Description go to the document
	// properties (docProps/core.xml).
	Title, Subject, Keywords, Description string
	// Font is the typeface of the theme ("" for Arial).
	Font   string
	Slides []*Slide
	// Modified is the document's date; zero leaves the date out, so the
	// output is the same on every run.
	Modified time.Time
}

// Slide is one slide: its title (in the layout's title placeholder, so an
// outline or a screen reader sees it), its shapes and its speaker notes.
type Slide struct {
	Title string
	// Background is the slide's fill; zero for the master's (white).
	Background Color
	Shapes     []Shape
	// TitleShape, one of Shapes, shows the title where it stands on the
	// slide (a board's heading): it is written as the title placeholder,
	// with its box and text, so the title is on the slide once.
	TitleShape *Sp
	// TitleOff keeps the title placeholder above the slide, where no view
	// draws it, when the shapes fill the slide (a board without a heading
	// of the title's): the outline and screen readers still have it.
	TitleOff bool
	// Notes are the notes page's paragraphs; none writes no notes page.
	Notes []Para
}

// Color is an sRGB colour "RRGGBB"; Hex "" means none.
type Color struct {
	Hex string
	// Alpha is the opacity, 0–1; 0 is read as opaque (the common case).
	Alpha float64
}

// RGB is an opaque colour.
func RGB(hex string) Color { return Color{Hex: hex} }

// Box is a position and size in EMU.
type Box struct{ X, Y, W, H int64 }

// Run is text with one format. A "\n" in Text is a line break.
type Run struct {
	Text   string
	Size   float64 // points; 0 inherits
	Bold   bool
	Italic bool
	Color  Color
	// Font is the typeface, "" for the theme's: code is set in a
	// monospace face.
	Font string
}

// Para is a paragraph.
type Para struct {
	Runs []Run
	// Align is "l", "ctr" or "r"; "" inherits.
	Align string
	// Bullet is "" for none, "num" for 1. 2. 3., "alpha" for A. B. C., or a
	// character ("•").
	Bullet string
	Level  int
}

// Text is a paragraph of one run.
func Text(s string, size float64, bold bool, c Color) Para {
	return Para{Runs: []Run{{Text: s, Size: size, Bold: bold, Color: c}}}
}

// Line is an outline or a connector's stroke.
type Line struct {
	Color Color
	Width float64 // points
	Dash  bool
	// Head and Tail put an arrowhead at the start and the end.
	Head, Tail bool
}

// Shape is anything on a slide: *Sp, *Connector, *Pic, *Group, *Math,
// *Table.
type Shape interface{ shape() }

// Sp is a preset shape, optionally holding text: a text box is a rect with
// no fill and no line.
type Sp struct {
	Name, Descr string
	Box         Box
	// Geom is a preset geometry: "rect" (default), "roundRect", "ellipse",
	// "line".
	Geom string
	// Flip mirrors a "line" so it runs from bottom-left to top-right.
	FlipV bool
	Fill  Color
	Line  *Line
	Paras []Para
	// Anchor is the text's vertical anchor: "t" (default), "ctr", "b".
	Anchor string
	// Shrink lets the viewer shrink the text to fit the box.
	Shrink bool
	// Inset is the text inset on every side in EMU; 0 keeps the default.
	Inset int64
}

// Connector is a straight connector between two points, optionally glued
// to the shapes at its ends (site is the shape's connection site index).
type Connector struct {
	Name           string
	X1, Y1, X2, Y2 int64
	Line           Line
	From, To       Target
	FromSite       int
	ToSite         int
}

// Target is a shape a connector can be glued to: *Sp, or *Pic or *Math
// (whose connection sites are a rectangle's: top, left, bottom, right).
type Target interface {
	Shape
	target()
}

func (*Sp) target()   {}
func (*Pic) target()  {}
func (*Math) target() {}

// Pic is a PNG picture with alternative text. SVG, when set, is the
// picture as drawn (an SVG file) and PNG its rendering, for viewers that
// read no SVG (Impress among them), as PowerPoint writes an SVG picture.
type Pic struct {
	Name, Descr, Title string
	Box                Box
	PNG                []byte
	SVG                []byte
}

// Group keeps shapes together, as one selectable object.
type Group struct {
	Name   string
	Shapes []Shape
}

// Math is an Office Math (OMML) equation in a text box; viewers that do not
// read Office Math show the fallback instead: Picture, a PNG of the
// equation stretched over PictureBox (Box when zero), as PowerPoint writes
// it, or Fallback's text when there is no picture. Descr (alt text) should
// carry the source.
type Math struct {
	Name, Descr string
	Box         Box
	Math        []MathNode
	Size        float64 // points
	Color       Color
	Align       string
	Picture     []byte
	PictureBox  Box
	Fallback    []Para
}

func (*Sp) shape()        {}
func (*Connector) shape() {}
func (*Pic) shape()       {}
func (*Group) shape()     {}
func (*Math) shape()      {}

// Write writes the deck as a .pptx (a zip of XML parts).
func (d *Deck) Write(w io.Writer) error {
	z := zip.NewWriter(w)
	p := &pkg{z: z, deck: d, media: map[[32]byte]string{}}
	if err := p.write(); err != nil {
		return err
	}
	return z.Close()
}

type pkg struct {
	z     *zip.Writer
	deck  *Deck
	media map[[32]byte]string // picture content → media file name
	err   error
}

// entry is a part ready for the zip: compressed (or stored) with its
// checksum, so slides can be prepared in parallel and written in order.
type entry struct {
	name   string
	method uint16
	data   []byte
	crc    uint32
	size   int
}

// storeBelow is the size under which a part is stored, not deflated: a
// deck has thousands of tiny parts (relationships, short notes), and
// building a Huffman table for each costs more time than it saves bytes.
const storeBelow = 4096

// encode prepares a part: deflated at flate.BestSpeed (XML shrinks almost
// as much as at the default level, in a fraction of the time), or stored
// when small.
func encode(name string, body []byte) entry {
	e := entry{name: name, method: zip.Store, data: body, crc: crc32.ChecksumIEEE(body), size: len(body)}
	if len(body) < storeBelow || strings.HasSuffix(name, ".png") {
		return e
	}
	var buf bytes.Buffer
	buf.Grow(len(body) / 4)
	fw, _ := flatePool.Get().(*flate.Writer)
	if fw == nil {
		fw, _ = flate.NewWriter(&buf, flate.BestSpeed) // a valid level: no error
	} else {
		fw.Reset(&buf)
	}
	fw.Write(body) // writing to memory cannot fail
	fw.Close()
	flatePool.Put(fw)
	e.method, e.data = zip.Deflate, buf.Bytes()
	return e
}

// flatePool keeps compressors: each costs a large allocation.
var flatePool sync.Pool

func (p *pkg) emit(e entry) {
	if p.err != nil {
		return
	}
	f, err := p.z.CreateRaw(&zip.FileHeader{Name: e.name, Method: e.method, CRC32: e.crc,
		CompressedSize64: uint64(len(e.data)), UncompressedSize64: uint64(e.size)})
	if err == nil {
		_, err = f.Write(e.data)
	}
	p.err = err
}

func (p *pkg) part(name, body string) { p.emit(encode(name, unsafeBytes(body))) }

// unsafeBytes is s as bytes without a copy (a slide is kilobytes, a deck
// thousands of them); encode only reads them.
func unsafeBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

const xmlHead = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n"

// Namespaces.
const (
	nsA    = "http://schemas.openxmlformats.org/drawingml/2006/main"
	nsP    = "http://schemas.openxmlformats.org/presentationml/2006/main"
	nsR    = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	nsM    = "http://schemas.openxmlformats.org/officeDocument/2006/math"
	nsMC   = "http://schemas.openxmlformats.org/markup-compatibility/2006"
	nsA14  = "http://schemas.microsoft.com/office/drawing/2010/main"
	nsP14  = "http://schemas.microsoft.com/office/powerpoint/2010/main"
	relDoc = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
	ctPML  = "application/vnd.openxmlformats-officedocument.presentationml."
	pmlNS  = `xmlns:a="` + nsA + `" xmlns:r="` + nsR + `" xmlns:p="` + nsP + `"`
)

type rel struct{ id, typ, target string }

func rels(rs ...rel) string {
	var b strings.Builder
	b.WriteString(xmlHead + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
	for _, r := range rs {
		typ := r.typ
		if !strings.HasPrefix(typ, "http") {
			typ = relDoc + typ
		}
		fmt.Fprintf(&b, `<Relationship Id="%s" Type="%s" Target="%s"/>`, r.id, typ, r.target)
	}
	b.WriteString(`</Relationships>`)
	return b.String()
}

func (p *pkg) write() error {
	d := p.deck
	n := len(d.Slides)
	// Content types.
	var ct strings.Builder
	ct.WriteString(xmlHead + `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
		`<Default Extension="xml" ContentType="application/xml"/>` +
		`<Default Extension="png" ContentType="image/png"/>` +
		`<Default Extension="svg" ContentType="image/svg+xml"/>` +
		`<Override PartName="/ppt/presentation.xml" ContentType="` + ctPML + `presentation.main+xml"/>` +
		`<Override PartName="/ppt/slideMasters/slideMaster1.xml" ContentType="` + ctPML + `slideMaster+xml"/>` +
		`<Override PartName="/ppt/slideLayouts/slideLayout1.xml" ContentType="` + ctPML + `slideLayout+xml"/>` +
		`<Override PartName="/ppt/notesMasters/notesMaster1.xml" ContentType="` + ctPML + `notesMaster+xml"/>` +
		`<Override PartName="/ppt/theme/theme1.xml" ContentType="application/vnd.openxmlformats-officedocument.theme+xml"/>` +
		`<Override PartName="/ppt/theme/theme2.xml" ContentType="application/vnd.openxmlformats-officedocument.theme+xml"/>` +
		`<Override PartName="/ppt/presProps.xml" ContentType="` + ctPML + `presProps+xml"/>` +
		`<Override PartName="/ppt/viewProps.xml" ContentType="` + ctPML + `viewProps+xml"/>` +
		`<Override PartName="/ppt/tableStyles.xml" ContentType="` + ctPML + `tableStyles+xml"/>` +
		`<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>` +
		`<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>`)
	for i, s := range d.Slides {
		fmt.Fprintf(&ct, `<Override PartName="/ppt/slides/slide%d.xml" ContentType="%sslide+xml"/>`, i+1, ctPML)
		if len(s.Notes) > 0 {
			fmt.Fprintf(&ct, `<Override PartName="/ppt/notesSlides/notesSlide%d.xml" ContentType="%snotesSlide+xml"/>`, i+1, ctPML)
		}
	}
	ct.WriteString(`</Types>`)
	p.part("[Content_Types].xml", ct.String())
	p.part("_rels/.rels", rels(
		rel{"rId1", "officeDocument", "ppt/presentation.xml"},
		rel{"rId2", "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties", "docProps/core.xml"},
		rel{"rId3", "extended-properties", "docProps/app.xml"}))
	p.part("docProps/core.xml", p.core())
	p.part("docProps/app.xml", p.app())

	// The presentation: rId1 master, rId2 notes master, rId3 theme,
	// rId4–6 properties, slides from rId10.
	var pr strings.Builder
	pr.WriteString(xmlHead + `<p:presentation ` + pmlNS + ` saveSubsetFonts="1">` +
		`<p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>` +
		`<p:notesMasterIdLst><p:notesMasterId r:id="rId2"/></p:notesMasterIdLst>`)
	prRels := []rel{{"rId1", "slideMaster", "slideMasters/slideMaster1.xml"}, {"rId2", "notesMaster", "notesMasters/notesMaster1.xml"},
		{"rId3", "theme", "theme/theme1.xml"}, {"rId4", "presProps", "presProps.xml"}, {"rId5", "viewProps", "viewProps.xml"},
		{"rId6", "tableStyles", "tableStyles.xml"}}
	if n > 0 {
		pr.WriteString(`<p:sldIdLst>`)
		for i := range d.Slides {
			fmt.Fprintf(&pr, `<p:sldId id="%d" r:id="rId%d"/>`, 256+i, 10+i)
			prRels = append(prRels, rel{fmt.Sprintf("rId%d", 10+i), "slide", fmt.Sprintf("slides/slide%d.xml", i+1)})
		}
		pr.WriteString(`</p:sldIdLst>`)
	}
	fmt.Fprintf(&pr, `<p:sldSz cx="%d" cy="%d"/><p:notesSz cx="%d" cy="%d"/>`, SlideWidth, SlideHeight, notesWidth, notesHeight)
	pr.WriteString(`<p:defaultTextStyle><a:defPPr><a:defRPr lang="en-US"/></a:defPPr></p:defaultTextStyle></p:presentation>`)
	p.part("ppt/presentation.xml", pr.String())
	p.part("ppt/_rels/presentation.xml.rels", rels(prRels...))
	p.part("ppt/presProps.xml", xmlHead+`<p:presentationPr `+pmlNS+`/>`)
	p.part("ppt/viewProps.xml", xmlHead+`<p:viewPr `+pmlNS+`><p:normalViewPr><p:restoredLeft sz="15620"/><p:restoredTop sz="80000"/></p:normalViewPr><p:gridSpacing cx="76200" cy="76200"/></p:viewPr>`)
	p.part("ppt/tableStyles.xml", xmlHead+`<a:tblStyleLst xmlns:a="`+nsA+`" def="{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}"/>`)
	font := d.Font
	if font == "" {
		font = "Arial"
	}
	p.part("ppt/theme/theme1.xml", theme(font))
	p.part("ppt/theme/theme2.xml", theme(font))
	p.part("ppt/slideMasters/slideMaster1.xml", slideMaster)
	p.part("ppt/slideMasters/_rels/slideMaster1.xml.rels", rels(rel{"rId1", "slideLayout", "../slideLayouts/slideLayout1.xml"}, rel{"rId2", "theme", "../theme/theme1.xml"}))
	p.part("ppt/slideLayouts/slideLayout1.xml", slideLayout)
	p.part("ppt/slideLayouts/_rels/slideLayout1.xml.rels", rels(rel{"rId1", "slideMaster", "../slideMasters/slideMaster1.xml"}))
	p.part("ppt/notesMasters/notesMaster1.xml", notesMaster)
	p.part("ppt/notesMasters/_rels/notesMaster1.xml.rels", rels(rel{"rId1", "theme", "../theme/theme2.xml"}))
	p.collectMedia(d.Slides)
	// Slides are independent: prepared (built and compressed) in
	// parallel, written in order.
	out := make([][]entry, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				out[i] = p.slide(i+1, d.Slides[i])
			}
		})
	}
	wg.Wait()
	for _, es := range out {
		for _, e := range es {
			p.emit(e)
		}
	}
	return p.err
}

// collectMedia names every picture's content once, in slide order, and
// writes it; slides then only look names up.
func (p *pkg) collectMedia(slides []*Slide) {
	var walk func([]Shape)
	walk = func(shapes []Shape) {
		for _, sh := range shapes {
			switch s := sh.(type) {
			case *Pic:
				p.addMedia(s.PNG, "png")
				if s.SVG != nil {
					p.addMedia(s.SVG, "svg")
				}
			case *Math:
				if s.Picture != nil {
					p.addMedia(s.Picture, "png")
				}
			case *Group:
				walk(s.Shapes)
			}
		}
	}
	for _, s := range slides {
		walk(s.Shapes)
	}
}

// addMedia writes a picture's content as a media part (ext "png" or
// "svg"), once.
func (p *pkg) addMedia(data []byte, ext string) {
	h := sha256.Sum256(data)
	if _, ok := p.media[h]; !ok {
		name := fmt.Sprintf("image%d.%s", len(p.media)+1, ext)
		p.media[h] = name
		p.emit(encode("ppt/media/"+name, data))
	}
}

func (p *pkg) core() string {
	d := p.deck
	var b strings.Builder
	b.WriteString(xmlHead + `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">`)
	el := func(tag, v string) {
		if v = clean(v); v != "" {
			fmt.Fprintf(&b, "<%s>%s</%s>", tag, esc(v), tag)
		}
	}
	el("dc:title", d.Title)
	el("dc:subject", d.Subject)
	el("dc:creator", "lessongen")
	el("cp:keywords", d.Keywords)
	el("dc:description", d.Description)
	if !d.Modified.IsZero() {
		t := d.Modified.UTC().Format(time.RFC3339)
		fmt.Fprintf(&b, `<dcterms:created xsi:type="dcterms:W3CDTF">%s</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">%s</dcterms:modified>`, t, t)
	}
	b.WriteString(`</cp:coreProperties>`)
	return b.String()
}

func (p *pkg) app() string {
	notes := 0
	for _, s := range p.deck.Slides {
		if len(s.Notes) > 0 {
			notes++
		}
	}
	return xmlHead + fmt.Sprintf(`<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><Application>lessongen</Application><PresentationFormat>Widescreen</PresentationFormat><Slides>%d</Slides><Notes>%d</Notes></Properties>`, len(p.deck.Slides), notes)
}

// slide prepares slide n, its relationships and its notes page. It runs
// beside other slides': it reads p but never writes it.
func (p *pkg) slide(n int, s *Slide) []entry {
	sr := []rel{{"rId1", "slideLayout", "../slideLayouts/slideLayout1.xml"}}
	if len(s.Notes) > 0 {
		sr = append(sr, rel{"rId2", "notesSlide", fmt.Sprintf("../notesSlides/notesSlide%d.xml", n)})
	}
	w := &sw{pkg: p, rels: &sr, cur: 3, ids: map[Shape]int{}}
	// Ids: 1 is the tree, 2 the title; shapes from 3, assigned before
	// writing so a connector can name the shapes it joins.
	next := 3
	assignIDs(s.Shapes, &next, w.ids)
	b := &w.b
	b.Grow(16 << 10)
	b.WriteString(xmlHead + `<p:sld ` + pmlNS + `><p:cSld>`)
	if s.Background.Hex != "" {
		b.WriteString(`<p:bg><p:bgPr>`)
		fill(b, s.Background)
		b.WriteString(`<a:effectLst/></p:bgPr></p:bg>`)
	}
	b.WriteString(`<p:spTree>` + treeHead)
	// A TitleShape is written where it stands among the shapes, so a
	// board's fill under it stays under it.
	if s.TitleShape != nil && !slices.Contains(s.Shapes, Shape(s.TitleShape)) {
		w.sp(s.TitleShape, 2) // not among the shapes: first, then
	}
	if s.TitleShape == nil {
		b.WriteString(`<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr>`)
		if s.TitleOff {
			// The master's title box, moved up by its own height and a bit.
			xfrm(b, Box{X: 457200, Y: -1143000, W: SlideWidth - 2*457200, H: 1005840}, false)
		}
		b.WriteString(`</p:spPr><p:txBody><a:bodyPr><a:normAutofit/></a:bodyPr><a:lstStyle/>`)
		paras(b, []Para{{Runs: []Run{{Text: s.Title}}}})
		b.WriteString(`</p:txBody></p:sp>`)
	}
	for _, sh := range s.Shapes {
		if sh == Shape(s.TitleShape) {
			w.id() // written as the title (id 2); its id stays unused
			w.sp(s.TitleShape, 2)
			continue
		}
		w.shape(sh)
	}
	b.WriteString(`</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`)
	out := []entry{
		encode(fmt.Sprintf("ppt/slides/slide%d.xml", n), unsafeBytes(b.String())),
		encode(fmt.Sprintf("ppt/slides/_rels/slide%d.xml.rels", n), []byte(rels(sr...))),
	}
	if len(s.Notes) > 0 {
		var nb strings.Builder
		nb.WriteString(xmlHead + `<p:notes ` + pmlNS + `><p:cSld><p:spTree>` + treeHead +
			`<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image"/><p:cNvSpPr><a:spLocks noGrp="1" noRot="1" noChangeAspect="1"/></p:cNvSpPr><p:nvPr><p:ph type="sldImg"/></p:nvPr></p:nvSpPr><p:spPr/></p:sp>` +
			`<p:sp><p:nvSpPr><p:cNvPr id="3" name="Notes"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>`)
		paras(&nb, s.Notes)
		nb.WriteString(`</p:txBody></p:sp></p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:notes>`)
		out = append(out,
			encode(fmt.Sprintf("ppt/notesSlides/notesSlide%d.xml", n), unsafeBytes(nb.String())),
			encode(fmt.Sprintf("ppt/notesSlides/_rels/notesSlide%d.xml.rels", n), []byte(rels(
				rel{"rId1", "notesMaster", "../notesMasters/notesMaster1.xml"},
				rel{"rId2", "slide", fmt.Sprintf("../slides/slide%d.xml", n)}))))
	}
	return out
}

const treeHead = `<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>`

// assignIDs numbers shapes in write order into ids, the slide's own map:
// the shapes may be shared between slides written side by side, so the
// numbers are never stored on them.
func assignIDs(shapes []Shape, next *int, ids map[Shape]int) {
	for _, sh := range shapes {
		switch s := sh.(type) {
		case *Sp, *Pic, *Math:
			ids[sh] = *next
		case *Group:
			*next++ // the group's own id
			assignIDs(s.Shapes, next, ids)
			continue
		}
		*next++
	}
}

// sw writes one slide's shapes.
type sw struct {
	*pkg
	b    strings.Builder
	rels *[]rel
	// ids are the slide's shapes' ids (assignIDs), for connectors' glue.
	ids map[Shape]int
	// cur is the next shape id, counted in write order as assignIDs
	// counts.
	cur int
}

func (w *sw) id() int {
	w.cur++
	return w.cur - 1
}

func (w *sw) shape(sh Shape) {
	b := &w.b
	switch s := sh.(type) {
	case *Sp:
		w.id()
		w.sp(s, w.ids[s])
	case *Connector:
		id := w.id()
		fmt.Fprintf(b, `<p:cxnSp><p:nvCxnSpPr><p:cNvPr id="%d" name="%s"/><p:cNvCxnSpPr>`, id, attr(s.Name))
		if id := w.ids[s.From]; s.From != nil && id != 0 {
			fmt.Fprintf(b, `<a:stCxn id="%d" idx="%d"/>`, id, s.FromSite)
		}
		if id := w.ids[s.To]; s.To != nil && id != 0 {
			fmt.Fprintf(b, `<a:endCxn id="%d" idx="%d"/>`, id, s.ToSite)
		}
		b.WriteString(`</p:cNvCxnSpPr><p:nvPr/></p:nvCxnSpPr><p:spPr>`)
		x, y := min(s.X1, s.X2), min(s.Y1, s.Y2)
		b.WriteString(`<a:xfrm`)
		if s.X2 < s.X1 {
			b.WriteString(` flipH="1"`)
		}
		if s.Y2 < s.Y1 {
			b.WriteString(` flipV="1"`)
		}
		fmt.Fprintf(b, `><a:off x="%d" y="%d"/><a:ext cx="%d" cy="%d"/></a:xfrm><a:prstGeom prst="straightConnector1"><a:avLst/></a:prstGeom>`, x, y, abs(s.X2-s.X1), abs(s.Y2-s.Y1))
		line(b, &s.Line)
		b.WriteString(`</p:spPr></p:cxnSp>`)
	case *Pic:
		id := w.id()
		name := w.mediaName(s.PNG)
		rid := fmt.Sprintf("rId%d", len(*w.rels)+1)
		*w.rels = append(*w.rels, rel{rid, "image", "../media/" + name})
		fmt.Fprintf(b, `<p:pic><p:nvPicPr><p:cNvPr id="%d" name="%s" descr="%s"`, id, attr(s.Name), attr(s.Descr))
		if s.Title != "" {
			fmt.Fprintf(b, ` title="%s"`, attr(s.Title))
		}
		fmt.Fprintf(b, `/><p:cNvPicPr><a:picLocks noChangeAspect="1"/></p:cNvPicPr><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="%s"`, rid)
		if s.SVG != nil {
			// As PowerPoint 2016 and later write an SVG picture: the PNG
			// in the blip for every viewer, the SVG in Office's extension
			// for those that read it.
			fmt.Fprintf(b, `><a:extLst><a:ext uri="{96DAC541-7B7A-43D3-8B79-37D633B846F1}"><asvg:svgBlip xmlns:asvg="http://schemas.microsoft.com/office/drawing/2016/SVG/main" r:embed="%s"/></a:ext></a:extLst></a:blip>`, w.imageRel(s.SVG))
		} else {
			b.WriteString(`/>`)
		}
		b.WriteString(`<a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr>`)
		xfrm(b, s.Box, false)
		b.WriteString(`<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`)
	case *Group:
		id := w.id()
		box := bounds(s.Shapes)
		fmt.Fprintf(b, `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="%d" name="%s"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="%d" y="%d"/><a:ext cx="%d" cy="%d"/><a:chOff x="%d" y="%d"/><a:chExt cx="%d" cy="%d"/></a:xfrm></p:grpSpPr>`,
			id, attr(s.Name), box.X, box.Y, box.W, box.H, box.X, box.Y, box.W, box.H)
		for _, c := range s.Shapes {
			w.shape(c)
		}
		b.WriteString(`</p:grpSp>`)
	case *Table:
		w.table(s, w.id())
	case *Math:
		id := w.id()
		// PowerPoint 2010 and later read the Choice; others the Fallback
		// (ECMA-376 Part 3, Markup Compatibility: a consumer takes a Choice
		// only when it understands every prefix its Requires lists). PowerPoint writes
		// Requires="a14" alone; p14 is there for LibreOffice, which takes
		// a Choice whose Requires is exactly one word of its list (a14,
		// p14, …), with or without its Math module: without it an a14
		// equation is drawn blank. Two words send every Impress to the
		// picture, which draws without Math; PowerPoint 2010 and later
		// know both, so they still read the equation as Office Math.
		fmt.Fprintf(b, `<mc:AlternateContent xmlns:mc="%s"><mc:Choice xmlns:a14="%s" xmlns:p14="%s" Requires="a14 p14">`, nsMC, nsA14, nsP14)
		w.sp(&Sp{Name: s.Name, Descr: s.Descr, Box: s.Box, Anchor: "ctr", Shrink: true}, id, func() {
			b.WriteString(`<a:p>`)
			if s.Align != "" {
				fmt.Fprintf(b, `<a:pPr algn="%s"/>`, s.Align)
			}
			fmt.Fprintf(b, `<a14:m><m:oMathPara xmlns:m="%s"><m:oMathParaPr><m:jc m:val="%s"/></m:oMathParaPr><m:oMath>`, nsM, mathJc(s.Align))
			rpr := mathRunProps(s.Size, s.Color)
			for _, n := range s.Math {
				n.omml(b, rpr)
			}
			b.WriteString(`</m:oMath></m:oMathPara></a14:m></a:p>`)
		})
		b.WriteString(`</mc:Choice><mc:Fallback>`)
		if s.Picture != nil {
			w.mathPicture(s, id)
		} else {
			w.sp(&Sp{Name: s.Name, Descr: s.Descr, Box: s.Box, Anchor: "ctr", Shrink: true, Paras: s.Fallback}, id)
		}
		b.WriteString(`</mc:Fallback></mc:AlternateContent>`)
	}
}

// imageRel relates the slide to a picture's media part and returns the id.
func (w *sw) imageRel(png []byte) string {
	rid := fmt.Sprintf("rId%d", len(*w.rels)+1)
	*w.rels = append(*w.rels, rel{rid, "image", "../media/" + w.mediaName(png)})
	return rid
}

// mathPicture is an equation's fallback as PowerPoint writes it: the same
// shape (id, name) filled with a picture of the equation, locked so
// an editor that took the fallback does not type into the picture, with
// one invisible space as its text.
func (w *sw) mathPicture(s *Math, id int) {
	b := &w.b
	fmt.Fprintf(b, `<p:sp><p:nvSpPr><p:cNvPr id="%d" name="%s"`, id, attr(s.Name))
	if s.Descr != "" {
		b.WriteString(` descr="` + attr(s.Descr) + `"`)
	}
	b.WriteString(`/><p:cNvSpPr txBox="1"><a:spLocks noRot="1" noChangeAspect="1" noMove="1" noResize="1" noEditPoints="1" noAdjustHandles="1" noChangeArrowheads="1" noChangeShapeType="1" noTextEdit="1"/></p:cNvSpPr><p:nvPr/></p:nvSpPr><p:spPr>`)
	box := s.PictureBox
	if box == (Box{}) {
		box = s.Box
	}
	xfrm(b, box, false)
	fmt.Fprintf(b, `<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:blipFill><a:blip r:embed="%s"/><a:stretch><a:fillRect/></a:stretch></a:blipFill></p:spPr>`, w.imageRel(s.Picture))
	b.WriteString(`<p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"><a:noFill/></a:rPr><a:t> </a:t></a:r></a:p></p:txBody></p:sp>`)
}

// sp writes a preset shape; body, when given, writes the paragraphs.
func (w *sw) sp(s *Sp, id int, body ...func()) {
	b := &w.b
	b.WriteString(`<p:sp><p:nvSpPr><p:cNvPr id="`)
	num(b, id)
	b.WriteString(`" name="` + attr(s.Name) + `"`)
	if s.Descr != "" {
		b.WriteString(` descr="` + attr(s.Descr) + `"`)
	}
	b.WriteString(`/>`)
	switch {
	case id == 2: // the title placeholder (Slide.TitleShape)
		b.WriteString(`<p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr>`)
	case s.Geom == "" && s.Fill.Hex == "" && s.Line == nil:
		b.WriteString(`<p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr>`)
	default:
		b.WriteString(`<p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr>`)
	}
	xfrm(b, s.Box, s.FlipV)
	geom := s.Geom
	if geom == "" {
		geom = "rect"
	}
	b.WriteString(`<a:prstGeom prst="` + geom + `"><a:avLst/></a:prstGeom>`)
	if s.Fill.Hex != "" {
		fill(b, s.Fill)
	} else {
		b.WriteString(`<a:noFill/>`)
	}
	if s.Line != nil {
		line(b, s.Line)
	} else {
		b.WriteString(`<a:ln><a:noFill/></a:ln>`)
	}
	b.WriteString(`</p:spPr>`)
	if len(s.Paras) == 0 && len(body) == 0 {
		b.WriteString(`</p:sp>`)
		return
	}
	b.WriteString(`<p:txBody><a:bodyPr wrap="square" rtlCol="0"`)
	if s.Inset != 0 {
		fmt.Fprintf(b, ` lIns="%d" tIns="%d" rIns="%d" bIns="%d"`, s.Inset, s.Inset, s.Inset, s.Inset)
	}
	anchor := s.Anchor
	if anchor == "" {
		anchor = "t"
	}
	b.WriteString(` anchor="` + anchor + `">`)
	if s.Shrink {
		b.WriteString(`<a:normAutofit/>`)
	} else {
		b.WriteString(`<a:noAutofit/>`)
	}
	b.WriteString(`</a:bodyPr><a:lstStyle/>`)
	if len(body) > 0 {
		body[0]()
	} else {
		paras(b, s.Paras)
	}
	b.WriteString(`</p:txBody></p:sp>`)
}

func (p *pkg) mediaName(png []byte) string { return p.media[sha256.Sum256(png)] }

func bounds(shapes []Shape) Box {
	first := true
	var x0, y0, x1, y1 int64
	add := func(b Box) {
		if first {
			x0, y0, x1, y1 = b.X, b.Y, b.X+b.W, b.Y+b.H
			first = false
			return
		}
		x0, y0, x1, y1 = min(x0, b.X), min(y0, b.Y), max(x1, b.X+b.W), max(y1, b.Y+b.H)
	}
	for _, sh := range shapes {
		switch s := sh.(type) {
		case *Sp:
			add(s.Box)
		case *Pic:
			add(s.Box)
		case *Math:
			add(s.Box)
		case *Table:
			add(s.Box)
		case *Connector:
			add(Box{min(s.X1, s.X2), min(s.Y1, s.Y2), abs(s.X2 - s.X1), abs(s.Y2 - s.Y1)})
		case *Group:
			add(bounds(s.Shapes))
		}
	}
	return Box{x0, y0, x1 - x0, y1 - y0}
}

func xfrm(b *strings.Builder, box Box, flipV bool) {
	b.WriteString(`<a:xfrm`)
	if flipV {
		b.WriteString(` flipV="1"`)
	}
	b.WriteString(`><a:off x="`)
	num(b, box.X)
	b.WriteString(`" y="`)
	num(b, box.Y)
	b.WriteString(`"/><a:ext cx="`)
	num(b, max(box.W, 0))
	b.WriteString(`" cy="`)
	num(b, max(box.H, 0))
	b.WriteString(`"/></a:xfrm>`)
}

// num writes an integer: the hot path does without fmt.
func num[T int | int64](b *strings.Builder, v T) {
	var buf [24]byte
	b.Write(strconv.AppendInt(buf[:0], int64(v), 10))
}

func fill(b *strings.Builder, c Color) {
	b.WriteString(`<a:solidFill>`)
	color(b, c)
	b.WriteString(`</a:solidFill>`)
}

func color(b *strings.Builder, c Color) {
	hex := "000000"
	if validHex(c.Hex) {
		hex = c.Hex
	}
	if c.Alpha > 0 && c.Alpha < 1 {
		fmt.Fprintf(b, `<a:srgbClr val="%s"><a:alpha val="%d"/></a:srgbClr>`, hex, int(c.Alpha*100000))
		return
	}
	b.WriteString(`<a:srgbClr val="` + hex + `"/>`)
}

func validHex(s string) bool {
	if len(s) != 6 {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return false
		}
	}
	return true
}

func line(b *strings.Builder, l *Line) {
	wd := l.Width
	if wd <= 0 {
		wd = 1
	}
	b.WriteString(`<a:ln w="`)
	num(b, int64(wd*EMUPerPoint))
	b.WriteString(`">`)
	if l.Color.Hex == "" {
		b.WriteString(`<a:noFill/>`)
	} else {
		fill(b, l.Color)
	}
	if l.Dash {
		b.WriteString(`<a:prstDash val="dash"/>`)
	}
	if l.Head {
		b.WriteString(`<a:headEnd type="triangle" w="med" len="med"/>`)
	}
	if l.Tail {
		b.WriteString(`<a:tailEnd type="triangle" w="med" len="med"/>`)
	}
	b.WriteString(`</a:ln>`)
}

// paras writes paragraphs; at least one, as a text body requires.
func paras(b *strings.Builder, ps []Para) {
	if len(ps) == 0 {
		b.WriteString(`<a:p><a:endParaRPr lang="en-US"/></a:p>`)
		return
	}
	for _, p := range ps {
		b.WriteString(`<a:p>`)
		rtl := rightToLeft(p.Runs)
		// Every paragraph states its margin and indent: Impress carries
		// an indented paragraph's margin on to a following one that
		// states none (a quiz's second question sat under the first's
		// options).
		b.WriteString(`<a:pPr`)
		lvl := min(p.Level, 8)
		switch {
		case p.Bullet != "":
			fmt.Fprintf(b, ` marL="%d" indent="-342900"`, 342900*(lvl+1))
		default:
			fmt.Fprintf(b, ` marL="%d" indent="0"`, 342900*lvl)
		}
		if lvl > 0 {
			fmt.Fprintf(b, ` lvl="%d"`, lvl)
		}
		if p.Align != "" {
			fmt.Fprintf(b, ` algn="%s"`, p.Align)
		}
		if rtl {
			b.WriteString(` rtl="1"`)
		}
		b.WriteString(`>`)
		switch p.Bullet {
		case "":
		case "num":
			b.WriteString(`<a:buFont typeface="+mj-lt"/><a:buAutoNum type="arabicPeriod"/>`)
		case "alpha":
			b.WriteString(`<a:buFont typeface="+mj-lt"/><a:buAutoNum type="alphaUcPeriod"/>`)
		default:
			fmt.Fprintf(b, `<a:buFont typeface="Arial"/><a:buChar char="%s"/>`, attr(p.Bullet))
		}
		b.WriteString(`</a:pPr>`)
		var last Run
		for _, r := range p.Runs {
			last = r
			for i, piece := range strings.Split(clean(r.Text), "\n") {
				if i > 0 {
					b.WriteString(`<a:br>`)
					runProps(b, r)
					b.WriteString(`</a:br>`)
				}
				if piece == "" {
					continue
				}
				b.WriteString(`<a:r>`)
				runProps(b, r)
				b.WriteString(`<a:t>` + esc(piece) + `</a:t></a:r>`)
			}
		}
		if last.Size > 0 {
			// An empty line keeps the paragraph's size.
			b.WriteString(`<a:endParaRPr sz="`)
			num(b, fontSize(last.Size))
			b.WriteString(`"/>`)
		}
		b.WriteString(`</a:p>`)
	}
}

// rightToLeft reports whether a paragraph's first strongly directional
// letter is Hebrew or Arabic script, so the viewer lays it out right to
// left.
func rightToLeft(runs []Run) bool {
	for _, r := range runs {
		for _, c := range r.Text {
			switch {
			case unicode.In(c, unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko):
				return unicode.IsLetter(c)
			case unicode.IsLetter(c):
				return false
			}
		}
	}
	return false
}

func runProps(b *strings.Builder, r Run) {
	b.WriteString(`<a:rPr`)
	if r.Size > 0 {
		b.WriteString(` sz="`)
		num(b, fontSize(r.Size))
		b.WriteString(`"`)
	}
	if r.Bold {
		b.WriteString(` b="1"`)
	}
	if r.Italic {
		b.WriteString(` i="1"`)
	}
	if r.Color.Hex == "" && r.Font == "" {
		b.WriteString(`/>`)
		return
	}
	b.WriteString(`>`)
	if r.Color.Hex != "" {
		fill(b, r.Color)
	}
	if r.Font != "" {
		f := attr(r.Font)
		b.WriteString(`<a:latin typeface="` + f + `"/><a:cs typeface="` + f + `"/>`)
	}
	b.WriteString(`</a:rPr>`)
}

// fontSize is a size in points as hundredths, within what the schema
// allows (1–4000 pt).
func fontSize(pt float64) int { return min(max(int(pt*100+0.5), 100), 400000) }

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// clean makes s safe for an XML 1.0 document without losing what can be
// kept: invalid UTF-8 (lone surrogates included) and characters XML cannot
// carry are dropped, as are control characters but tab and newline ("\r\n"
// and "\r" become "\n"; a tab becomes a space). It is the one rule for
// every string the writer puts in a part.
func clean(s string) string {
	if !needsClean(s) {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		switch {
		case r == utf8.RuneError && size <= 1:
			// invalid byte: dropped
		case r == '\r', r == '\n':
			b.WriteByte('\n')
		case r == '\t':
			b.WriteByte(' ')
		case keep(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func needsClean(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || r == '\r' || r == '\t' || (r != '\n' && !keep(r)) {
			return true
		}
	}
	return false
}

// keep reports whether r may appear in the text: an XML 1.0 character that
// is not a control character or a noncharacter.
func keep(r rune) bool {
	switch {
	case unicode.IsControl(r):
		return false
	case r >= 0xD800 && r <= 0xDFFF, r == 0xFFFE, r == 0xFFFF:
		return false
	case r > unicode.MaxRune:
		return false
	}
	return true
}

// esc escapes cleaned text for element content.
func esc(s string) string {
	if !strings.ContainsAny(s, `<>&`) {
		return s
	}
	return textEscaper.Replace(s)
}

var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
var attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "\n", "&#10;")

// attr cleans and escapes s for an attribute value.
func attr(s string) string { return attrEscaper.Replace(clean(s)) }
