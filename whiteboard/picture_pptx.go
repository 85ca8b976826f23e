package whiteboard

import (
	"bytes"
	"image"
	"image/png"
	"math"

	"github.com/lessongen/lessongen/internal/imagefile"

	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/internal/textfit"
)

// picturePPTX is e's picture on a slide, fitted to box as the page fits
// it, with its credit line; nil when e has none a slide can hold. The deck
// writer takes PNG only, so a raster picture is re-encoded as PNG (cover
// crops it first), scaled down to deckPixels per canvas pixel of its box:
// a slide shows no more, and a deck stays small. An SVG goes in whole
// beside a PNG drawn from it (svgPicture), as PowerPoint writes one.
func (e *Element) picturePPTX(m mapper, box textfit.Box) pptx.Shape {
	if e.picture == nil {
		return nil
	}
	credit := e.creditLine()
	pic := box
	if credit != "" && box.H > 2*creditBand {
		pic.H -= creditBand
	}
	var img image.Image
	var svg []byte
	if e.picture.mime == "image/svg+xml" {
		img, svg, pic = svgPicture(e.picture.data, pic, e.Fit == "cover")
	} else if full, err := imagefile.Decode(e.picture.data); err == nil && !full.Bounds().Empty() {
		img, pic = fitPicture(full, pic, e.Fit == "cover")
	}
	if img == nil {
		return nil
	}
	var buf bytes.Buffer
	if png.Encode(&buf, img) != nil {
		return nil
	}
	_, alt := e.imageText()
	g := &pptx.Group{Name: e.ID, Shapes: []pptx.Shape{
		&pptx.Pic{Name: e.ID + " picture", Descr: alt.Value, Box: m.box(pic), PNG: buf.Bytes(), SVG: svg},
	}}
	if credit != "" && box.H > 2*creditBand {
		band := textfit.Box{X: box.X, Y: box.Y + box.H - creditBand, W: box.W, H: creditBand}
		g.Shapes = append(g.Shapes, &pptx.Sp{Name: e.ID + " credit", Box: m.box(band),
			Paras: []pptx.Para{{Runs: []pptx.Run{{Text: credit, Size: m.pt(creditFontSize), Color: pptx.RGB("56606B")}}, Align: "r"}}})
	}
	return g
}

// deckPixels is how many picture pixels a deck keeps per canvas pixel:
// twice the canvas (2560 pixels across a 1280 canvas) is sharp on a
// high-density screen or a projector.
const deckPixels = 2

// fitPicture is what the page's preserveAspectRatio draws: for contain,
// the whole picture in the largest box of its aspect centred in box; for
// cover, box filled by the picture's centre, cropped to box's aspect.
// Either is scaled down to deckPixels per canvas pixel of the box.
func fitPicture(img image.Image, box textfit.Box, cover bool) (image.Image, textfit.Box) {
	b := img.Bounds()
	iw, ih := float64(b.Dx()), float64(b.Dy())
	if !cover {
		s := min(box.W/iw, box.H/ih)
		w, h := iw*s, ih*s
		return imagefile.Scale(img, b, deckSize(w), deckSize(h)), textfit.Box{X: box.X + (box.W-w)/2, Y: box.Y + (box.H-h)/2, W: w, H: h}
	}
	s := max(box.W/iw, box.H/ih)
	cw, ch := max(int(box.W/s+0.5), 1), max(int(box.H/s+0.5), 1)
	x0, y0 := b.Min.X+(b.Dx()-cw)/2, b.Min.Y+(b.Dy()-ch)/2
	return imagefile.Scale(img, image.Rect(x0, y0, x0+cw, y0+ch), deckSize(box.W), deckSize(box.H)), box
}

// deckSize is the pixels a deck keeps for v canvas pixels.
func deckSize(v float64) int { return max(int(math.Ceil(v*deckPixels)), 1) }

// svgPicture is an SVG fitted to box as the page fits it: contained, the
// whole drawing at its aspect centred in box, with the SVG itself kept for
// viewers that read it; covering, box filled by the drawing's centre,
// cropped, as a PNG alone (a viewer would stretch the whole SVG). The
// PNG has deckPixels per canvas pixel. Nil when the SVG cannot be drawn:
// the element then shows its placeholder.
func svgPicture(data []byte, box textfit.Box, cover bool) (image.Image, []byte, textfit.Box) {
	vw, vh, err := imagefile.SVGSize(data)
	if err != nil {
		return nil, nil, box
	}
	if !cover {
		s := min(box.W/vw, box.H/vh)
		w, h := vw*s, vh*s
		img, err := imagefile.RasterizeSVG(data, deckSize(w), deckSize(h))
		if err != nil {
			return nil, nil, box
		}
		return img, data, textfit.Box{X: box.X + (box.W-w)/2, Y: box.Y + (box.H-h)/2, W: w, H: h}
	}
	s := max(box.W/vw, box.H/vh)
	full, err := imagefile.RasterizeSVG(data, deckSize(vw*s), deckSize(vh*s))
	if err != nil {
		return nil, nil, box
	}
	b := full.Bounds()
	cw, ch := min(deckSize(box.W), b.Dx()), min(deckSize(box.H), b.Dy())
	x0, y0 := (b.Dx()-cw)/2, (b.Dy()-ch)/2
	return imagefile.Scale(full, image.Rect(x0, y0, x0+cw, y0+ch), cw, ch), nil, box
}
