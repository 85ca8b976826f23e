// Package clip shortens long text on its way to a model, with a visible
// marker, so a huge value that a model or an author wrote (a 50 MB speaker
// note) is never sent whole. It is the one place that decides how long is
// too long and how a cut reads.
package clip

import (
	"fmt"
	"unicode/utf8"
)

// MaxValue is the most bytes of one value (a title, a note, a hint, a text
// element) shown to a model. Real values are a few hundred bytes; a few
// thousand is a long speaker note. Past that, the start tells the model what
// the value is about.
const MaxValue = 4 << 10

// Text clips s to MaxValue.
func Text(s string) string { return String(s, MaxValue) }

// String returns s if it has at most limit bytes, else its first bytes (cut
// at a character boundary) and a marker with the full size:
// "… [truncated, 50 MB]". The result is at most limit bytes plus the marker.
func String(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "… [truncated, " + Size(len(s)) + "]"
}

// Size says n bytes for people: "812 B", "4.0 KB", "3.1 MB".
func Size(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 999_950: // not "1000.0 KB"
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1000*1000))
}
