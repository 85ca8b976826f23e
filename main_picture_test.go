package main

import (
	"bytes"
	"os"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/lessongen/lessongen/internal/picturetest"
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
	buf := bytes.NewBuffer(picturetest.TwoColourPNG(w, h))
	if len(args) == 4 {
		size, err := strconv.Atoi(args[3])
		ts.Check(err)
		buf.Write(make([]byte, max(size-buf.Len(), 0)))
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), buf.Bytes(), 0o644))
}
