package yamlsrc

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// Syntax errors are reported at the line they are on, whichever part of
// yaml.v3 found them (its parser prints 0-based lines, its scanner 1-based).
func TestSyntaxErrorPositions(t *testing.T) {
	tests := []struct {
		src  string
		want string // "line:col: message start"
	}{
		{"heading: x\n- a\n", "2:1: invalid YAML: did not find expected key"},
		{"a: 1\nb: 2\nc: 3\n- a\n", "4:1: invalid YAML: did not find expected key"},
		{"heading: x\nel: [a, b\n", "2:1: invalid YAML: did not find expected ',' or ']'"},
		{"heading: x\nel: }\n", "2:1: invalid YAML: did not find expected node content"},
		{"- a\n- b\nc: 1\n", `3:1: this line is indented like the list's items ("- b", line 2) but does not start with "- ": start a new item with "- "`},
		{"version: 1\nmetadata: [\n", "2:1: invalid YAML: did not find expected node content"},
		{"version: 1\nmetadata: [\n\n\n", "2:1: invalid YAML: did not find expected node content"},
		{"heading: x\nfoo\n", "2:1: this line has no colon, so YAML cannot read it as a key and its value; write it as key: value, e.g. foo: …"},
		{"heading: x\n  bad: [\n", `2:3: this line is indented deeper than the line above it ("heading: x", line 1)`},
		{"- [a\n", "1:1: invalid YAML: did not find expected ',' or ']'"},
		{"heading: x\nel: *nowhere\n", "2:5: invalid YAML: unknown anchor 'nowhere' referenced"},
		{"heading: x\nel: a\x01b\n", "2:6: invalid YAML: control character U+0001 is not allowed; remove it"},
		{"a: 1\n\tb: 2\n", "2:1: invalid YAML: found a tab character that violates indentation (YAML indents with spaces; this line has a tab)"},
		// yaml.v3 names the line the block began on; the report names the
		// line that broke it.
		{"version: 1\nmetadata:\n  title: T\n\tsubject: x\n  grade: 7\n", "4:1: invalid YAML: found a tab character that violates indentation (YAML indents with spaces; this line has a tab)"},
		{"m:\n  title: T\n  objectives:\n  - a\n\t- b\n", "5:1: invalid YAML: found a tab character"},
		{"m:\n  title: T\n  objectives:\n    - a\n   - b\n  grade: 7\n", `5:4: this line is indented 3 spaces, which matches no line above it; indent it by 4 spaces like "- a" (line 4) or by 2 like "objectives:" (line 3)`},
		// The commonest mistakes, named at their own line and column with
		// the fix, wherever yaml.v3 found them.
		{"version: 1\nmetadata:\n  title: Fractions: adding\n  grade: 5\n", `3:19: this value has a colon followed by a space: YAML reads it as a key; quote the value: title: "Fractions: adding"`},
		{"a: 1\nb: ratio 2:1 means:\nc: 3\n", `2:19: this value has a colon followed by a space: YAML reads it as a key; quote the value: b: "ratio 2:1 means:"`},
		{"slides:\n  - id: hook\n    title: Warm up: \"halves\"\n", `3:19: this value has a colon followed by a space: YAML reads it as a key; quote the value: title: "Warm up: \"halves\""`},
		{"slides:\n  - id: hook\n    title: Warm up\n      notes: Ask.\n  - id: two\n", `4:7: this line is indented deeper than the line above it ("title: Warm up", line 3), so YAML reads it as more of that value and cannot take its key; indent it by 4 spaces like the keys beside it`},
		{"slides:\n  - id: hook\n    title: Warm up\n  notes: Ask.\n  - id: two\n", `4:3: this line is indented like the list's items ("- id: hook", line 2) but does not start with "- ": indent it by 4 spaces to put it in that item, or start a new item with "- "`},
		{"title:\n  Fractions\n  and more\nlist:\n  - a\n    b\nc: 1\n  d: 2\n", `8:3: this line is indented deeper than the line above it ("c: 1", line 7)`},
		{"a: 1\n# a comment: here\nnotes: |\n  Step 1: fold\n   it\nb: 2\ntimeout 5m\n", "7:1: this line has no colon, so YAML cannot read it as a key and its value; write it as key: value, e.g. timeout: 5m"},
	}
	for _, tt := range tests {
		_, err := Parse("f.yaml", []byte(tt.src))
		ps, ok := err.(Problems)
		if !ok || len(ps) != 1 {
			t.Errorf("%q: got %v, want one problem", tt.src, err)
			continue
		}
		if got := ps[0].String(); !strings.HasPrefix(got, "f.yaml:"+tt.want) {
			t.Errorf("%q:\n got %s\nwant f.yaml:%s", tt.src, got, tt.want)
		}
	}
}

