// Package redact keeps secrets in the process: the API key, credentials
// and secret-looking query parameters of the base URL, and the masked forms
// of the key that servers print ("sk-ab…yz", "sk-abc****wxyz"). One
// Redactor, built from the settings of a run, filters every byte that goes
// to a person or a file: stdout, stderr, events, error messages.
package redact

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Mask replaces a secret in text.
const Mask = "[redacted]"

// MinLen is the shortest secret searched for in free text. Shorter values
// ("x", "none", "ollama" for a local server) would match ordinary words and
// protect nothing; URLs are still shown without their credentials.
const MinLen = 8

// minMaskedPrefix and minMaskedSuffix are how much of the key a masked form
// must reveal at each end to be recognised as one, and minMaskedReveal in
// all: "sk-…yz" gives nothing away and would match too much ordinary text.
const (
	minMaskedPrefix = 3
	minMaskedSuffix = 2
	minMaskedReveal = 6
)

// Redactor finds and masks secrets. The zero value and a nil *Redactor
// know no secrets but still hide passwords in URLs.
type Redactor struct {
	secrets []string // every form of every secret, longest first
	b64     []bool   // secrets[i] is a base64 core
	// first has a bit set for the first two bytes of each secret, and
	// byPrefix lists the secrets by their first four: one pass over the
	// text finds them all, where a strings.Index per form (there are some
	// forty) would read a megabyte of events forty times.
	first    *[1 << 16 / 64]uint64
	byPrefix map[uint32][]int
	key      string // the API key, for its masked forms; "" if too short
	maxLen   int    // the longest form
	rawLen   int    // the longest secret as given
}

// New builds a Redactor for a run's API key and base URL; more adds other
// secrets. Values shorter than MinLen are ignored.
func New(apiKey, baseURL string, more ...string) *Redactor {
	r := &Redactor{}
	if len(apiKey) >= MinLen {
		r.key = apiKey
	}
	cands := append([]string{apiKey}, more...)
	cands = append(cands, urlSecrets(baseURL)...)
	if u, err := url.Parse(strings.TrimSpace(baseURL)); err == nil && u.User != nil {
		// Go sends "user:password" in base64 as HTTP Basic credentials
		// when no key is set. The pair as written holds the password,
		// which is masked alone so the user name stays readable; only its
		// encodings are added.
		if pw, ok := u.User.Password(); ok {
			pair := u.User.Username() + ":" + pw
			r.add(hex.EncodeToString([]byte(pair)), false)
			r.add(strings.ToUpper(hex.EncodeToString([]byte(pair))), false)
			for _, f := range base64Cores(pair) {
				r.add(f, true)
			}
		}
	}
	for _, s := range cands {
		if len(s) < MinLen {
			continue
		}
		r.rawLen = max(r.rawLen, len(s))
		for _, f := range forms(s) {
			r.add(f, false)
		}
		for _, f := range base64Cores(s) {
			r.add(f, true)
		}
	}
	// Longest first, each with its flag.
	idx := make([]int, len(r.secrets))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return len(r.secrets[b]) - len(r.secrets[a]) })
	secrets, b64 := make([]string, len(idx)), make([]bool, len(idx))
	for i, j := range idx {
		secrets[i], b64[i] = r.secrets[j], r.b64[j]
	}
	r.secrets, r.b64 = secrets, b64
	r.index()
	return r
}

// forms lists the spellings of secret s that a server, a model or a file
// may hold: as it is, inside a JSON string, percent-encoded, in hex and in
// base64. Escapes spelled character by character (\u0073\u006b…, %73%6b…)
// and zero-width characters slipped in are undone by normalize instead.
func forms(s string) []string {
	out := []string{s}
	if b, err := json.Marshal(s); err == nil {
		out = append(out, string(b[1:len(b)-1]))
	}
	out = append(out, url.QueryEscape(s), url.PathEscape(s),
		hex.EncodeToString([]byte(s)), strings.ToUpper(hex.EncodeToString([]byte(s))))
	return out
}

