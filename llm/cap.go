package llm

import (
	"context"
	"fmt"
	"io"
	"net/http"
)

// DefaultMaxAnswerBytes is used when Config.MaxAnswerBytes is 0: far
// above any real answer (a streamed one included, whose every token
// travels in a chunk of its own), far below what hurts.
const DefaultMaxAnswerBytes = 8 << 20

// AnswerTooLargeError is an answer body that passed the cap on what is
// read from the server: reading stopped there.
type AnswerTooLargeError struct{ Limit int64 }

func (e *AnswerTooLargeError) Error() string {
	return fmt.Sprintf("the server's answer passed the cap of %s on what is read from it; reading stopped there", byteSize(e.Limit))
}

// capTransport stops every answer body at a cap. Without it, a server (or
// proxy) that sends an endless or huge body grows the process until the
// runtime dies of out-of-memory, with nothing saved.
type capTransport struct {
	next  http.RoundTripper
	limit int64
}

func (t capTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	limit := t.limit
	if l, ok := req.Context().Value(answerCapKey{}).(int64); ok {
		limit = l
	}
	res, err := t.next.RoundTrip(req)
	if res != nil && res.Body != nil {
		res.Body = &cappedBody{rc: res.Body, left: limit, limit: limit}
	}
	return res, err
}

// answerCapKey carries a request's own cap (withAnswerCap).
type answerCapKey struct{}

// withAnswerCap has the requests made under ctx read at most limit bytes
// of their answers, in place of the client's cap: an image answer's cap
// follows from the picture limit, not from what chat answers need.
func withAnswerCap(ctx context.Context, limit int64) context.Context {
	return context.WithValue(ctx, answerCapKey{}, limit)
}

// cappedBody reads at most limit bytes, then fails every read.
type cappedBody struct {
	rc          io.ReadCloser
	left, limit int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more tells a body of exactly limit bytes from a longer one.
		var one [1]byte
		if n, _ := io.ReadFull(b.rc, one[:]); n == 0 {
			return 0, io.EOF
		}
		return 0, &AnswerTooLargeError{Limit: b.limit}
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

// byteSize writes n in the largest binary unit that divides it evenly
// enough to read: 8 MiB, 1536 KiB, 700 B.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
