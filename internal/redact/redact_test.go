package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"strings"
	"testing"
)

const key = "sk-live-abcdef0123456789wxyz"

func TestString(t *testing.T) {
	r := New(key, "http://alice:hunter2-long-pass@example.com/v1?api-key=azure-query-secret-1&x=1")
	tests := []struct {
		name, in, want string
	}{
		{"key", "token " + key + " end", "token [redacted] end"},
		{"key twice, adjacent", key + key, "[redacted]"},
		{"key in JSON", `{"heading":"` + key + `"}`, `{"heading":"[redacted]"}`},
		{"unicode ellipsis", "key sk-live…wxyz was refused", "key [redacted] was refused"},
		{"three dots", "key sk-li...yz.", "key [redacted]."},
		{"first/last 4", "sk-l...wxyz", "[redacted]"},
		{"asterisks (OpenAI)", "Incorrect API key provided: sk-live-****************wxyz.", "Incorrect API key provided: [redacted]."},
		{"asterisks and dots", "sk-liv***...***9wxyz", "[redacted]"},
		{"masked form glued to a word", "key=sk-live…wxyz", "key=[redacted]"},
		{"not a masked form: wrong tail", "sk-live…abcd", "sk-live…abcd"},
		{"not a masked form: short head", "sk…wxyz", "sk…wxyz"},
		{"not a masked form: reveals too little", "sk-…yz", "sk-…yz"},
		{"a word ending like the key's prefix", "risk-...yz", "risk-...yz"},
		{"ordinary ellipsis", "wait... what", "wait... what"},
		{"URL password", "pass hunter2-long-pass here", "pass [redacted] here"},
		{"URL user:password", "alice:hunter2-long-pass", "alice:[redacted]"},
		{"URL printed whole", "Post http://alice:hunter2-long-pass@example.com/v1", "Post http://alice:***@example.com/v1"},
		{"any URL's password", "see https://bob:pw@other.org/x", "see https://bob:***@other.org/x"},
		{"query secret", "api-key=azure-query-secret-1", "api-key=[redacted]"},
		{"nothing", "plain text", "plain text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.String(tt.in); got != tt.want {
				t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestOverlappingSecrets(t *testing.T) {
	// Two secrets that overlap in the text are masked as one span: no
	// leftover tail of the second leaks.
	r := New("abcdefgh1234", "", "gh12345678zz")
	if got := r.String("<abcdefgh12345678zz>"); got != "<[redacted]>" {
		t.Errorf("got %q", got)
	}
	// One secret inside another.
	r = New("0123456789abcdef", "", "456789ab")
	if got := r.String("x 0123456789abcdef 456789ab y"); got != "x [redacted] [redacted] y" {
		t.Errorf("got %q", got)
	}
}

func TestShortSecretsIgnored(t *testing.T) {
	for _, k := range []string{"", "x", "abc", "none", "ollama1"} {
		r := New(k, "http://u:pw@host/v1")
		in := "none of this, x abc ollama1 u:pw pw is secret"
		if got := r.String(in); got != in {
			t.Errorf("key %q: String changed %q to %q", k, in, got)
		}
		if r.Contains(in) {
			t.Errorf("key %q: Contains(%q) = true", k, in)
		}
	}
}

func TestNilRedactor(t *testing.T) {
	var r *Redactor
	if got := r.String("a " + key); got != "a "+key {
		t.Errorf("nil redactor changed text: %q", got)
	}
	if got := r.String("http://u:secretpw@h/v1"); got != "http://u:***@h/v1" {
		t.Errorf("nil redactor kept a URL password: %q", got)
	}
	if r.Contains(key) {
		t.Error("nil redactor found a secret")
	}
}

func TestContains(t *testing.T) {
	r := New(key, "https://gw.example/v1?token=gateway-token-77")
	for _, s := range []string{key, "x" + key, "sk-live…wxyz", "gateway-token-77", "sk-live-ab...yz"} {
		if !r.Contains(s) {
			t.Errorf("Contains(%q) = false", s)
		}
	}
	for _, s := range []string{"sk-live", "wxyz", "https://gw.example/v1", "a lesson about keys…"} {
		if r.Contains(s) {
			t.Errorf("Contains(%q) = true", s)
		}
	}
}

func TestURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://user:pass@host/v1", "http://user:***@host/v1"},
		{"http://tokenonly@host/v1", "http://***@host/v1"},
		{"https://api.openai.com/v1", "https://api.openai.com/v1"},
		{"https://x.azure.com/v1?api-version=2024&api-key=abc", "https://x.azure.com/v1?api-key=***&api-version=2024"},
		{"http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1"},
	}
	for _, tt := range tests {
		if got := URL(tt.in); got != tt.want {
			t.Errorf("URL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestURLSecretsEncoded(t *testing.T) {
	// A password with reserved characters is percent-encoded in the URL:
	// both spellings are secrets.
	r := New("", "http://bob:p%40ss-w0rd-long@host/v1")
	for _, s := range []string{"p@ss-w0rd-long", "p%40ss-w0rd-long"} {
		if got := r.String("x " + s + " y"); got != "x [redacted] y" {
			t.Errorf("String(%q) = %q", s, got)
		}
	}
}

func TestError(t *testing.T) {
	r := New(key, "")
	base := fmt.Errorf("server said %s: %w", key, fs.ErrNotExist)
	err := r.Error(base)
	if strings.Contains(err.Error(), key) {
		t.Errorf("Error() = %q", err)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Error("errors.Is lost the chain")
	}
	if r.Error(nil) != nil {
		t.Error("Error(nil) != nil")
	}
}

// TestWriterSplit writes a text holding secrets in every possible split of
// two, and in single bytes: the output never holds the secret.
func TestWriterSplit(t *testing.T) {
	r := New(key, "http://alice:hunter2-long-pass@h/v1")
	texts := []string{
		"a " + key + " b\n",
		"masked sk-live…wxyz and url http://alice:hunter2-long-pass@h/v1\n",
		key, // no trailing space: only Flush emits it
		// Spellings longer than the key: each is held back whole.
		"zw " + strings.Join(strings.Split(key, ""), "\u200b") + " end\n",
		`esc ` + strings.Repeat(`\u0041`, 3) + jsonEscapeAll(key) + "\n",
		"basic " + base64.StdEncoding.EncodeToString([]byte("alice:hunter2-long-pass")) + "\n",
		`{"args":"{\"text\":\"` + key + `\"}"}` + "\n",
	}
	for _, text := range texts {
		want := r.String(text)
		for cut := 0; cut <= len(text); cut++ {
			var out bytes.Buffer
			w := r.Writer(&out)
			for _, part := range []string{text[:cut], text[cut:]} {
				n, err := w.Write([]byte(part))
				if err != nil || n != len(part) {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if out.String() != want {
				t.Fatalf("split at %d: got %q, want %q", cut, out.String(), want)
			}
		}
		var out bytes.Buffer
		w := r.Writer(&out)
		for i := range len(text) {
			w.Write([]byte{text[i]})
		}
		w.Close()
		if out.String() != want {
			t.Errorf("byte by byte: got %q, want %q", out.String(), want)
		}
	}
}

func TestWriterPassesLinesAtOnce(t *testing.T) {
	r := New(key, "")
	var out bytes.Buffer
	w := r.Writer(&out)
	fmt.Fprintf(w, "line one\n")
	fmt.Fprintf(w, "apply? [y]es / [n]o: ")
	if got := out.String(); got != "line one\napply? [y]es / [n]o: " {
		t.Errorf("held back a finished line or prompt: %q", got)
	}
	fmt.Fprintf(w, "partial")
	if strings.Contains(out.String(), "partial") {
		t.Errorf("a trailing word was written before the next space")
	}
	w.Flush()
	if !strings.HasSuffix(out.String(), "partial") {
		t.Errorf("Flush lost text: %q", out.String())
	}
}

func TestWriterHoldIsBounded(t *testing.T) {
	r := New(key, "")
	var out bytes.Buffer
	w := r.Writer(&out)
	long := strings.Repeat("x", 10000)
	w.Write([]byte(long))
	if out.Len() < 10000-r.hold() {
		t.Errorf("held back %d bytes of a long word, want at most %d", 10000-out.Len(), r.hold())
	}
}

// A pathological text of many short masks stays linear.
func BenchmarkStringManyMasks(b *testing.B) {
	r := New(key, "")
	line := strings.Repeat("sk-live*z", 1<<14)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		r.String(line)
	}
}

func BenchmarkString(b *testing.B) {
	r := New(key, "http://alice:hunter2-long-pass@h/v1")
	line := strings.Repeat(`{"kind":"tool_call","args":"{\"text\":\"the light reactions... capture energy\"}"} `, 20)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		r.String(line)
	}
}

// FuzzWriter puts the key into arbitrary text, writes it in three pieces,
// and checks that the key never comes out.
func FuzzWriter(f *testing.F) {
	f.Add("before ", " after\n", 3, 17)
	f.Add("", "", 0, 0)
	f.Add("x*", "…", 5, 40)
	f.Fuzz(func(t *testing.T, pre, post string, cut1, cut2 int) {
		r := New(key, "")
		text := pre + key + post
		cut1 = min(max(cut1, 0), len(text))
		cut2 = min(max(cut2, cut1), len(text))
		var out bytes.Buffer
		w := r.Writer(&out)
		for _, part := range []string{text[:cut1], text[cut1:cut2], text[cut2:]} {
			if n, err := w.Write([]byte(part)); err != nil || n != len(part) {
				t.Fatalf("Write = %d, %v", n, err)
			}
		}
		w.Flush()
		if strings.Contains(out.String(), key) {
			t.Fatalf("key leaked: %q", out.String())
		}
		if got := r.String(text); strings.Contains(got, key) {
			t.Fatalf("String leaked the key: %q", got)
		}
	})
}

// BenchmarkString1MB redacts a megabyte of event-log JSON holding no
// secret, the cost every byte written to a file pays: plain, and with an
// escape in every line (which builds the normalized view).
func BenchmarkString1MB(b *testing.B) {
	r := New(key, "http://alice:hunter2-long-pass@h/v1")
	for name, unit := range map[string]string{
		"plain":   `{"kind":"tool_call","args":"{\"text\":\"the light reactions... capture 50% of energy é\"}"} ` + "\n",
		"escapes": `{"kind":"tool_call","args":"{\"text\":\"the light reactions... capture 50% of energy \\u00e9 \u00e9\"}"} ` + "\n",
	} {
		line := strings.Repeat(unit, (1<<20)/len(unit)+1)[:1<<20]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for b.Loop() {
				r.String(line)
			}
		})
	}
}

// TestEncodedForms puts each secret of a run in every spelling a server or
// a model may give it: each is found and masked, and no spelling survives.
func TestEncodedForms(t *testing.T) {
	const pw = "hunter2/long+pass"
	r := New(key, "http://alice:"+url.QueryEscape(pw)+"@example.com/v1")
	basic := base64.StdEncoding.EncodeToString([]byte("alice:" + pw))
	zw := func(s string) string { // a zero-width space after every character
		var b strings.Builder
		for _, c := range s {
			b.WriteRune(c)
			b.WriteString("\u200b")
		}
		return b.String()
	}
	each := func(s, format string) string {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			fmt.Fprintf(&b, format, s[i])
		}
		return b.String()
	}
	for _, sec := range []string{key, pw, "alice:" + pw} {
		forms := map[string]string{
			"raw":                    sec,
			"zero-width inside":      sec[:5] + "\u200b" + sec[5:],
			"zero-width after each":  zw(sec),
			"soft hyphen and bidi":   sec[:3] + "\u00ad" + sec[3:9] + "\u202e" + sec[9:],
			"word joiner, BOM":       sec[:4] + "\u2060" + sec[4:7] + "\ufeff" + sec[7:],
			"hex":                    hex.EncodeToString([]byte(sec)),
			"HEX":                    strings.ToUpper(hex.EncodeToString([]byte(sec))),
			"base64":                 base64.StdEncoding.EncodeToString([]byte(sec)),
			"base64 raw url":         base64.RawURLEncoding.EncodeToString([]byte(sec)),
			"query-escaped":          url.QueryEscape(sec),
			"percent every byte":     each(sec, "%%%02X"),
			"json \\u every byte":    each(sec, `\u%04x`),
			"json \\u200b inside":    sec[:6] + `\u200b` + sec[6:],
			"double-escaped \\u200b": sec[:6] + `\\u200b` + sec[6:],
			"html entities":          each(sec, "&#x%x;"),
			"html zero-width":        sec[:6] + "&#8203;" + sec[6:],
		}
		// Inside a longer base64 text, at each of the three alignments.
		for k := range 3 {
			pre := strings.Repeat("P", k)
			forms[fmt.Sprintf("base64 embedded at %d", k)] = base64.StdEncoding.EncodeToString([]byte(pre + sec + "tail bytes"))
			forms[fmt.Sprintf("base64url embedded at %d", k)] = base64.RawURLEncoding.EncodeToString([]byte("x" + pre + sec + "?>?"))
		}
		for name, f := range forms {
			text := `{"text":"before ` + f + ` after"}`
			if !r.Contains(text) {
				t.Errorf("%q %s: Contains = false for %q", sec, name, text)
				continue
			}
			got := r.String(text)
			if !strings.Contains(got, Mask) || !strings.HasPrefix(got, `{"text":"before `) || !strings.HasSuffix(got, ` after"}`) {
				t.Errorf("%q %s: String(%q) = %q", sec, name, text, got)
			}
			if strings.Contains(got, f) || strings.Contains(got, sec) {
				t.Errorf("%q %s: the secret survived: %q", sec, name, got)
			}
		}
	}
	if got := r.String("Authorization: Basic " + basic); got != "Authorization: Basic "+Mask {
		t.Errorf("Basic header: %q", got)
	}
}

// TestNormalizeKeepsText: text with escapes and format characters but no
// secret comes out unchanged, and the masked range of an escaped secret
// ends where its escape ends.
func TestNormalizeKeepsText(t *testing.T) {
	r := New(key, "")
	for _, s := range []string{
		`caf\u00e9 50% &#x41; &amp; \\ \u200b \x`, "zero\u200bwidth \u202eright", "%zz %4", "&#;&#x;&#12345678901;",
		`\u00`, "unterminated &#x41",
	} {
		if got := r.String(s); got != s {
			t.Errorf("String(%q) = %q", s, got)
		}
	}
	esc := ""
	for _, c := range key {
		esc += fmt.Sprintf(`\u%04x`, c)
	}
	if got := r.String("<" + esc + ">"); got != "<"+Mask+">" {
		t.Errorf("escaped key: %q", got)
	}
}

func jsonEscapeAll(s string) string {
	var b strings.Builder
	for _, c := range s {
		fmt.Fprintf(&b, `\u%04x`, c)
	}
	return b.String()
}

// A long word holding a secret is cut where the Writer must emit part of
// it: the cut never splits the secret, wherever it falls.
func TestWriterCutNeverSplitsASecret(t *testing.T) {
	r := New(key, "")
	for tail := r.hold() - len(key) - 2; tail <= r.hold()+2; tail++ {
		text := "x " + key + strings.Repeat("y", tail)
		var out bytes.Buffer
		w := r.Writer(&out)
		w.Write([]byte(text))
		w.Flush()
		if strings.Contains(out.String(), "live-abc") || strings.Contains(out.String(), "789wxyz") {
			t.Fatalf("tail %d: the key leaked in part: %q", tail, out.String()[:80])
		}
	}
}

// A long key spelled in \u escapes (six bytes a character) arrives in
// small writes inside a long word: the Writer holds back enough to mask
// it whole.
func TestWriterHoldsLongEscapedSecret(t *testing.T) {
	long := "sk-proj-" + strings.Repeat("AbCdEfGhIj", 20)
	r := New(long, "")
	text := strings.Repeat("x", 3000) + jsonEscapeAll(long) + " end\n"
	var out bytes.Buffer
	w := r.Writer(&out)
	for i := 0; i < len(text); i += 100 {
		w.Write([]byte(text[i:min(i+100, len(text))]))
	}
	w.Flush()
	if strings.Contains(out.String(), jsonEscapeAll("AbCdEfGhIj")) {
		t.Errorf("part of the escaped key leaked")
	}
	if !strings.HasSuffix(out.String(), Mask+" end\n") {
		t.Errorf("got …%q", out.String()[len(out.String())-40:])
	}
}
