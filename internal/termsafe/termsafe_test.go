package termsafe

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "Light reactions — 6CO₂", "Light reactions — 6CO₂"},
		{"newline and tab kept", "a\n\tb", "a\n\tb"},
		{"clear screen", "\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},
		{"window title", "\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"bel nul cr", "a\x07b\x00c\rd", `a\x07b\x00c\x0dd`},
		{"del", "x\x7fy", `x\x7fy`},
		{"c1 csi", "x\u009b31my", `x\u009b31my`},
		{"rlo", "abc\u202edcba", `abc\u202edcba`},
		{"isolates", "\u2066x\u2069", `\u2066x\u2069`},
		{"all bidi embeddings", "\u202a\u202b\u202c\u202d", `\u202a\u202b\u202c\u202d`},
		{"not utf-8", "a\xffb", `a\xffb`},
		{"marks kept", "\u200e ok", "\u200e ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := String(tt.in); got != tt.want {
				t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestLine(t *testing.T) {
	if got, want := Line("a\nb\tc\x1b"), `a\x0ab\x09c\x1b`; got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}
}

func TestJSON(t *testing.T) {
	in := map[string]string{"title": "a\x1b[2Jb\x7fc\u009bd\u202ee\u2066f", "plain": "ok"}
	data, _ := json.Marshal(in)
	out := JSON(data)
	if s := string(out); strings.ContainsAny(s, "\x1b\x7f\u009b\u202e\u2066") {
		t.Errorf("raw characters left: %q", s)
	}
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil || back["title"] != in["title"] {
		t.Errorf("JSON changed the value: %q, %v", back, err)
	}
	if plain := []byte(`{"a":"b"}`); string(JSON(plain)) != `{"a":"b"}` {
		t.Error("safe JSON changed")
	}
}

func FuzzString(f *testing.F) {
	f.Add("\x1b[31mred\u202e")
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		for _, r := range out {
			if unsafe(r, false) {
				t.Fatalf("String(%q) = %q keeps %U", s, out, r)
			}
		}
		if safe(s, false) && out != s {
			t.Fatalf("safe text changed: %q -> %q", s, out)
		}
	})
}

// Writer escapes what String escapes, whatever the writes' boundaries, and
// keeps a character split across writes whole.
func TestWriter(t *testing.T) {
	in := "ok é — \x1b[2J\u202eabc\u2066\x07 done\n"
	want := String(in)
	for cut := 0; cut <= len(in); cut++ {
		var b strings.Builder
		w := NewWriter(&b)
		w.Write([]byte(in[:cut]))
		w.Write([]byte(in[cut:]))
		w.Flush()
		if b.String() != want {
			t.Fatalf("split at %d: %q, want %q", cut, b.String(), want)
		}
	}
	var b strings.Builder
	w := NewWriter(&b)
	w.Write([]byte("x\xe2\x80"))
	w.Flush()
	if b.String() != `x\xe2\x80` {
		t.Errorf("an unfinished character at the end: %q", b.String())
	}
}

func TestMarkup(t *testing.T) {
	in := "<h1>T\x1b]0;pwned\x07 \u202eab\r</h1>\n\tok é\xff"
	want := "<h1>T&#x1b;]0;pwned&#x7; &#x202e;ab&#xd;</h1>\n\tok é&#xfffd;"
	if got := Markup(in); got != want {
		t.Errorf("Markup = %q, want %q", got, want)
	}
	if got := Markup("plain <b>x</b>\n"); got != "plain <b>x</b>\n" {
		t.Errorf("changed safe text: %q", got)
	}
}
