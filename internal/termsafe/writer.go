package termsafe

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// Writer makes everything written through it safe to print, as String
// does. cmd puts one on stderr (and on stdout when it is a terminal), so
// no message, wherever it is printed from, can drive the terminal. A
// UTF-8 character split across writes is held back until it is whole.
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	pending []byte
}

// NewWriter wraps w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write escapes p and writes it, keeping back an unfinished character at
// its end. It reports len(p) on success.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	data := p
	if len(w.pending) > 0 {
		data = append(w.pending, p...)
	}
	cut := len(data) - partial(data)
	if _, err := io.WriteString(w.w, String(string(data[:cut]))); err != nil {
		w.pending = w.pending[:0]
		return 0, err
	}
	w.pending = append(w.pending[:0], data[cut:]...)
	return len(p), nil
}

// Flush writes what was held back (an unfinished character, escaped).
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.pending) == 0 {
		return nil
	}
	_, err := io.WriteString(w.w, String(string(w.pending)))
	w.pending = w.pending[:0]
	return err
}

// partial is the length of an unfinished UTF-8 character at the end of b.
func partial(b []byte) int {
	for n := 1; n <= utf8.UTFMax-1 && n <= len(b); n++ {
		c := b[len(b)-n]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(b[len(b)-n:]) {
				return 0
			}
			return n
		}
	}
	return 0
}

// Markup makes rendered HTML or Markdown safe to print and to open: every
// character String would escape (controls, bidi overrides) becomes a
// numeric character reference (&#x1b;), which a browser or a Markdown
// renderer shows as the same character, and a terminal as plain text.
// Bytes that are not UTF-8 become U+FFFD.
func Markup(s string) string {
	if safe(s, false) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString("&#xfffd;")
		case unsafe(r, false):
			fmt.Fprintf(&b, "&#x%x;", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