// base64Cores returns, for each of the three byte alignments at which s
// can sit inside a longer base64 text (as "user:password" does in a Basic
// Authorization header), the base64 characters that s alone decides, in
// the standard and the URL alphabet. Padding is left off, so padded and
// unpadded texts both hold them.
func base64Cores(s string) []string {
	var out []string
	for k := range 3 {
		buf := make([]byte, k+len(s)+2)
		copy(buf[k:], s)
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
			text := enc.EncodeToString(buf)
			// Character i holds bits [6i, 6i+6); s holds [8k, 8(k+len)).
			first := (8*k + 5) / 6
			last := 8*(k+len(s))/6 - 1
			if last >= first {
				out = append(out, text[first:last+1])
			}
		}
	}
	return out
}

func (r *Redactor) add(s string, b64 bool) {
	if len(s) < MinLen || slices.Contains(r.secrets, s) {
		return
	}
	r.secrets = append(r.secrets, s)
	r.b64 = append(r.b64, b64)
	r.maxLen = max(r.maxLen, len(s))
}

// secretParam matches query parameter names whose values are credentials
// (Azure's api-key, SAS signatures, access tokens, …).
var secretParam = regexp.MustCompile(`(?i)key|token|secret|passw|pwd|sig|auth|credential|session`)

// urlSecrets lists the credentials in a URL: the password (or a lone user
// name, which is then the token), "user:password", and the values of
// secret-looking query parameters, raw and decoded.
func urlSecrets(raw string) []string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil
	}
	var out []string
	if u.User != nil {
		// The user name is shown (http://user:***@host), unless it is all
		// there is, which makes it the token.
		if pw, ok := u.User.Password(); ok {
			// Go sends "user:password" in base64 as HTTP Basic
			// credentials when no key is set.
			_, encoded, _ := strings.Cut(u.User.String(), ":")
			out = append(out, pw, encoded)
		} else {
			out = append(out, u.User.Username(), u.User.String())
		}
	}
	for name, values := range u.Query() {
		if secretParam.MatchString(name) {
			out = append(out, values...)
		}
	}
	for _, part := range strings.Split(u.RawQuery, "&") {
		if name, value, ok := strings.Cut(part, "="); ok && secretParam.MatchString(name) {
			out = append(out, value)
		}
	}
	return out
}

// urlCreds matches the credentials part of any URL in text.
var urlCreds = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.\-]*://)([^/\s:@"'<>]*):([^/\s@"'<>]+)@`)

// URL returns raw with its password replaced by *** and the values of
// secret-looking query parameters masked: http://user:***@host/v1. It is
// what any message shows of a base URL.
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return New("", raw).String(raw)
	}
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "***")
		} else {
			u.User = url.User("***")
		}
	}
	if u.RawQuery != "" {
		q := u.Query()
		for name := range q {
			if secretParam.MatchString(name) {
				q[name] = []string{"***"}
			}
		}
		u.RawQuery = q.Encode()
	}
	return strings.Replace(u.String(), "%2A%2A%2A", "***", -1)
}

// span is a byte range [start, end) of text to mask.
type span struct{ start, end int }

// find returns the merged, sorted ranges of secrets in s: as written, and
// as they read once normalized (escapes decoded, format characters gone).
func (r *Redactor) find(s string) []span {
	if r == nil {
		return nil
	}
	spans := r.search(s, nil)
	if view, edits := normalize(s); edits != nil {
		for _, sp := range r.search(view, nil) {
			spans = append(spans, span{edits.origStart(sp.start), edits.origEnd(sp.end)})
		}
	}
	if r.key != "" {
		spans = r.maskedForms(s, spans)
	}
	if len(spans) == 0 {
		return nil
	}
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	merged := spans[:1]
	for _, sp := range spans[1:] {
		last := &merged[len(merged)-1]
		if sp.start <= last.end {
			last.end = max(last.end, sp.end)
			continue
		}
		merged = append(merged, sp)
	}
	return merged
}

