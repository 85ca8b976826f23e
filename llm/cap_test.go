package llm

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/fakellm"
)

// An endless or huge answer, streamed or not, is cut at the cap: the turn
// fails naming the cap and the setting to raise, and what the client
// allocated stays bounded, far below the answer's size (a broken server
// used to grow the process about 1 GB/s until it died).
func TestAnswerCap(t *testing.T) {
	const limit = 1 << 20
	const bound = 64 << 20 // allocations allowed for a 1 MiB cap
	for _, tc := range []struct {
		name string
		turn fakellm.Turn
	}{
		{"endless", fakellm.Turn{Endless: true}},
		{"huge", fakellm.Turn{HugeBytes: 200 << 20}},
	} {
		for _, stream := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/stream=%v", tc.name, stream), func(t *testing.T) {
				srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{tc.turn}}}})
				c := newClient(t, Config{BaseURL: srv.URL(), Clock: newFakeClock(), Stream: stream, MaxAnswerBytes: limit, MaxRetries: -1})
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				_, err := c.Complete(context.Background(), userReq("go"))
				runtime.ReadMemStats(&after)
				pe := providerError(t, err)
				if !strings.Contains(pe.Message, "cap of 1 MiB") || !strings.Contains(pe.Fix, "--max-answer-bytes") ||
					!strings.Contains(pe.Fix, "LESSONGEN_MAX_ANSWER_BYTES") || !pe.Retryable {
					t.Errorf("error = %v (retryable %v), want the cap, the setting to raise, retryable", pe, pe.Retryable)
				}
				if got := after.TotalAlloc - before.TotalAlloc; got > bound {
					t.Errorf("allocated %d MiB reading a capped answer, want at most %d MiB", got>>20, bound>>20)
				}
			})
		}
	}
}

// An answer below the cap is read whole; retries of a capped answer are
// attempts like any other.
func TestAnswerBelowCap(t *testing.T) {
	for _, stream := range []bool{false, true} {
		srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{HugeBytes: 256 << 10}}}}})
		c := newClient(t, Config{BaseURL: srv.URL(), Clock: newFakeClock(), Stream: stream, MaxAnswerBytes: 1 << 20})
		resp, err := c.Complete(context.Background(), userReq("go"))
		if err != nil {
			t.Fatalf("stream=%v: %v", stream, err)
		}
		if len(resp.Message.Content) != 256<<10 {
			t.Errorf("stream=%v: content of %d bytes, want %d", stream, len(resp.Message.Content), 256<<10)
		}
	}
}
