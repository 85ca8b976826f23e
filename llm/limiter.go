package llm

import (
	"context"
	"math"
	"sync"
	"time"

	// x/time/rate: a well-kept token bucket whose explicit-time API
	// (ReserveN, SetLimitAt) lets us change the rate under load and drive it
	// from an injected clock; its context-aware waits fit cancellation.
	"golang.org/x/time/rate"
)

// Adaptive rate shape. After a 429 the allowed rate halves (not below
// minRate); each success then raises it by recoverFactor until it is back.
const (
	minRate       = 0.05 // requests per second: one every 20 s
	recoverFactor = 1.1
	// observeWindow is how far back an unlimited limiter looks to estimate
	// the rate that provoked a 429.
	observeWindow = 10 * time.Second
	maxObserved   = 512
)

// Limiter paces requests to one provider. Share one Limiter between every
// Client that talks to the same provider, so concurrent subagents slow down
// together: a 429 seen by any caller pauses all of them until the server's
// Retry-After and lowers the rate for all, which then recovers gradually.
//
// The zero value is not usable; a nil *Limiter does not limit.
type Limiter struct {
	clock Clock

	mu     sync.Mutex
	bucket *rate.Limiter
	base   float64 // configured rate; +Inf = unlimited
	cur    float64 // rate now allowed; +Inf = unlimited
	// ceiling is where recovery stops; for an unlimited limiter that has been
	// throttled, reaching it lifts the limit again.
	ceiling     float64
	epoch       uint64 // bumped on every cut
	pausedUntil time.Time
	admitted    []time.Time // recent admissions, kept while unlimited
}

// NewLimiter returns a limiter allowing rps requests per second with bursts
// of burst. rps <= 0 means unlimited until the first 429; burst < 1 means 1.
func NewLimiter(rps float64, burst int) *Limiter {
	return newLimiter(rps, burst, realClock{})
}

func newLimiter(rps float64, burst int, clock Clock) *Limiter {
	if rps <= 0 || math.IsNaN(rps) {
		rps = math.Inf(1)
	}
	return &Limiter{
		clock:   clock,
		bucket:  rate.NewLimiter(rate.Limit(rps), max(burst, 1)),
		base:    rps,
		cur:     rps,
		ceiling: rps,
	}
}

// Wait blocks until a request may be sent: past any pause a 429 imposed, and
// with a token from the bucket. It returns ctx.Err() if ctx ends first.
func (l *Limiter) Wait(ctx context.Context) error {
	_, err := l.admit(ctx)
	return err
}

// Limit is the rate currently allowed, in requests per second; +Inf when
// unlimited.
func (l *Limiter) Limit() float64 {
	if l == nil {
		return math.Inf(1)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cur
}

// PausedUntil is when the pause imposed by the latest 429 ends; zero or past
// when there is none.
func (l *Limiter) PausedUntil() time.Time {
	if l == nil {
		return time.Time{}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.pausedUntil
}

// admit is Wait that also returns the epoch the request is sent under, so a
// later 429 can tell whether the rate was already cut since.
func (l *Limiter) admit(ctx context.Context) (uint64, error) {
	if l == nil {
		return 0, ctx.Err()
	}
	for {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		l.mu.Lock()
		now := l.clock.Now()
		if wait := l.pausedUntil.Sub(now); wait > 0 {
			l.mu.Unlock()
			if err := l.clock.Sleep(ctx, wait); err != nil {
				return 0, err
			}
			continue
		}
		r := l.bucket.ReserveN(now, 1)
		l.mu.Unlock()

		if d := r.DelayFrom(now); d > 0 {
			if err := l.clock.Sleep(ctx, d); err != nil {
				r.CancelAt(l.clock.Now())
				return 0, err
			}
		}

		l.mu.Lock()
		now = l.clock.Now()
		if now.Before(l.pausedUntil) {
			// Someone got a 429 while we waited for the token: wait again.
			l.mu.Unlock()
			continue
		}
		if math.IsInf(l.base, 1) && math.IsInf(l.cur, 1) {
			l.admitted = append(pruneBefore(l.admitted, now.Add(-observeWindow)), now)
			if len(l.admitted) > maxObserved {
				l.admitted = l.admitted[len(l.admitted)-maxObserved:]
			}
		}
		epoch := l.epoch
		l.mu.Unlock()
		return epoch, nil
	}
}

// rateLimited records a 429 for a request admitted in epoch: everyone pauses
// for delay, and the rate is cut once per epoch, because the other requests
// that were in flight at the old rate say nothing new when they fail too.
func (l *Limiter) rateLimited(epoch uint64, delay time.Duration) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock.Now()
	if until := now.Add(delay); until.After(l.pausedUntil) {
		l.pausedUntil = until
	}
	if epoch != l.epoch {
		return
	}
	l.epoch++
	if math.IsInf(l.cur, 1) {
		observed := l.observedRate(now)
		l.cur = max(observed/2, minRate)
		l.ceiling = max(observed*2, minRate)
		l.admitted = nil
	} else {
		l.cur = max(l.cur/2, min(minRate, l.base))
	}
	l.bucket.SetLimitAt(now, rate.Limit(l.cur))
}

// succeeded raises a cut rate a step towards where it was.
func (l *Limiter) succeeded() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cur >= l.ceiling {
		return
	}
	l.cur = min(l.cur*recoverFactor, l.ceiling)
	if l.cur >= l.ceiling && math.IsInf(l.base, 1) {
		l.cur, l.ceiling = l.base, l.base
	}
	l.bucket.SetLimitAt(l.clock.Now(), rate.Limit(l.cur))
}

// observedRate estimates the request rate of an unlimited limiter from its
// recent admissions.
func (l *Limiter) observedRate(now time.Time) float64 {
	recent := pruneBefore(l.admitted, now.Add(-observeWindow))
	if len(recent) == 0 {
		return 0
	}
	span := max(now.Sub(recent[0]), time.Second)
	return float64(len(recent)) / span.Seconds()
}

func pruneBefore(ts []time.Time, cutoff time.Time) []time.Time {
	i := 0
	for i < len(ts) && ts[i].Before(cutoff) {
		i++
	}
	return ts[i:]
}
