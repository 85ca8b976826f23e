package imagefile

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"math"

	"github.com/srwiley/oksvg"
	"github.com/srwiley/rasterx"
)

// SVGSize is an SVG's own size: its viewBox's width and height, else its
// width and height; an error when it has neither.
func SVGSize(data []byte) (w, h float64, err error) {
	icon, err := readSVG(data)
	if err != nil {
		return 0, 0, err
	}
	return icon.ViewBox.W, icon.ViewBox.H, nil
}

// RasterizeSVG draws an SVG that passed Check into a w × h picture,
// stretched to it as a viewer stretches it to a box of that size, for
// places that show no SVG (a deck's picture for viewers that read
// none). github.com/srwiley/oksvg with rasterx draws the shapes, paths,
// gradients and transforms an illustration uses, in pure Go; text
// elements are left out, as that drawer has none. The size is held to
// MaxSide a side.
func RasterizeSVG(data []byte, w, h int) (img image.Image, err error) {
	if w <= 0 || h <= 0 || w > MaxSide || h > MaxSide {
		return nil, fmt.Errorf("svg: size %d×%d outside 1–%d a side", w, h, MaxSide)
	}
	icon, err := readSVG(data)
	if err != nil {
		return nil, err
	}
	// The drawer is third-party code reading a file an author chose:
	// a fault in it is a picture not drawn, never a crashed render.
	defer func() {
		if r := recover(); r != nil {
			img, err = nil, fmt.Errorf("svg: not drawn: %v", r)
		}
	}()
	rgba := image.NewRGBA(image.Rect(0, 0, w, h))
	icon.SetTarget(0, 0, float64(w), float64(h))
	scanner := rasterx.NewScannerGV(w, h, rgba, rgba.Bounds())
	icon.Draw(rasterx.NewDasher(w, h, scanner), 1)
	return rgba, nil
}

func readSVG(data []byte) (icon *oksvg.SvgIcon, err error) {
	defer func() {
		if r := recover(); r != nil {
			icon, err = nil, fmt.Errorf("svg: not read: %v", r)
		}
	}()
	icon, err = oksvg.ReadIconStream(bytes.NewReader(data), oksvg.IgnoreErrorMode)
	if err != nil {
		return nil, fmt.Errorf("svg: %w", err)
	}
	vb := icon.ViewBox
	if !(vb.W > 0 && vb.H > 0) || math.IsInf(vb.W, 0) || math.IsInf(vb.H, 0) {
		return nil, errors.New("svg: no size (neither a viewBox nor a width and height)")
	}
	return icon, nil
}
