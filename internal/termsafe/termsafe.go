// Package termsafe renders untrusted text (a lesson's values, what a model
// wrote, a server's error message) so that printing it cannot drive the
// terminal: control characters, escape sequences and bidirectional
// overrides are shown as visible escapes instead of being obeyed.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// String returns s with every unsafe character escaped: C0 controls except
// newline and tab (\x1b, \x07, \x00, \r…), DEL, C1 controls (\u009b),
// bidirectional embeddings, overrides and isolates (\u202e, \u2066…) and
// bytes that are not UTF-8 (\xff). Everything else is kept as it is.
func String(s string) string { return escape(s, false) }

// Line is String with newlines and tabs escaped too, for text that must
// stay on one line.
func Line(s string) string { return escape(s, true) }

// JSON makes JSON text safe to print: encoding/json escapes C0 controls
// but leaves DEL, C1 controls and bidi overrides raw. Those can only occur
// inside strings, so they are written as \uXXXX escapes there, which
// decode to the same value. data must be valid UTF-8 JSON.
func JSON(data []byte) []byte {
	s := string(data)
	if safe(s, false) {
		return data
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range s {
		// \r is JSON whitespace; json.Marshal never leaves one raw anyway.
		if unsafe(r, false) && r != '\r' {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return []byte(b.String())
}

func escape(s string, oneLine bool) string {
	if safe(s, oneLine) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafe(r, oneLine) && r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafe(r, oneLine):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func safe(s string, oneLine bool) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			goto slow
		}
	}
	return true
slow:
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unsafe(r, oneLine) {
			return false
		}
		i += size
	}
	return true
}

// unsafe reports whether printing r could change what a terminal shows
// beyond the character itself.
func unsafe(r rune, oneLine bool) bool {
	switch {
	case r == '\n' || r == '\t':
		return oneLine
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
