package redact

import (
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// normalize returns s as a secret would be read in it: escapes decoded
// (JSON \uXXXX, also double-escaped \\uXXXX; percent-encoding %XX; HTML
// &#xHH; and &#DD;) and format characters dropped (Unicode category Cf:
// zero-width spaces and joiners, bidi marks, soft hyphens…), so a key with
// a zero-width space inside, or spelled in escapes, is still the key. The
// edits map a range of the view back to s; nil edits mean the view is s
// itself (the common case, which costs one scan and no allocation).
func normalize(s string) (string, edits) {
	if len(s) > math.MaxInt32 {
		return s, nil // edits hold int32 offsets; nothing read is this big
	}
	var b strings.Builder
	var ed edits
	last := 0 // s[last:i] is not yet copied to b
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf && !trigger[c] {
			i++
			continue
		}
		r, n := decodeAt(s, i)
		if n == 0 {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			continue
		}
		if ed == nil {
			b.Grow(len(s))
		}
		b.WriteString(s[last:i])
		v := b.Len()
		if !unicode.Is(unicode.Cf, r) {
			b.WriteRune(r)
		}
		ed = append(ed, edit{int32(v), int32(b.Len()), int32(i), int32(i + n)})
		i += n
		last = i
	}
	if ed == nil {
		return s, nil
	}
	b.WriteString(s[last:])
	return b.String(), ed
}

// trigger marks the ASCII bytes that may start an escape.
var trigger = [utf8.RuneSelf]bool{'\\': true, '%': true, '&': true}

// decodeAt decodes the escape or format character at s[i], returning the
// character and the bytes it takes in s, or n = 0 if there is none.
func decodeAt(s string, i int) (r rune, n int) {
	switch s[i] {
	case '\\':
		j := i
		for j < len(s) && s[j] == '\\' {
			j++
		}
		if j+5 <= len(s) && s[j] == 'u' {
			if v, ok := hexValue(s[j+1 : j+5]); ok {
				return rune(v), j + 5 - i
			}
		}
	case '%':
		if i+3 <= len(s) {
			if v, ok := hexValue(s[i+1 : i+3]); ok {
				return rune(v), 3
			}
		}
	case '&':
		// &#x200b; or &#8203;, at most 8 digits.
		if i+3 < len(s) && s[i+1] == '#' {
			j, base := i+2, 10
			if s[j] == 'x' || s[j] == 'X' {
				j, base = j+1, 16
			}
			end := strings.IndexByte(s[j:min(len(s), j+9)], ';')
			if end > 0 {
				if v, ok := parseUint(s[j:j+end], base); ok && v <= unicode.MaxRune {
					return rune(v), j + end + 1 - i
				}
			}
		}
	default:
		if r, size := utf8.DecodeRuneInString(s[i:]); unicode.Is(unicode.Cf, r) {
			return r, size
		}
	}
	return 0, 0
}

func hexValue(h string) (int, bool) { return parseUint(h, 16) }

func parseUint(d string, base int) (int, bool) {
	v := 0
	for i := 0; i < len(d); i++ {
		var x int
		switch c := d[i]; {
		case '0' <= c && c <= '9':
			x = int(c - '0')
		case base == 16 && 'a' <= c && c <= 'f':
			x = int(c-'a') + 10
		case base == 16 && 'A' <= c && c <= 'F':
			x = int(c-'A') + 10
		default:
			return 0, false
		}
		v = v*base + x
	}
	return v, len(d) > 0
}

// edit is one decoded or dropped character: view[vStart:vEnd] stands for
// s[oStart:oEnd].
type edit struct{ vStart, vEnd, oStart, oEnd int32 }

type edits []edit

// at returns the last edit whose view range starts before v (or at v, with
// orEqual), or -1.
func (ed edits) at(v int, orEqual bool) int {
	i, _ := slices.BinarySearchFunc(ed, int32(v), func(e edit, v int32) int {
		if e.vStart < v || orEqual && e.vStart == v {
			return -1
		}
		return 1
	})
	return i - 1
}

// origStart maps the start of a view range to s: an escape the range
// starts inside is taken whole.
func (ed edits) origStart(v int) int {
	k := ed.at(v, true)
	if k < 0 {
		return v
	}
	if e := ed[k]; v < int(e.vEnd) {
		return int(e.oStart)
	} else {
		return int(e.oEnd) + v - int(e.vEnd)
	}
}

// origEnd maps the end of a view range to s, taking whole the escape it
// ends inside.
func (ed edits) origEnd(v int) int {
	k := ed.at(v, false)
	if k < 0 {
		return v
	}
	if e := ed[k]; v <= int(e.vEnd) {
		return int(e.oEnd)
	} else {
		return int(e.oEnd) + v - int(e.vEnd)
	}
}
