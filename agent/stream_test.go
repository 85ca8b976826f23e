package agent

import (
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/event"
)

// Pieces of any size come out as events that join back to the text, and
// no word (so no secret) is split across two events.
func TestChunkerKeepsWordsWhole(t *testing.T) {
	text := "Adding slide ☀ one  with key sk-abcdefghijklmnop\nand done."
	for size := 1; size <= 7; size++ {
		var got []string
		c := newChunker(Task{Node: "n"}, 1, func(e event.Event) {
			if e.Kind != event.TextChunk {
				t.Fatalf("kind %s", e.Kind)
			}
			got = append(got, e.Text)
		})
		for rest := text; rest != ""; {
			n := min(size, len(rest))
			c.add(rest[:n])
			rest = rest[n:]
		}
		c.flush()
		if strings.Join(got, "") != text {
			t.Fatalf("size %d: joined %q", size, strings.Join(got, ""))
		}
		for _, g := range got {
			if strings.Contains(g, "sk-") && !strings.Contains(g, "sk-abcdefghijklmnop") {
				t.Errorf("size %d: secret split: %q", size, got)
			}
		}
	}
}
