package llm

import (
	"context"
	"testing"
	"time"
)

// NoWait keeps real time but ends every sleep at once, and still reports
// a context that ended.
func TestNoWait(t *testing.T) {
	ctx := context.Background()
	before := NoWait.Now()
	if err := NoWait.Sleep(ctx, time.Hour); err != nil {
		t.Fatal(err)
	}
	if NoWait.Now().Sub(before) > time.Minute {
		t.Error("a sleep of an hour took real time")
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if err := NoWait.Sleep(done, time.Second); err == nil {
		t.Error("a cancelled context slept without error")
	}
}
