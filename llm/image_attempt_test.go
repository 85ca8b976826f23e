package llm

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lessongen/lessongen/internal/fakellm"
)

// An image request waits as a chat turn does (issue #37.12): an attempt
// that gets no picture within the attempt timeout is cut and retried with
// backoff. The turn timeout only bounds the test on code that waits
// longer.
func TestImageHungAttemptIsRetried(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Images: &fakellm.ImagesOptions{Stall: 1}})
	clk := newFakeClock()
	c := newClient(t, Config{BaseURL: srv.URL(), Clock: clk, TurnTimeout: 5 * time.Second, AttemptTimeout: shortAttempt})
	data, n, err := c.GenerateImage(context.Background(), "a leaf")
	if err != nil || len(data) == 0 {
		t.Fatalf("err = %v; a stalled image attempt must be cut and retried", err)
	}
	if n != 2 || srv.RequestCount() != 2 {
		t.Errorf("%d attempts, server saw %d requests; want the picture after 2", n, srv.RequestCount())
	}
	if s := clk.Sleeps(); len(s) != 1 || s[0] <= 0 || s[0] > backoffBase {
		t.Errorf("backoff sleeps = %v, want one in (0, %v]", s, backoffBase)
	}
}

// --retries bounds the attempts of a picture whose server never answers.
func TestImageAttemptTimeoutsUseUpRetries(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Images: &fakellm.ImagesOptions{Stall: -1}})
	c := newClient(t, Config{BaseURL: srv.URL(), Clock: newFakeClock(), MaxRetries: 1, TurnTimeout: 5 * time.Second, AttemptTimeout: shortAttempt})
	_, n, err := c.GenerateImage(context.Background(), "a leaf")
	pe := providerError(t, err)
	if n != 2 || pe.Attempts != 2 || srv.RequestCount() != 2 || !errors.Is(err, context.DeadlineExceeded) ||
		!strings.Contains(pe.Message, "no picture within the attempt timeout of 200ms") {
		t.Errorf("error = %+v (%v), %d attempts, %d requests; want 2 attempts cut by the attempt timeout", pe, err, n, srv.RequestCount())
	}
}

// An image answer is read up to a picture's worth (MaxImageAnswerBytes,
// from imagefile.MaxBytes), whatever the cap on chat answers: a body that
// never ends is cut there and not asked for again, and a chat cap smaller
// than a picture does not refuse pictures.
func TestImageAnswerCap(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Images: &fakellm.ImagesOptions{Endless: true}})
	c := newClient(t, Config{BaseURL: srv.URL(), Clock: newFakeClock(), TurnTimeout: 30 * time.Second})
	_, n, err := c.GenerateImage(context.Background(), "a leaf")
	pe := providerError(t, err)
	if n != 1 || srv.RequestCount() != 1 || !errors.Is(err, ErrBadResponse) ||
		!strings.Contains(pe.Message, "passed the cap of "+byteSize(MaxImageAnswerBytes)) || !strings.Contains(pe.Message, "at most 5 MB") {
		t.Errorf("error = %+v (%v), %d attempts; want one attempt cut at the picture cap", pe, err, n)
	}
	if MaxImageAnswerBytes < 5<<20*4/3 || MaxImageAnswerBytes > 8<<20 {
		t.Errorf("MaxImageAnswerBytes = %d: not a 5 MB picture's base64 and a little", MaxImageAnswerBytes)
	}

	srv = fakellm.Start(t, fakellm.Script{Images: &fakellm.ImagesOptions{Width: 300, Height: 200}})
	c = newClient(t, Config{BaseURL: srv.URL(), Clock: newFakeClock(), MaxAnswerBytes: 64})
	if data, _, err := c.GenerateImage(context.Background(), "a leaf"); err != nil || len(data) == 0 {
		t.Errorf("with a 64-byte chat cap: %v", err)
	}
}
