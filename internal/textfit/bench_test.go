package textfit

import (
	"fmt"
	"testing"
)

// BenchmarkWrap measures and wraps every box of a corpus (what a layout check
// does per text element); BenchmarkFit also judges each and writes a hint for
// those that overflow (a third to a half of the corpus, far more than a real
// lesson has).
//
//	go test ./internal/textfit -run XXX -bench . -benchmem
func BenchmarkWrap(b *testing.B) {
	for _, n := range []int{200, 2000} {
		cases := corpus(n, 1)
		b.Run(fmt.Sprintf("boxes=%d", n), func(b *testing.B) {
			for b.Loop() {
				for _, c := range cases {
					Wrap(c.text, c.style, c.box.W)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/box")
		})
	}
}

func BenchmarkFit(b *testing.B) {
	for _, n := range []int{200, 2000} {
		cases := corpus(n, 1)
		b.Run(fmt.Sprintf("boxes=%d", n), func(b *testing.B) {
			overflow := 0
			for b.Loop() {
				overflow = 0
				for _, c := range cases {
					if !Fit(c.text, c.style, c.box).Fits {
						overflow++
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/box")
			b.ReportMetric(float64(overflow)/float64(n), "overflowing")
		})
	}
}
