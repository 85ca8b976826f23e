package regfile

import (
	"strings"
	"testing"
)

// TestReadAtMost pins the bound every bounded read shares (lesson files,
// sources, pictures, settings): exactly max bytes is whole, one more is over.
func TestReadAtMost(t *testing.T) {
	for _, c := range []struct {
		n    int
		over bool
	}{{0, false}, {9, false}, {10, false}, {11, true}, {100, true}} {
		data, over, err := ReadAtMost(strings.NewReader(strings.Repeat("x", c.n)), 10)
		if err != nil {
			t.Fatal(err)
		}
		if over != c.over {
			t.Errorf("%d bytes with a bound of 10: over = %v, want %v", c.n, over, c.over)
		}
		if !c.over && len(data) != c.n {
			t.Errorf("%d bytes read as %d", c.n, len(data))
		}
	}
}
