package course

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// BenchmarkDispatch is what a course run does per lesson besides the
// lesson's own generate: the waits and the schedule, and (told) the
// course's level of its describe chain. The first should stay flat per
// lesson as the course grows; the second grows with what a lesson is
// told of the lessons before it, up to MaxPriorBytes.
func BenchmarkDispatch(b *testing.B) {
	for _, bc := range []struct {
		n    int
		told bool
	}{{5, false}, {20, false}, {5, true}, {20, true}} {
		n := bc.n
		b.Run(fmt.Sprintf("lessons=%d/told=%v", n, bc.told), func(b *testing.B) {
			all := make([]Summary, n)
			sel := make([]int, n)
			for i := range all {
				all[i] = Summary{File: fmt.Sprintf("lessons/%02d.yaml", i+1), Title: fmt.Sprintf("Lesson %d", i+1),
					Objectives: []string{strings.Repeat("objective ", 10)}, KeyPoints: []string{"a point"},
					Vocabulary: []Term{{Term: "term", Definition: "a definition"}}, Pending: i%2 == 1}
				sel[i] = i
			}
			c := &Course{}
			var mu sync.Mutex
			for b.Loop() {
				Schedule(context.Background(), sel, Waits(all, sel), func(_ context.Context, i int, ready func()) error {
					if bc.told {
						mu.Lock()
						_ = Above(c, all, i)
						mu.Unlock()
					}
					ready()
					return nil
				})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/lesson")
		})
	}
}
