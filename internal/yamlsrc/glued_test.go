package yamlsrc

import (
	"fmt"
	"strings"
	"testing"
)

// `!pending}` in flow style is one tag to YAML; it is reported where the
// marker is, with the fix, whether the parser fails or silently misreads it.
func TestGluedPendingIsReportedWithTheFix(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
		glued     string
	}{
		{"a: {definition: !pending}\n", 1, 17, "!pending}"},
		{"a:\n  - {term: x, definition: !pending}\n  - y\n", 2, 27, "!pending}"},
		{"a: {x: !pending, y: 1}\n", 1, 8, "!pending,"},
		{"a:\n  b: 1\n  c: [x, !pending]\n  d: 2\n", 3, 10, "!pending]"},
		// This one parses, with b tagged "!pending,": still refused.
		{"a: [!pending, b]\n", 1, 5, "!pending,"},
		{"a: [\"é\", !pending]\n", 1, 10, "!pending]"},
	}
	for _, tt := range tests {
		_, err := Parse("f.yaml", []byte(tt.src))
		ps, ok := err.(Problems)
		if !ok || len(ps) != 1 {
			t.Errorf("%q: err = %v", tt.src, err)
			continue
		}
		p := ps[0]
		want := fmt.Sprintf("put a space after !pending: YAML reads %q as one tag here (write %q)", tt.glued, "!pending "+tt.glued[len("!pending"):])
		if p.Line != tt.line || p.Col != tt.col || p.Message != want {
			t.Errorf("%q: got %v\nwant %d:%d: %s", tt.src, p, tt.line, tt.col, want)
		}
	}
	// With the space, all of these load.
	for _, tt := range tests {
		fixed := strings.ReplaceAll(tt.src, tt.glued, "!pending "+tt.glued[len("!pending"):])
		if _, err := Parse("f.yaml", []byte(fixed)); err != nil {
			t.Errorf("%q: %v", fixed, err)
		}
	}
}
