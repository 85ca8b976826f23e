package whiteboard_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

// BenchmarkRecheckFullBoard is one call's cost on a full board: 40 coloured
// boxes and 20 arrows, every call re-checking fit, overlaps, contrast and
// arrow crossings.
func BenchmarkRecheckFullBoard(b *testing.B) {
	var src strings.Builder
	src.WriteString("canvas: {width: 1280, height: 720, background: \"#fdf6e3\"}\nelements:\n")
	for i := range 40 {
		fmt.Fprintf(&src, "  - {id: t%d, type: shape, shape: rect, x: %d, y: %d, w: 120, h: 60, label: Box %d, style: {stroke: darkorange, fill: \"#fff3d6\"}}\n", i, 40+(i%8)*150, 40+(i/8)*130, i)
	}
	for i := range 20 {
		fmt.Fprintf(&src, "  - {id: a%d, type: arrow, from: t%d, to: t%d, label: step}\n", i, i, i+1)
	}
	doc, err := yamlsrc.Parse("board.yaml", []byte(src.String()))
	if err != nil {
		b.Fatal(err)
	}
	r := &yamlsrc.Reporter{File: "board.yaml"}
	board := whiteboard.Decode(doc.Root, r, "whiteboard")
	if err := r.Problems.Err(); err != nil {
		b.Fatal(err)
	}
	board.Protect = false // the benchmark moves an element the file holds
	s := session.New("board", board)
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		if _, err := s.Dispatch(ctx, whiteboard.MoveElement{ID: "t39", X: float64(1090 + i%2), Y: 560}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRecheckWorksheet is one call's cost on a worksheet board: a
// table of 30 survey values with blank frequencies, 10 lines of code with
// output and 6 answer spaces, every call re-checking each cell's fit, the
// code in the monospace face, overlaps and contrast.
func BenchmarkRecheckWorksheet(b *testing.B) {
	var src strings.Builder
	src.WriteString("elements:\n  - {id: t, type: table, header: [value, frequency, value, frequency], x: 40, y: 40, w: 480, h: 640, style: {font_size: 18}, rows: [")
	for i := range 15 {
		fmt.Fprintf(&src, "[\"%d\", \"\", \"%d\", \"\"], ", 60+i, 75+i)
	}
	src.WriteString("]}\n")
	src.WriteString("  - {id: c, type: code, language: python, x: 560, y: 40, w: 680, h: 360, code: \"" + strings.Repeat("print(sum(xs) / len(xs))  # the mean\\n", 10) + "\", output: \"72.5\"}\n")
	for i := range 6 {
		fmt.Fprintf(&src, "  - {id: b%d, type: blank, label: \"x%d =\", x: %d, y: %d, w: 320, h: 60}\n", i, i, 560+(i%2)*360, 420+(i/2)*90)
	}
	doc, err := yamlsrc.Parse("board.yaml", []byte(src.String()))
	if err != nil {
		b.Fatal(err)
	}
	r := &yamlsrc.Reporter{File: "board.yaml"}
	board := whiteboard.Decode(doc.Root, r, "whiteboard")
	if err := r.Problems.Err(); err != nil {
		b.Fatal(err)
	}
	if ws := board.Defects(); len(ws) > 0 {
		b.Fatalf("the worksheet warns: %v", ws)
	}
	board.Protect = false
	s := session.New("board", board)
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		if _, err := s.Dispatch(ctx, whiteboard.MoveElement{ID: "b5", X: float64(920 + i%2), Y: 600}); err != nil {
			b.Fatal(err)
		}
	}
}
