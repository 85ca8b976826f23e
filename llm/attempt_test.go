package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lessongen/lessongen/internal/fakellm"
)

// Attempt timeouts are real time (a context deadline), so they are short;
// backoff runs on the fake clock. No test asserts on wall time.
const shortAttempt = 200 * time.Millisecond

func TestHungAttemptIsRetried(t *testing.T) {
	// The first attempt never answers; the retry does.
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{
		{Hang: true, Content: "answer"},
	}}}})
	clk := newFakeClock()
	c := newClient(t, Config{BaseURL: srv.URL(), Clock: clk, TurnTimeout: time.Minute, AttemptTimeout: shortAttempt})
	resp, err := c.Complete(context.Background(), userReq("x"))
	if err != nil {
		t.Fatalf("err = %v; a hung attempt must be retried within the turn", err)
	}
	if resp.Message.Content != "answer" || resp.Requests != 2 || srv.RequestCount() != 2 {
		t.Errorf("resp = %+v, server saw %d requests; want the answer after 2", resp, srv.RequestCount())
	}
	// The retry waited its backoff like any transient failure.
	if s := clk.Sleeps(); len(s) != 1 || s[0] <= 0 || s[0] > backoffBase {
		t.Errorf("backoff sleeps = %v, want one in (0, %v]", s, backoffBase)
	}
}

func TestStalledBodyIsRetried(t *testing.T) {
	// The first answer sends its headers and half a body, then stalls.
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		first := n == 1
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if first {
			w.Header().Set("Content-Length", "4096")
			w.WriteHeader(http.StatusOK)
			io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":"ha`)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":"whole"},"finish_reason":"stop"}]}`)
	}))
	defer srv.Close()
	c := newClient(t, Config{BaseURL: srv.URL + "/v1", Clock: newFakeClock(), TurnTimeout: time.Minute, AttemptTimeout: shortAttempt})
	resp, err := c.Complete(context.Background(), userReq("x"))
	if err != nil {
		t.Fatalf("err = %v; a stalled body must be cut and retried", err)
	}
	if resp.Message.Content != "whole" || resp.Requests != 2 {
		t.Errorf("resp = %+v, want the second answer after 2 requests", resp)
	}
}

func TestAttemptTimeoutsUseUpRetries(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Hang: true, Times: -1}}}}})
	c := newClient(t, Config{BaseURL: srv.URL(), Clock: newFakeClock(), MaxRetries: 1, AttemptTimeout: shortAttempt})
	resp, err := c.Complete(context.Background(), userReq("x"))
	pe := providerError(t, err)
	if pe.Attempts != 2 || resp.Requests != 2 || srv.RequestCount() != 2 || !pe.Retryable {
		t.Errorf("error = %+v, requests %d/%d; want 2 attempts", pe, resp.Requests, srv.RequestCount())
	}
	if !errors.Is(err, context.DeadlineExceeded) || Systemic(err) {
		t.Errorf("err = %v: want a timeout, and not one that fails every request", err)
	}
	if want := "no complete answer within the attempt timeout of 200ms (after 2 attempts)"; !strings.Contains(err.Error(), want) {
		t.Errorf("err = %q, want it to contain %q", err, want)
	}
}

func TestSystemic(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want bool
	}{
		{&ProviderError{StatusCode: 401, kind: ErrAuth}, true},
		{&ProviderError{StatusCode: 404, kind: ErrNotFound}, true},
		{fmt.Errorf("wrapped: %w", &ProviderError{kind: ErrUnreachable}), true},
		{&ProviderError{StatusCode: 200, kind: ErrBadResponse}, true},
		{&ProviderError{StatusCode: 500, Retryable: true}, false},
		{&ProviderError{StatusCode: 400}, false},
		{&ProviderError{kind: context.DeadlineExceeded}, false},
		{fmt.Errorf("llm: turn timeout: %w", context.DeadlineExceeded), false},
		{context.Canceled, false},
	} {
		if got := Systemic(tt.err); got != tt.want {
			t.Errorf("Systemic(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}
