package llm

import (
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/lessongen/lessongen/internal/fakellm"
)

func TestLimiterPacesAtRate(t *testing.T) {
	clk := newFakeClock()
	l := newLimiter(2, 1, clk)
	for range 3 {
		if err := l.Wait(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	// Burst 1 at 2 rps: the first goes at once, the next two wait 500ms each.
	if got := clk.Sleeps(); len(got) != 2 || got[0] != 500*time.Millisecond || got[1] != 500*time.Millisecond {
		t.Errorf("sleeps = %v", got)
	}
}

func TestLimiterPauseAndCutOncePerEpoch(t *testing.T) {
	clk := newFakeClock()
	l := newLimiter(8, 4, clk)
	var epochs []uint64
	for range 3 {
		e, err := l.admit(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		epochs = append(epochs, e)
	}
	start := clk.Now()
	// Three requests in flight at the old rate all get 429: one cut only.
	for _, e := range epochs {
		l.rateLimited(e, 2*time.Second)
	}
	if got := l.Limit(); got != 4 {
		t.Errorf("limit after 429s = %v, want 4 (halved once)", got)
	}
	if got := l.PausedUntil(); !got.Equal(start.Add(2 * time.Second)) {
		t.Errorf("paused until %v, want start+2s", got)
	}
	// Everyone waits out the pause.
	e, err := l.admit(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if now := clk.Now(); now.Before(start.Add(2 * time.Second)) {
		t.Errorf("admitted at %v, before the pause ended", now.Sub(start))
	}
	// A 429 under the new epoch cuts again, down to the floor eventually.
	l.rateLimited(e, 0)
	if got := l.Limit(); got != 2 {
		t.Errorf("limit after second cut = %v, want 2", got)
	}
	for range 20 {
		e, _ := l.admit(context.Background())
		l.rateLimited(e, 0)
	}
	if got := l.Limit(); got != minRate {
		t.Errorf("limit = %v, want floor %v", got, minRate)
	}
}

func TestLimiterRecoversGradually(t *testing.T) {
	clk := newFakeClock()
	l := newLimiter(10, 1, clk)
	e, _ := l.admit(context.Background())
	l.rateLimited(e, 0)
	prev := l.Limit()
	steps := 0
	for l.Limit() < 10 {
		l.succeeded()
		if got := l.Limit(); got <= prev {
			t.Fatalf("limit did not rise: %v -> %v", prev, got)
		}
		prev = l.Limit()
		steps++
	}
	if steps < 3 || l.Limit() != 10 {
		t.Errorf("recovered in %d steps to %v; want gradual, capped at 10", steps, l.Limit())
	}
	l.succeeded()
	if l.Limit() != 10 {
		t.Errorf("limit rose past the configured rate: %v", l.Limit())
	}
}

func TestUnlimitedLimiterThrottlesAfter429(t *testing.T) {
	clk := newFakeClock()
	l := newLimiter(0, 0, clk)
	var e uint64
	// 8 requests over 4 seconds: an observed 2 rps.
	for range 8 {
		e, _ = l.admit(context.Background())
		clk.Sleep(context.Background(), 500*time.Millisecond)
	}
	l.rateLimited(e, time.Second)
	if got := l.Limit(); got != 1 {
		t.Errorf("limit = %v, want half the observed 2 rps", got)
	}
	for range 100 {
		l.succeeded()
	}
	if got := l.Limit(); !math.IsInf(got, 1) {
		t.Errorf("limit after many successes = %v, want unlimited again", got)
	}
}

func TestLimiterWaitHonoursContext(t *testing.T) {
	l := NewLimiter(1, 1)
	l.rateLimited(0, time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := l.Wait(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Wait = %v", err)
	}
	var nilLimiter *Limiter
	if err := nilLimiter.Wait(context.Background()); err != nil || !math.IsInf(nilLimiter.Limit(), 1) {
		t.Errorf("nil limiter: %v %v", err, nilLimiter.Limit())
	}
}

// TestSharedLimiterSlowsOtherClients: a 429 seen by one client holds back
// another client that shares its limiter, and lowers the rate for both.
func TestSharedLimiterSlowsOtherClients(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{
		{Match: []string{"agent A"}, Turns: []fakellm.Turn{{Status: 429, RetryAfter: "5", Times: -1}}},
		{Match: []string{"agent B"}, Turns: []fakellm.Turn{{Content: "b"}}},
	}})
	clk := newFakeClock()
	lim := newLimiter(10, 1, clk)
	a := newClient(t, Config{BaseURL: srv.URL(), Limiter: lim, Clock: clk, MaxRetries: -1})
	b := newClient(t, Config{BaseURL: srv.URL(), Limiter: lim, Clock: clk})

	start := clk.Now()
	if _, err := a.Complete(context.Background(), userReq("agent A")); err == nil {
		t.Fatal("A: no error")
	}
	if got := lim.Limit(); got != 5 {
		t.Errorf("limit after A's 429 = %v, want 5", got)
	}
	if _, err := b.Complete(context.Background(), userReq("agent B")); err != nil {
		t.Fatal(err)
	}
	// B never got a 429 itself, yet it waited out A's Retry-After.
	if got := clk.Now().Sub(start); got < 5*time.Second {
		t.Errorf("B went after %v, want >= 5s (A's Retry-After)", got)
	}
	if got := lim.Limit(); got <= 5 || got >= 10 {
		t.Errorf("limit after B's success = %v, want recovering between 5 and 10", got)
	}
}

// TestSharedLimiterConcurrent429s: four concurrent callers all hit a 429;
// the rate is cut once, not four times, and every retry waits for the pause.
func TestSharedLimiterConcurrent429s(t *testing.T) {
	const n = 4
	clk := newFakeClock()
	start := clk.Now()
	var (
		mu      sync.Mutex
		arrived int
		all     = make(chan struct{})
		retryAt []time.Time
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrived++
		k := arrived
		if k == n {
			close(all)
		}
		if k > n {
			retryAt = append(retryAt, clk.Now())
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if k <= n {
			// Hold the first n until all are in flight, so they were all
			// admitted at the old rate.
			<-all
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"error":{"message":"rate limited"}}`)
			return
		}
		io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`)
	}))
	defer srv.Close()

	lim := newLimiter(10, n, clk)
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		c := newClient(t, Config{BaseURL: srv.URL + "/v1", Limiter: lim, Clock: clk})
		wg.Go(func() {
			_, errs[i] = c.Complete(context.Background(), userReq("x"))
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(retryAt) != n {
		t.Fatalf("%d retries, want %d", len(retryAt), n)
	}
	for _, at := range retryAt {
		if at.Sub(start) < 2*time.Second {
			t.Errorf("a retry went %v after start, before the 2s pause ended", at.Sub(start))
		}
	}
	// One cut to 5, then four successes at ×1.1 each.
	want := 5 * math.Pow(recoverFactor, n)
	if got := lim.Limit(); math.Abs(got-want) > 1e-9 {
		t.Errorf("limit = %v, want %v (one cut, %d recoveries)", got, want, n)
	}
}

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	hdr := func(kv ...string) *http.Response {
		h := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return &http.Response{Header: h}
	}
	tests := []struct {
		res  *http.Response
		want time.Duration
		ok   bool
	}{
		{hdr("Retry-After-Ms", "20"), 20 * time.Millisecond, true},
		{hdr("Retry-After-Ms", "1.5", "Retry-After", "9"), 1500 * time.Microsecond, true},
		{hdr("Retry-After", "3"), 3 * time.Second, true},
		{hdr("Retry-After", now.Add(7*time.Second).Format(http.TimeFormat)), 7 * time.Second, true},
		{hdr("Retry-After", now.Add(-time.Hour).Format(http.TimeFormat)), 0, true},
		{hdr("Retry-After", "600"), 600 * time.Second, false}, // too long to wait for
	}
	for _, tt := range tests {
		got, ok := retryDelay(tt.res, 0, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%v: got %v %v, want %v %v", tt.res.Header, got, ok, tt.want, tt.ok)
		}
	}
	for n := range 8 {
		d, ok := retryDelay(hdr("Retry-After", "soon"), n, now)
		hi := min(500*time.Millisecond<<n, 8*time.Second)
		if !ok || d > hi || d < hi*3/4 {
			t.Errorf("backoff %d = %v, want in [%v, %v]", n, d, hi*3/4, hi)
		}
	}
}
