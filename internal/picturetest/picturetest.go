// Package picturetest makes the pictures the picture tests draw: red on
// the left half, blue on the right, so a screenshot or a decoded slide
// shows where and at what aspect a picture landed.
package picturetest

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
)

// TwoColourPNG is a w×h PNG, red on its left half and blue on its right.
func TwoColourPNG(w, h int) []byte {
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
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err) // encoding to memory fails only on a bad image
	}
	return buf.Bytes()
}
