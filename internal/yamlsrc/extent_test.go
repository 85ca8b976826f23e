package yamlsrc

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestEndOfOddScalars pins the extent of values the basic extent test does
// not cover. Each want is the exact source text of the value.
func TestEndOfOddScalars(t *testing.T) {
	tests := []struct {
		name, src, key, want string
	}{
		{"folded strip", "a: >-\n  one\n  two\nb: 1\n", "a", ">-\n  one\n  two"},
		{"literal keep stops at last content line", "a: |+\n  one\n\n\nb: 1\n", "a", "|+\n  one"},
		{"literal with header comment", "a: | # note\n  one\nb: 1\n", "a", "| # note\n  one"},
		{"literal with indentation indicator", "a: |2\n    more\n  base\nb: 1\n", "a", "|2\n    more\n  base"},
		{"nested indentation indicator", "k:\n  a: >1-\n     x\n    y\n  b: 1\n", "k.a", ">1-\n     x\n    y"},
		{"literal at end without newline", "a: |\n  one\n  two", "a", "|\n  one\n  two"},
		{"hash without space is text", "a: C#minor # key\n", "a", "C#minor"},
		{"url colon is text", "a: http://example.org/a:b  # c\n", "a", "http://example.org/a:b"},
		{"plain with trailing spaces", "a: text   \nb: 1\n", "a", "text"},
		{"multi-line double quoted", "a: \"one\n  two\"\nb: 1\n", "a", "\"one\n  two\""},
		{"escaped quote at end", `a: "x\\"` + "\nb: 1\n", "a", `"x\\"`},
		{"empty double quoted", "a: \"\"\nb: 1\n", "a", `""`},
		{"empty single quoted", "a: ''\nb: 1\n", "a", "''"},
		{"explicit type tag", "a: !!str 12\n", "a", "!!str 12"},
		{"value on the next line", "a:\n  spaced value\nb: 1\n", "a", "spaced value"},
		{"pending hint on the next line", "a: !pending\n  \"later\"\nb: 1\n", "a", "!pending\n  \"later\""},
		{"flow sequence with tricky strings", "a: [1, \"]\", 'x''y', {k: v}]  # c\n", "a", "[1, \"]\", 'x''y', {k: v}]"},
		{"flow mapping across lines", "a: {x: 1, # one\n  y: 2}\nb: 1\n", "a", "{x: 1, # one\n  y: 2}"},
		{"empty flow", "a: []\nb: {}\n", "b", "{}"},
		{"anchored flow", "a: &m {x: 1}\nb: *m\n", "a", "&m {x: 1}"},
		{"alias", "a: &m 1\nb: *m # c\n", "b", "*m"},
		{"unicode before the value", "ünï: \"ç\"  # c\n", "ünï", `"ç"`},
		{"crlf plain", "a: text\r\nb: 1\r\n", "a", "text"},
		{"crlf literal", "a: |\r\n  one\r\n  two\r\nb: 1\r\n", "a", "|\r\n  one\r\n  two"},
		{"block sequence value", "a:\n  - x\n  - y # c\nb: 1\n", "a", "- x\n  - y"},
		{"nested mapping value", "a:\n  k: v\n  l: |\n    w\nb: 1\n", "a", "k: v\n  l: |\n    w"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustParse(t, tt.src)
			v := get(s.Root, strings.Split(tt.key, ".")...)
			if v == nil {
				t.Fatalf("no key %q", tt.key)
			}
			if got := string(s.text[s.start(v):s.End(v)]); got != strings.ReplaceAll(tt.want, "\r", "") {
				t.Errorf("extent %q, want %q", got, tt.want)
			}
		})
	}
}

// Whatever the value's spelling, replacing it keeps everything around it.
func TestPatchReplacesOddScalarsCleanly(t *testing.T) {
	tests := []struct{ name, src string }{
		{"folded", "a: >-\n  one\n  two\nb: 1  # keep\n"},
		{"keep chomping", "a: |+\n  one\n\nb: 1  # keep\n"},
		{"indentation indicator", "a: |2\n    more\n  base\nb: 1  # keep\n"},
		{"multi-line double quoted", "a: \"one\n  two\"\nb: 1  # keep\n"},
		{"flow across lines", "a: {x: 1, # one\n  y: 2}\nb: 1  # keep\n"},
		{"pending hint below tag", "a: !pending\n  \"later\"\nb: 1  # keep\n"},
		{"multi-line plain", "a: one\n  two\n  three\nb: 1  # keep\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := patch(t, tt.src, func(r *yaml.Node) { set(r, "a", scalar("new")) })
			if out != "a: new\nb: 1  # keep\n" && !strings.HasPrefix(out, "a: new\n") {
				t.Errorf("got %q", out)
			}
			if !strings.HasSuffix(out, "b: 1  # keep\n") {
				t.Errorf("lost the line after: %q", out)
			}
		})
	}
}
