package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdMkpng writes a real PNG of W by H pixels, red on its left half and
// blue on its right, so a browser test can see where and how it is drawn;
// with a third argument, the file is padded to that many bytes (a PNG
// reader stops at its end chunk):
//
//	mkpng leaf.png 400 200 [6000000]
func cmdMkpng(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 || len(args) > 4 {
		ts.Fatalf("usage: mkpng FILE W H [PADTO]")
	}
	w, err := strconv.Atoi(args[1])
	ts.Check(err)
	h, err := strconv.Atoi(args[2])
	ts.Check(err)
	var buf bytes.Buffer
	ts.Check(png.Encode(&buf, twoColour(w, h)))
	if len(args) == 4 {
		size, err := strconv.Atoi(args[3])
		ts.Check(err)
		buf.Write(make([]byte, max(size-buf.Len(), 0)))
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), buf.Bytes(), 0o644))
}

// twoColour is a w×h picture, red on the left half and blue on the right.
func twoColour(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.RGBA{R: 220, A: 255}
			if x >= w/2 {
				c = color.RGBA{B: 220, A: 255}
			}
			img.Set(x, y, c)
		}
	}
	return img
}