// Only UTF-8 is read; other encodings are refused at the byte that shows
// them, and the message quotes nothing of the file.
func TestEncodingsRefused(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"UTF-16LE", append([]byte{0xFF, 0xFE}, utf16le("a: 1\n")...), "1:1: the file is UTF-16 (it starts with a UTF-16 byte order mark)"},
		{"UTF-16BE", []byte{0xFE, 0xFF, 0, 'a', 0, ':', 0, ' ', 0, '1'}, "1:1: the file is UTF-16"},
		{"UTF-32LE", []byte{0xFF, 0xFE, 0, 0, 'a', 0, 0, 0}, "1:1: the file is UTF-32"},
		{"UTF-32BE", []byte{0, 0, 0xFE, 0xFF, 0, 0, 0, 'a'}, "1:1: the file is UTF-32"},
		{"UTF-16 without a mark", utf16le("a: 1\n"), "1:2: the file has NUL bytes"},
		{"Latin-1", []byte("title: x\nname: caf\xe9 au lait\n"), "2:10: invalid UTF-8 (byte 0xE9)"},
		{"truncated sequence", []byte("a: \xe2\x82\n"), "1:4: invalid UTF-8 (byte 0xE2)"},
	}
	for _, tt := range tests {
		_, err := Parse("f.yaml", tt.data)
		ps, ok := err.(Problems)
		if !ok || len(ps) != 1 {
			t.Errorf("%s: got %v, want one problem", tt.name, err)
			continue
		}
		got := ps[0].String()
		if !strings.HasPrefix(got, "f.yaml:"+tt.want) || !strings.HasSuffix(got, "save the file as UTF-8") {
			t.Errorf("%s:\n got %s\nwant f.yaml:%s…save the file as UTF-8", tt.name, got, tt.want)
		}
		if strings.Contains(got, "lait") {
			t.Errorf("%s: the message quotes the file: %s", tt.name, got)
		}
	}
}

func utf16le(s string) []byte {
	var b []byte
	for _, r := range s {
		b = append(b, byte(r), 0)
	}
	return b
}

// A UTF-8 byte order mark is kept: positions ignore it, and a patched
// file starts with it again.
func TestUTF8ByteOrderMarkRoundTrips(t *testing.T) {
	src := "\ufeffa: !pending\nb: 2\r\n"
	s, err := Parse("f.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if a := s.Root.Content[1]; s.start(a) != 3 {
		t.Errorf("the value of a starts at offset %d of the text, want 3", s.start(a))
	}
	out, err := s.Patch(clone(s.Root))
	if err != nil || string(out) != src {
		t.Fatalf("unchanged: %q, %v", out, err)
	}
	cur := clone(s.Root)
	cur.Content[1] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "1"}
	out, err = s.Patch(cur)
	if err != nil {
		t.Fatal(err)
	}
	if want := "\ufeffa: 1\r\nb: 2\r\n"; string(out) != want {
		t.Errorf("patched: %q, want %q", out, want)
	}
}

// A wrong value is quoted only as far as needed to recognise it.
func TestWrongValueIsQuotedShort(t *testing.T) {
	long := strings.Repeat("x", 100)
	for v, want := range map[string]string{
		"short":                 `"short"`,
		long:                    `"` + long[:excerptRunes] + `…"`,
		"root:x:0:0\nbin:x:1:1": `"root:x:0:0…"`,
	} {
		if got := describeKind(&yaml.Node{Kind: yaml.ScalarNode, Value: v}); got != want {
			t.Errorf("%.20q: got %s, want %s", v, got, want)
		}
	}
}
