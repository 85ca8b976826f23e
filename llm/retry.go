package llm

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Clock is the time source for backoff and rate limiting. Tests swap it so
// retries run without real waits; nil in Config means real time.
type Clock interface {
	Now() time.Time
	// Sleep waits for d or until ctx is done, returning ctx.Err() then.
	Sleep(ctx context.Context, d time.Duration) error
}

type realClock struct{}

// NoWait is real time whose sleeps end at once: for a replay, whose
// recorded errors need no backoff before their recorded retries.
var NoWait Clock = noWait{}

type noWait struct{ realClock }

func (noWait) Sleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Backoff shape, as in the OpenAI SDKs: 0.5s·2^n capped at 8s, minus up to
// 25% jitter so callers that failed together do not retry together.
const (
	backoffBase = 500 * time.Millisecond
	backoffMax  = 8 * time.Second
	// maxRetryAfter is the longest server-requested wait we honour; a server
	// asking for more is better reported than waited on.
	maxRetryAfter = 2 * time.Minute
)

// backoff is the delay before retry n (0-based) when the server gave none.
func backoff(n int) time.Duration {
	d := backoffMax
	if n < 5 { // 0.5s·2^4 = 8s already
		d = min(backoffBase<<n, backoffMax)
	}
	return d - time.Duration(rand.Int64N(int64(d/4)+1))
}

// retryDelay is how long to wait before retry n: the server's Retry-After-Ms
// or Retry-After when present, else backoff. ok is false when the server
// asks for longer than maxRetryAfter.
func retryDelay(res *http.Response, n int, now time.Time) (d time.Duration, ok bool) {
	if d, found := retryAfter(res, now); found {
		return d, d <= maxRetryAfter
	}
	return backoff(n), true
}

// retryAfter parses Retry-After-Ms (milliseconds, OpenAI's) and Retry-After
// (seconds or an HTTP date).
func retryAfter(res *http.Response, now time.Time) (time.Duration, bool) {
	if res == nil {
		return 0, false
	}
	if v := strings.TrimSpace(res.Header.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(res.Header.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
