package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/lessongen/lessongen/internal/regfile"
)

// maxLine bounds one line of a recording (a request with its whole
// conversation, and its answer).
const maxLine = 64 << 20

// Replayer is an http.RoundTripper that answers from a recording and never
// opens a connection. A request the recording does not hold gets a 400
// answer, which the client does not retry, and Err reports the first such
// miss with how the request differs from the nearest recorded one.
type Replayer struct {
	path    string
	entries []*entry
	byKey   map[string][]*entry
	onMiss  func(error)

	mu     sync.Mutex
	served map[string]int
	miss   error
}

// Load reads the recording at path. onMiss, when set, is called on the
// first miss (a run stops then: every later answer would be a guess).
func Load(path string, onMiss func(error)) (*Replayer, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p := &Replayer{path: path, byKey: map[string][]*entry{}, served: map[string]int{}, onMiss: onMiss}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, maxLine)
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if line == 1 {
			var h header
			if err := json.Unmarshal(text, &h); err != nil || h.Format != Format {
				return nil, fmt.Errorf("%s:1: not a lessongen recording of format %d (its first line must be {\"format\":%d,...})", path, Format, Format)
			}
			continue
		}
		if len(text) == 0 {
			continue
		}
		e := new(entry)
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(e); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		canon, err := Canonical(e.Request)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: request: %w", path, line, err)
		}
		// The key is recomputed, so a hand-edited request is found by
		// what it now says.
		e.Request, e.Key = canon, Key(canon)
		if e.Status == 0 {
			e.Status = http.StatusOK
		}
		p.entries = append(p.entries, e)
		p.byKey[e.Key] = append(p.byKey[e.Key], e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", path, line+1, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("%s: empty file, not a recording", path)
	}
	return p, nil
}

// Len is the number of recorded answers.
func (p *Replayer) Len() int { return len(p.entries) }

// Err is the first miss, or nil.
func (p *Replayer) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.miss
}

// MissError is a request the recording holds no answer for.
type MissError struct {
	Path string
	Key  string
	// Diff says how the request differs from the nearest recorded one.
	Diff string
}

func (e *MissError) Error() string {
	return fmt.Sprintf("replay: %s holds no answer for a request (%s)\n%s\nfix: record the run again (--record), or run without --replay", e.Path, e.Key[:len("sha256:")+12], e.Diff)
}

// RoundTrip implements http.RoundTripper.
func (p *Replayer) RoundTrip(req *http.Request) (*http.Response, error) {
	body, _, err := readBody(req)
	if err != nil {
		return nil, err
	}
	canon, err := Canonical(body)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	key := Key(canon)
	p.mu.Lock()
	n := p.served[key]
	var e *entry
	if recs := p.byKey[key]; n < len(recs) {
		e = recs[n]
		p.served[key] = n + 1
	}
	p.mu.Unlock()
	if e != nil {
		return respond(req, e.Status, e.ContentType, e.body()), nil
	}

	miss := &MissError{Path: p.path, Key: key}
	if n > 0 {
		miss.Diff = fmt.Sprintf("the recording answers this exact request %d time(s); the run asked it once more", n)
	} else {
		miss.Diff = nearest(canon, p.entries)
	}
	p.mu.Lock()
	first := p.miss == nil
	if first {
		p.miss = miss
	}
	p.mu.Unlock()
	if first && p.onMiss != nil {
		p.onMiss(miss)
	}
	msg, _ := json.Marshal(map[string]any{"error": map[string]string{"message": miss.Error(), "type": "invalid_request_error"}})
	return respond(req, http.StatusBadRequest, "application/json", msg), nil
}

func respond(req *http.Request, status int, ctype string, body []byte) *http.Response {
	h := http.Header{}
	if ctype != "" {
		h.Set("Content-Type", ctype)
	}
	return &http.Response{
		Status:        strconv.Itoa(status) + " " + http.StatusText(status),
		StatusCode:    status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}
}
