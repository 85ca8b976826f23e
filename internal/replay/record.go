package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
)

// Recorder appends each answered request to a recording, through the
// transports Wrap makes. It stores request bodies and answers only: no
// header, so never the Authorization header. Every line also goes through
// a redactor first.
type Recorder struct {
	redact func(string) string

	mu  sync.Mutex
	w   io.Writer
	err error // the first write error
}

// NewRecorder writes a recording to w: a header line with note now, then
// one line per answer. redact, when set, is applied to every line.
func NewRecorder(w io.Writer, note string, redact func(string) string) (*Recorder, error) {
	if redact == nil {
		redact = func(s string) string { return s }
	}
	r := &Recorder{redact: redact, w: w}
	h, err := json.Marshal(header{Format: Format, Note: note})
	if err != nil {
		return nil, err
	}
	r.writeLine(h)
	return r, r.err
}

// Err is the first error writing the recording, if any.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// Wrap returns a transport that sends requests through base and records
// them.
func (r *Recorder) Wrap(base http.RoundTripper) http.RoundTripper {
	return &recording{r: r, base: base}
}

type recording struct {
	r    *Recorder
	base http.RoundTripper
}

// RoundTrip implements http.RoundTripper. The answer is recorded when its
// body has been read to the end; an answer cut off midway is not recorded
// (the client retries it, and the retry is).
func (t *recording) RoundTrip(req *http.Request) (*http.Response, error) {
	body, req, err := readBody(req)
	if err != nil {
		return nil, err
	}
	canon, cerr := Canonical(body)
	res, err := t.base.RoundTrip(req)
	if err != nil || cerr != nil {
		return res, err // not a request we can key: passed through unrecorded
	}
	res.Body = &teeBody{rc: res.Body, done: func(answer []byte) {
		t.r.record(canon, res.StatusCode, res.Header.Get("Content-Type"), answer)
	}}
	return res, nil
}

func (r *Recorder) record(canon []byte, status int, ctype string, answer []byte) {
	e := entry{Key: Key(canon), Request: canon, Status: status, ContentType: ctype}
	var compact bytes.Buffer
	if json.Valid(answer) && json.Compact(&compact, answer) == nil {
		e.Response = compact.Bytes()
	} else {
		s := string(answer)
		e.ResponseText = &s
	}
	line, err := json.Marshal(e)
	if err != nil {
		r.fail(fmt.Errorf("record: %w", err))
		return
	}
	r.writeLine(line)
}

func (r *Recorder) writeLine(line []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return
	}
	if _, err := io.WriteString(r.w, r.redact(string(line))+"\n"); err != nil {
		r.err = fmt.Errorf("record: %w", err)
	}
}

func (r *Recorder) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = err
	}
}

// readBody reads a request's body and returns a copy of the request whose
// body can be read again (a RoundTripper must not consume its argument's).
func readBody(req *http.Request) ([]byte, *http.Request, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, req, nil
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, nil, err
	}
	clone := req.Clone(req.Context())
	clone.Body = io.NopCloser(bytes.NewReader(body))
	clone.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return body, clone, nil
}

// teeBody keeps what is read and calls done once with all of it at EOF.
type teeBody struct {
	rc   io.ReadCloser
	buf  bytes.Buffer
	done func([]byte)
	once sync.Once
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.rc.Read(p)
	t.buf.Write(p[:n])
	if err == io.EOF {
		t.once.Do(func() { t.done(t.buf.Bytes()) })
	}
	return n, err
}

// Close records a streamed answer the client stopped reading after its
// end marker ("data: [DONE]") but before EOF; the rest, normally nothing,
// is read first. Any other answer closed early was cut off: not recorded.
func (t *teeBody) Close() error {
	if bytes.Contains(t.buf.Bytes(), []byte("data: [DONE]")) {
		if _, err := io.Copy(&t.buf, t.rc); err == nil {
			t.once.Do(func() { t.done(t.buf.Bytes()) })
		}
	}
	return t.rc.Close()
}
