// Package redact keeps secrets in the process: the API key, credentials
// and secret-looking query parameters of the base URL, and the masked forms
// of the key that servers print ("sk-ab…yz", "sk-abc****wxyz"). One
// Redactor, built from the settings of a run, filters every byte that goes
// to a person or a file: stdout, stderr, events, error messages.
package redact

import (
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
	secrets []string // longest first
	key     string   // the API key, for its masked forms; "" if too short
	maxLen  int
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
	for _, s := range cands {
		r.add(s)
		// The same secret as it appears inside a JSON string.
		if b, err := json.Marshal(s); err == nil {
			r.add(string(b[1 : len(b)-1]))
		}
		if esc := url.QueryEscape(s); esc != s {
			r.add(esc)
		}
	}
	slices.SortFunc(r.secrets, func(a, b string) int { return len(b) - len(a) })
	return r
}

func (r *Redactor) add(s string) {
	if len(s) < MinLen || slices.Contains(r.secrets, s) {
		return
	}
	r.secrets = append(r.secrets, s)
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

// find returns the merged, sorted ranges of secrets in s.
func (r *Redactor) find(s string) []span {
	if r == nil {
		return nil
	}
	var spans []span
	for _, sec := range r.secrets {
		for i := 0; ; {
			j := strings.Index(s[i:], sec)
			if j < 0 {
				break
			}
			spans = append(spans, span{i + j, i + j + len(sec)})
			i += j + 1
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
// masked form of the key padded with asterisks, split across writes.
func (r *Redactor) hold() int {
	if r == nil {
		return 256
	}
	return 2*r.maxLen + 256
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
// partial secret at the end. It reports len(p) on success.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	out := w.r.String(string(w.buf))
	keep := len(out) - (strings.LastIndexAny(out, " \t\r\n\f\v") + 1)
	keep = min(keep, w.r.hold())
	if _, err := io.WriteString(w.w, out[:len(out)-keep]); err != nil {
		w.buf = w.buf[:0]
		return 0, err
	}
	w.buf = append(w.buf[:0], out[len(out)-keep:]...)
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
