package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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

// offlineRunner stands in for vLLM's run_batch: it answers every round
// file in dir, each line with the last user message echoed, but fails the
// first line that asks for "flaky" with a 500, as run_batch writes a
// failed request: the status in "response" beside a null body, the
// ErrorResponse in "error" (vllm/entrypoints/launchers/run_batch.py).
func offlineRunner(t *testing.T, dir string, stop <-chan struct{}) {
	failed := false
	for {
		select {
		case <-stop:
			return
		case <-time.After(time.Millisecond):
		}
		ins, _ := filepath.Glob(filepath.Join(dir, "*.in.jsonl"))
		for _, in := range ins {
			out := strings.TrimSuffix(in, ".in.jsonl") + ".out.jsonl"
			if _, err := os.Stat(out); err == nil {
				continue
			}
			data, _ := os.ReadFile(in)
			var res strings.Builder
			for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
				var l struct {
					CustomID string `json:"custom_id"`
					Body     struct {
						Messages []struct{ Content string } `json:"messages"`
					} `json:"body"`
				}
				if err := json.Unmarshal([]byte(line), &l); err != nil {
					t.Error(err)
					return
				}
				text := l.Body.Messages[len(l.Body.Messages)-1].Content
				if text == "flaky" && !failed {
					failed = true
					fmt.Fprintf(&res, `{"id":"vllm-1","custom_id":%q,"response":{"status_code":500,"request_id":"r","body":null},"error":{"error":{"message":"engine died","type":"InternalServerError","param":null,"code":500}}}`+"\n", l.CustomID)
					continue
				}
				fmt.Fprintf(&res, `{"id":"vllm-2","custom_id":%q,"response":{"status_code":200,"request_id":"r","body":{"id":"c","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"ok %s"},"finish_reason":"stop"}]}},"error":null}`+"\n", l.CustomID, text)
			}
			_ = os.WriteFile(out, []byte(res.String()), 0o644)
		}
	}
}

// With Dir, rounds go through files an offline runner answers; a failed
// line is retried in a new round file, and a rerun of the same requests
// reads the answers already there without writing a round again.
func TestBatchDirOfflineRunner(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{}}, NoBatch: true})
	dir := t.TempDir()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { defer close(done); offlineRunner(t, dir, stop) }()
	var rounds []string
	b := batcher(t, srv, llm.BatchConfig{Size: 2, Dir: dir,
		OnExport: func(in, _ string, _ int) { rounds = append(rounds, in) }})
	var wg sync.WaitGroup
	for _, task := range []string{"steady", "flaky"} {
		wg.Go(func() {
			r, err := ask(b, t.Context(), task)
			if err != nil || r.Message.Content != "ok "+task {
				t.Errorf("%s: %+v, %v", task, r, err)
			}
		})
	}
	wg.Wait()
	close(stop)
	<-done
	files, _ := filepath.Glob(filepath.Join(dir, "*.in.jsonl"))
	if len(files) != 2 || b.Rounds() != 2 {
		t.Fatalf("round files %v, rounds %d; want 2 (the failed line again)", files, b.Rounds())
	}
	again := batcher(t, srv, llm.BatchConfig{Size: 1, Dir: dir})
	if r, err := ask(again, t.Context(), "flaky"); err != nil || r.Message.Content != "ok flaky" {
		t.Errorf("rerun: %+v, %v", r, err)
	}
	if files2, _ := filepath.Glob(filepath.Join(dir, "*.in.jsonl")); len(files2) != 2 {
		t.Errorf("rerun wrote a new round: %v", files2)
	}
	if srv.RequestCount() != 0 {
		t.Errorf("%d requests reached the server", srv.RequestCount())
	}
}
