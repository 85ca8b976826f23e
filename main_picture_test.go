package main

import (
	"bytes"
	"os"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/lessongen/lessongen/internal/picturetest"
)

// cmdMkpng writes a real PNG of W by H pixels, red on its left half and
// blue on its right, so a browser test can see where and how it is drawn;
// with a third argument, the file is padded to that many bytes (a PNG
// reader stops at its end chunk). -solid writes a whole black PNG, small
// however large (picturetest.SolidPNG); -header only a header declaring
// W by H (picturetest.HeaderPNG); -cut N keeps the first N bytes:
//
//	mkpng leaf.png 400 200 [6000000]
//	mkpng -solid huge.png 30000 30000
//	mkpng -header bomb.png 65535 65535
//	mkpng -cut 69 cut.png 40 20
func cmdMkpng(ts *testscript.TestScript, neg bool, args []string) {
	draw, cut := picturetest.TwoColourPNG, -1
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-solid":
			draw = picturetest.SolidPNG
		case "-header":
			draw = picturetest.HeaderPNG
		case "-cut":
			if len(args) < 2 {
				ts.Fatalf("usage: mkpng -cut N FILE W H")
			}
			n, err := strconv.Atoi(args[1])
			ts.Check(err)
			cut, args = n, args[1:]
		default:
			ts.Fatalf("mkpng: unknown flag %s", args[0])
		}
		args = args[1:]
	}
	if neg || len(args) < 3 || len(args) > 4 {
		ts.Fatalf("usage: mkpng [-solid|-header|-cut N] FILE W H [PADTO]")
	}
	w, err := strconv.Atoi(args[1])
	ts.Check(err)
	h, err := strconv.Atoi(args[2])
	ts.Check(err)
	buf := bytes.NewBuffer(draw(w, h))
	if cut >= 0 {
		buf.Truncate(cut)
	}
	if len(args) == 4 {
		size, err := strconv.Atoi(args[3])
		ts.Check(err)
		buf.Write(make([]byte, max(size-buf.Len(), 0)))
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), buf.Bytes(), 0o644))
}
