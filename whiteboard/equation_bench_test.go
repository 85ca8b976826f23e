package whiteboard_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/whiteboard"
)

// nestedLatex is x^{x^{…}} nested depth deep: 4 bytes a level.
func nestedLatex(depth int) string {
	return strings.Repeat("x^{", depth) + strings.Repeat("}", depth)
}

// equationBoard is a board of one equation with latex src, decoded as
// validate reads it, and its warnings.
func equationBoard(tb testing.TB, src string) (*whiteboard.Board, yamlsrc.Problems) {
	tb.Helper()
	yml := fmt.Sprintf("elements:\n  - {id: eq, type: equation, x: 40, y: 40, w: 600, h: 120, latex: %q}\n", src)
	doc, err := yamlsrc.Parse("board.yaml", []byte(yml))
	if err != nil {
		tb.Fatal(err)
	}
	r := &yamlsrc.Reporter{File: "board.yaml"}
	b := whiteboard.Decode(doc.Root, r, "whiteboard")
	if err := r.Problems.Err(); err != nil {
		tb.Fatal(err)
	}
	return b, r.Problems.Warnings()
}

// BenchmarkEquationNested draws a board whose equation nests ^{…} deeper
// and deeper: memory per op should grow with the source, not its square.
// Before the LaTeX bounds (#21), on the 2-core dev machine: 1 KB 739 kB/op,
// 4 KB 11.3 MB/op, 16 KB 181 MB/op (a 63 KB one took 2.8 GB); after, past
// the bound the source is drawn as text: 1 KB 11 kB/op, 4 KB 42 kB/op,
// 16 KB 181 kB/op, 64 KB 633 kB/op.
//
//	go test ./whiteboard/ -run '^$' -bench EquationNested -benchmem
func BenchmarkEquationNested(b *testing.B) {
	for _, depth := range []int{whiteboard.MaxLatexDepth, 250, 1000, 4000, 16000} {
		b.Run(fmt.Sprintf("bytes=%d", 4*depth), func(b *testing.B) {
			board, _ := equationBoard(b, nestedLatex(depth))
			b.ReportAllocs()
			for b.Loop() {
				whiteboard.Render(board, nil)
			}
		})
	}
}
