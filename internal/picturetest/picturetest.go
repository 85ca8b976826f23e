// Package picturetest makes the pictures the picture tests draw: red on
// the left half, blue on the right, so a screenshot or a decoded slide
// shows where and at what aspect a picture landed.
package picturetest

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
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

// HeaderPNG is a tiny PNG (under 70 bytes) whose header declares a w×h
// grey picture and whose pixels stop after a few bytes: a picture bomb
// to a decoder that trusts the header.
func HeaderPNG(w, h int) []byte {
	return pngFile(w, h, []byte{0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01})
}

// SolidPNG is a real, whole w×h black grey PNG: every row and filter byte
// is zero, which deflate squeezes about a thousand to one, so a
// 30000×30000 picture is under 1 MB. It is made without deflating the
// 900 MB: a deflate block flushed after 64 KB of zeros decodes the same
// wherever it follows zeros, so one such block of 1 MB is repeated.
func SolidPNG(w, h int) []byte {
	raw := int64(w+1) * int64(h) // a filter byte, then w grey bytes, per row
	var z bytes.Buffer
	z.Write([]byte{0x78, 0x9c})
	fw, _ := flate.NewWriter(&z, flate.DefaultCompression)
	zeros := make([]byte, 1<<20)
	head := min(raw, 64<<10)
	fw.Write(zeros[:head])
	fw.Flush()
	rest := raw - head
	if n := rest / int64(len(zeros)); n > 0 {
		mark := z.Len()
		fw.Write(zeros)
		fw.Flush()
		block := bytes.Clone(z.Bytes()[mark:])
		for range n - 1 {
			z.Write(block)
		}
		rest -= n * int64(len(zeros))
	}
	fw.Write(zeros[:rest])
	fw.Close()
	// Adler-32 of raw zero bytes: a stays 1, b adds 1 per byte.
	z.Write(binary.BigEndian.AppendUint32(nil, uint32(raw%65521)<<16|1))
	return pngFile(w, h, z.Bytes())
}

// pngFile is a grey 8-bit PNG of w×h with idat as its one IDAT chunk.
func pngFile(w, h int, idat []byte) []byte {
	out := []byte("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
		start := len(out)
		out = append(append(out, typ...), data...)
		out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start:]))
	}
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	chunk("IHDR", append(ihdr, 8, 0, 0, 0, 0)) // 8 bits, grey, deflate, no filter choice, no interlace
	chunk("IDAT", idat)
	chunk("IEND", nil)
	return out
}
