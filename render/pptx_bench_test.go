package render_test

import (
	"io"
	"testing"

	"github.com/lessongen/lessongen/render"
)

// BenchmarkRender500 draws one loaded 500-slide lesson as HTML and as
// PowerPoint; issue 26 asks the deck to take under twice the page's time:
//
//	go test ./render/ -run '^$' -bench Render500 -count 5
func BenchmarkRender500(b *testing.B) {
	reg := registry(b)
	doc := load(b, bigLesson(b, 500), reg)
	b.Run("format=html", func(b *testing.B) {
		for b.Loop() {
			if err := render.HTML(io.Discard, doc, reg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("format=pptx", func(b *testing.B) {
		for b.Loop() {
			if err := render.PPTX(io.Discard, doc, reg, nil, false); err != nil {
				b.Fatal(err)
			}
		}
	})
}
