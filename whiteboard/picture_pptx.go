package whiteboard

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"

	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/internal/textfit"
)

// picturePPTX is e's picture on a slide, fitted to box as the page fits
// it, with its credit line; nil when e has none a slide can hold. The deck
// writer takes PNG only, so a raster picture is re-encoded as PNG (cover
// crops it first); an SVG stays the placeholder, as nothing here can
// rasterise it.
func (e *Element) picturePPTX(m mapper, box textfit.Box) pptx.Shape {
	if e.picture == nil || e.picture.mime == "image/svg+xml" {
		return nil
	}
	img, _, err := image.Decode(bytes.NewReader(e.picture.data))
	if err != nil || img.Bounds().Empty() {
		return nil
	}
	credit := e.creditLine()
	pic := box
	if credit != "" && box.H > 2*creditBand {
		pic.H -= creditBand
	}
	img, pic = fitPicture(img, pic, e.Fit == "cover")
	var buf bytes.Buffer
	if png.Encode(&buf, img) != nil {
		return nil
	}
	_, alt := e.imageText()
	g := &pptx.Group{Name: e.ID, Shapes: []pptx.Shape{
		&pptx.Pic{Name: e.ID + " picture", Descr: alt.Value, Box: m.box(pic), PNG: buf.Bytes()},
	}}
	if credit != "" && box.H > 2*creditBand {
		band := textfit.Box{X: box.X, Y: box.Y + box.H - creditBand, W: box.W, H: creditBand}
		g.Shapes = append(g.Shapes, &pptx.Sp{Name: e.ID + " credit", Box: m.box(band),
			Paras: []pptx.Para{{Runs: []pptx.Run{{Text: credit, Size: m.pt(creditFontSize), Color: pptx.RGB("56606B")}}, Align: "r"}}})
	}
	return g
}

// fitPicture is what the page's preserveAspectRatio draws: for contain,
// the whole picture in the largest box of its aspect centred in box; for
// cover, box filled by the picture's centre, cropped to box's aspect.
func fitPicture(img image.Image, box textfit.Box, cover bool) (image.Image, textfit.Box) {
	b := img.Bounds()
	iw, ih := float64(b.Dx()), float64(b.Dy())
	if !cover {
		s := min(box.W/iw, box.H/ih)
		w, h := iw*s, ih*s
		return img, textfit.Box{X: box.X + (box.W-w)/2, Y: box.Y + (box.H-h)/2, W: w, H: h}
	}
	s := max(box.W/iw, box.H/ih)
	cw, ch := int(box.W/s+0.5), int(box.H/s+0.5)
	x0, y0 := b.Min.X+(b.Dx()-cw)/2, b.Min.Y+(b.Dy()-ch)/2
	crop := image.NewRGBA(image.Rect(0, 0, max(cw, 1), max(ch, 1)))
	draw.Draw(crop, crop.Bounds(), img, image.Pt(x0, y0), draw.Src)
	return crop, box
}