// index builds first and byPrefix.
func (r *Redactor) index() {
	r.first = new([1 << 16 / 64]uint64)
	r.byPrefix = map[uint32][]int{}
	for n, sec := range r.secrets {
		p := uint32(sec[0])<<8 | uint32(sec[1])
		r.first[p/64] |= 1 << (p % 64)
		k := prefix4(sec)
		r.byPrefix[k] = append(r.byPrefix[k], n) // longest first, as secrets
	}
}

func prefix4(s string) uint32 {
	return uint32(s[0])<<24 | uint32(s[1])<<16 | uint32(s[2])<<8 | uint32(s[3])
}

// search appends the ranges of every secret form in s. A base64 core is
// widened by the character on each side, which holds a few bits of the
// secret too, and the padding after it.
func (r *Redactor) search(s string, spans []span) []span {
	if r.first == nil {
		return spans
	}
	for i := 0; i+MinLen <= len(s); i++ {
		p := uint32(s[i])<<8 | uint32(s[i+1])
		if r.first[p/64]&(1<<(p%64)) == 0 {
			continue
		}
		for _, n := range r.byPrefix[prefix4(s[i:])] {
			sec := r.secrets[n]
			if !strings.HasPrefix(s[i:], sec) {
				continue
			}
			sp := span{i, i + len(sec)}
			if r.b64[n] {
				if sp.start > 0 && isBase64Char(s[sp.start-1]) {
					sp.start--
				}
				if sp.end < len(s) && isBase64Char(s[sp.end]) {
					sp.end++
				}
				for sp.end < len(s) && s[sp.end] == '=' {
					sp.end++
				}
			}
			spans = append(spans, sp)
			break // the longest here; shorter ones lie inside it
		}
	}
	return spans
}

func isBase64Char(c byte) bool {
	return isKeyChar(c) || c == '+' || c == '/'
}

// maskedForms appends the masked forms of the key in s: a run of key
// characters ending in a prefix of the key, a mask (an ellipsis, three
// dots, asterisks), and a run starting with a suffix of the key. It scans
// once, with no regular expression: events can be megabytes.
func (r *Redactor) maskedForms(s string, spans []span) []span {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '*' && c != '.' && c != ellipsis[0] {
			continue
		}
		end := maskEnd(s, i)
		if end == i {
			continue
		}
		left := i
		for left > 0 && isKeyChar(s[left-1]) && i-left < len(r.key) {
			left--
		}
		right := end
		for right < len(s) && isKeyChar(s[right]) && right-end < len(r.key) {
			right++
		}
		if sp, ok := r.masked(s[left:i], s[end:right], left, end); ok {
			spans = append(spans, sp)
		}
		i = end - 1
	}
	return spans
}

const ellipsis = "…"

// maskEnd returns the end of the mask starting at i — a run of asterisks,
// dots and ellipses holding an asterisk, an ellipsis or three dots — or i.
func maskEnd(s string, i int) int {
	j, stars, dots, ells := i, 0, 0, 0
	for j < len(s) {
		switch {
		case s[j] == '*':
			stars++
			j++
		case s[j] == '.':
			dots++
			j++
		case strings.HasPrefix(s[j:], ellipsis):
			ells++
			j += len(ellipsis)
		default:
			goto done
		}
	}
done:
	if stars == 0 && ells == 0 && dots < 3 {
		return i
	}
	return j
}

func isKeyChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_'
}

