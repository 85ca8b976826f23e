package llm_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lessongen/lessongen/internal/fakellm"
	"github.com/lessongen/lessongen/llm"
)

const batchKey = "sk-batch-secret-0123456789"

func batcher(t *testing.T, srv *fakellm.Server, cfg llm.BatchConfig) *llm.Batcher {
	t.Helper()
	c, err := llm.New(llm.Config{BaseURL: srv.URL(), APIKey: batchKey, Model: "m", MaxRetries: 2})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Window, cfg.Poll, cfg.PollMax = time.Second, time.Millisecond, 4*time.Millisecond
	return llm.NewBatcher(c, cfg)
}

func ask(b *llm.Batcher, ctx context.Context, task string) (llm.Response, error) {
	return b.Complete(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: task}}})
}

// Three calls make one round; the line that fails with a 500 (in the error
// file) is sent again in a second round, the 400 is that call's error.
func TestBatchRoundsRetryFailedLine(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{
		{Match: []string{"alpha"}, Turns: []fakellm.Turn{{Content: "A"}}},
		{Match: []string{"beta"}, Turns: []fakellm.Turn{{Status: 500, Times: 1, Content: "B"}}},
		{Match: []string{"gamma"}, Turns: []fakellm.Turn{{Status: 400, Times: -1}}},
	}})
	b := batcher(t, srv, llm.BatchConfig{Size: 3})
	var wg sync.WaitGroup
	got := map[string]llm.Response{}
	errs := map[string]error{}
	var mu sync.Mutex
	for _, task := range []string{"alpha", "beta", "gamma"} {
		wg.Go(func() {
			r, err := ask(b, t.Context(), task)
			mu.Lock()
			defer mu.Unlock()
			got[task], errs[task] = r, err
		})
	}
	wg.Wait()
	if errs["alpha"] != nil || got["alpha"].Message.Content != "A" || got["alpha"].Requests != 1 {
		t.Errorf("alpha: %+v, %v", got["alpha"], errs["alpha"])
	}
	if errs["beta"] != nil || got["beta"].Message.Content != "B" || got["beta"].Requests != 2 {
		t.Errorf("beta (failed line retried): %+v, %v", got["beta"], errs["beta"])
	}
	var pe *llm.ProviderError
	if !errors.As(errs["gamma"], &pe) || pe.StatusCode != 400 || pe.Retryable || got["gamma"].Requests != 1 {
		t.Errorf("gamma: want its line's 400, not retried; got %+v, %v", got["gamma"], errs["gamma"])
	}
	if b.Rounds() != 2 || srv.Uploads() != 2 || srv.Batches() != 2 {
		t.Errorf("rounds %d, uploads %d, batches %d; want 2 each", b.Rounds(), srv.Uploads(), srv.Batches())
	}
}

// A run stopped while its batch is in flight leaves the batch id saved; a
// rerun with the same request waits on that batch without uploading again.
func TestBatchResumeFromSavedBatch(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Content: "hello"}}}}})
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	first := batcher(t, srv, llm.BatchConfig{Size: 1, StateDir: dir,
		OnBatch: func(string, int, bool) { cancel() }})
	if _, err := ask(first, ctx, "greet"); !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: want cancelled, got %v", err)
	}
	saved, err := os.ReadFile(filepath.Join(dir, "batches.json"))
	if err != nil || !strings.Contains(string(saved), "batch_1") {
		t.Fatalf("batch id not saved: %q, %v", saved, err)
	}
	if strings.Contains(string(saved), batchKey) || strings.Contains(string(saved), "greet") {
		t.Errorf("state file holds the key or the request: %s", saved)
	}
	var resumed bool
	second := batcher(t, srv, llm.BatchConfig{Size: 1, StateDir: dir,
		OnBatch: func(_ string, _ int, r bool) { resumed = r }})
	r, err := ask(second, t.Context(), "greet")
	if err != nil || r.Message.Content != "hello" || !resumed {
		t.Fatalf("rerun: %+v, %v, resumed %v", r, err, resumed)
	}
	if srv.Uploads() != 1 || srv.Batches() != 1 {
		t.Errorf("uploads %d, batches %d; want 1 each (the rerun pays nothing twice)", srv.Uploads(), srv.Batches())
	}
	if _, err := os.Stat(filepath.Join(dir, "batches.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("state file kept after the batch was read: %v", err)
	}
}

func TestBatchProbe(t *testing.T) {
	with := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{}}})
	if err := batcher(t, with, llm.BatchConfig{}).Probe(t.Context()); err != nil {
		t.Errorf("server with the Batch API: %v", err)
	}
	without := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{}}, NoBatch: true})
	if err := batcher(t, without, llm.BatchConfig{}).Probe(t.Context()); !errors.Is(err, llm.ErrNoBatchAPI) {
		t.Errorf("server without: want ErrNoBatchAPI, got %v", err)
	}
}
