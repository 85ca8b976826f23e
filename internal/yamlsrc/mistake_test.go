package yamlsrc

import (
	"strings"
	"testing"
)

// FuzzMistake: reading any text for layout mistakes never panics, and a
// mistake it names is on a line of the file, at a column within it.
func FuzzMistake(f *testing.F) {
	for _, s := range []string{
		"title: Fractions: adding\n", "a:\n  - b\n c: d\n", "a: |\n  x: y\nb: 2\n", "- a\n  - b\n-\n  c: d: e\n",
		"a: \"x\n  y\"\nb c\n", "a: [1,\n 2]\n", "? a\n: b\n", "a: !pending\n  b: c\n", "x:\n  y\n  z: 1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, ok := Mistake("f.yaml", data)
		if !ok {
			return
		}
		lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
		if p.Line < 1 || p.Line > len(lines) || p.Col < 1 || p.Col > len([]rune(lines[p.Line-1]))+1 {
			t.Fatalf("%q: a mistake at %d:%d, outside the file", data, p.Line, p.Col)
		}
	})
}