// masked checks one candidate: the end of head must be a prefix of the key
// and the start of tail a suffix of it, revealing enough to be the key's.
func (r *Redactor) masked(head, tail string, headAt, tailAt int) (span, bool) {
	start := -1
	for i := 0; i+minMaskedPrefix <= len(head); i++ {
		if p := head[i:]; p[0] == r.key[0] && len(p) < len(r.key) && strings.HasPrefix(r.key, p) {
			start = i
			break
		}
	}
	if start < 0 {
		return span{}, false
	}
	for j := len(tail); j >= minMaskedSuffix; j-- {
		if tail[j-1] == r.key[len(r.key)-1] && j < len(r.key) && len(head)-start+j >= minMaskedReveal && strings.HasSuffix(r.key, tail[:j]) {
			return span{headAt + start, tailAt + j}, true
		}
	}
	return span{}, false
}

// Contains reports whether s holds a secret or a masked form of the key.
func (r *Redactor) Contains(s string) bool { return len(r.find(s)) > 0 }

// String returns s with every secret replaced by Mask and the password of
// every URL by ***.
func (r *Redactor) String(s string) string {
	if spans := r.find(s); len(spans) > 0 {
		var b strings.Builder
		prev := 0
		for _, sp := range spans {
			b.WriteString(s[prev:sp.start])
			b.WriteString(Mask)
			prev = sp.end
		}
		b.WriteString(s[prev:])
		s = b.String()
	}
	// Then any URL's password, short ones too: http://user:[redacted]@host
	// and http://user:pw@host both become http://user:***@host.
	if strings.Contains(s, "://") {
		s = urlCreds.ReplaceAllStringFunc(s, func(m string) string {
			sub := urlCreds.FindStringSubmatch(m)
			return sub[1] + sub[2] + ":***@"
		})
	}
	return s
}

// Error wraps err so that its message is redacted; errors.Is and errors.As
// still see the original chain.
func (r *Redactor) Error(err error) error {
	if err == nil {
		return nil
	}
	return &redactedError{err: err, msg: r.String(err.Error())}
}

type redactedError struct {
	err error
	msg string
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// hold is how many trailing bytes a Writer may keep back: a secret, or a
// masked form of the key padded with asterisks, split across writes. A
// secret spelled in \\uXXXX escapes, or with a zero-width character after
// each of its characters, is up to seven times its length.
func (r *Redactor) hold() int {
	if r == nil {
		return 256
	}
	return max(2*r.maxLen, 7*r.rawLen) + 256
}

// Writer redacts what is written through it. A secret may arrive split
// across writes, so the trailing run of non-space bytes (where a secret
// could begin; secrets hold no spaces) is kept back until more arrives or
// Flush is called. Lines and prompts that end in a space or a newline pass
// through at once. It is safe for concurrent use.
type Writer struct {
	mu  sync.Mutex
	r   *Redactor
	w   io.Writer
	buf []byte
}

// Writer wraps w.
func (r *Redactor) Writer(w io.Writer) *Writer { return &Writer{r: r, w: w} }

// Write redacts p (with what was held back) and writes all but a possible
// partial secret at the end. It reports len(p) on success. What is held
// back is kept as it came, so a secret completed by the next write (a
// base64 text and its padding) is masked whole.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	s := string(w.buf)
	keep := len(s) - (strings.LastIndexAny(s, " \t\r\n\f\v") + 1)
	cut := len(s) - min(keep, w.r.hold())
	// A secret found across the cut is held back whole.
	for _, sp := range w.r.find(s) {
		if sp.start < cut && sp.end > cut {
			cut = sp.start
		}
	}
	if _, err := io.WriteString(w.w, w.r.String(s[:cut])); err != nil {
		w.buf = w.buf[:0]
		return 0, err
	}
	w.buf = append(w.buf[:0], s[cut:]...)
	return len(p), nil
}

// Flush writes whatever was held back.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf) == 0 {
		return nil
	}
	_, err := io.WriteString(w.w, w.r.String(string(w.buf)))
	w.buf = w.buf[:0]
	return err
}

// Close flushes; it does not close the underlying writer.
func (w *Writer) Close() error { return w.Flush() }
