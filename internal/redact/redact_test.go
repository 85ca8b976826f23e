package redact

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
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
