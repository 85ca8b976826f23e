package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lessongen/lessongen/internal/fakellm"
	"github.com/lessongen/lessongen/llm"
)

// runnerLines answers a round file as a runner would, one output line per
// input line from answer(task, custom_id); a "" answer leaves the line out.
func runnerLines(t *testing.T, in, out string, answer func(task, cid string) string) {
	t.Helper()
	data, err := os.ReadFile(in)
	if err != nil {
		t.Error(err)
		return
	}
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
		if a := answer(l.Body.Messages[len(l.Body.Messages)-1].Content, l.CustomID); a != "" {
			res.WriteString(a + "\n")
		}
	}
	if err := os.WriteFile(out, []byte(res.String()), 0o644); err != nil {
		t.Error(err)
	}
}

func okLine(cid, text string) string {
	return fmt.Sprintf(`{"id":"vllm-1","custom_id":%q,"response":{"status_code":200,"request_id":"vllm-batch-1","body":{"id":"c","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":%q},"finish_reason":"stop"}]}},"error":null}`, cid, text)
}

// askAll asks every task at once through b and returns each one's error.
func askAll(ctx context.Context, b *llm.Batcher, tasks ...string) map[string]error {
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := map[string]error{}
	for _, task := range tasks {
		wg.Go(func() {
			_, err := ask(b, ctx, task)
			mu.Lock()
			defer mu.Unlock()
			errs[task] = err
		})
	}
	wg.Wait()
	return errs
}

// Every shape a runner's failed line comes in is that request's error,
// with the runner's own message: vLLM's ErrorResponse beside a null body
// (current and older form), vLLM's string for a request that raised,
// OpenAI's expired line with a null response, and a line with neither.
// None is dropped (a dropped line was waited on for ever).
func TestBatchDirErrorLineShapes(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{}}, NoBatch: true})
	dir := t.TempDir()
	shapes := map[string]string{
		"ok":      `%s`,
		"nested":  `{"id":"vllm-2","custom_id":%q,"response":{"status_code":400,"request_id":"vllm-batch-2","body":null},"error":{"error":{"message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","param":null,"code":400}}}`,
		"flat":    `{"id":"vllm-3","custom_id":%q,"response":{"status_code":400,"request_id":"vllm-batch-3","body":null},"error":{"object":"error","message":"This model's maximum context length is 4096 tokens.","type":"BadRequestError","param":null,"code":400}}`,
		"string":  `{"id":"vllm-4","custom_id":%q,"response":{"status_code":400,"request_id":"vllm-batch-4","body":null},"error":"Request must not be sent in stream mode"}`,
		"expired": `{"id":"batch_req_5","custom_id":%q,"response":null,"error":{"code":"batch_expired","message":"This request could not be executed before the completion window expired."}}`,
		"neither": `{"id":"vllm-6","custom_id":%q,"response":{"status_code":400,"request_id":"vllm-batch-6","body":null},"error":null}`,
	}
	b := batcher(t, srv, llm.BatchConfig{Size: len(shapes), Dir: dir,
		OnExport: func(in, out string, _ int) {
			runnerLines(t, in, out, func(task, cid string) string {
				if task == "ok" {
					return okLine(cid, "fine")
				}
				return fmt.Sprintf(shapes[task], cid)
			})
		}})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	var tasks []string
	for task := range shapes {
		tasks = append(tasks, task)
	}
	errs := askAll(ctx, b, tasks...)
	want := map[string]string{
		"nested":  `model server answered 400 Bad Request: "auto" tool choice requires --enable-auto-tool-choice`,
		"flat":    "model server answered 400 Bad Request: This model's maximum context length is 4096 tokens.",
		"string":  "model server answered 400 Bad Request: Request must not be sent in stream mode",
		"expired": "model server answered 500 Internal Server Error: This request could not be executed before the completion window expired. (code batch_expired) (after 3 attempts)",
		"neither": "model server answered 400 Bad Request: the line holds neither an answer nor an error",
	}
	if errs["ok"] != nil {
		t.Errorf("ok: %v", errs["ok"])
	}
	for task, w := range want {
		if errs[task] == nil || !strings.Contains(errs[task].Error(), w) {
			t.Errorf("%s: got %v, want %q", task, errs[task], w)
		}
		if errs[task] != nil && strings.Contains(errs[task].Error(), "null") {
			t.Errorf("%s: %v says null", task, errs[task])
		}
	}
	if !errors.Is(errs["nested"], llm.ErrServerSetup) {
		t.Errorf("nested: want ErrServerSetup with its fix, got %v", errs["nested"])
	}
	if ctx.Err() != nil {
		t.Error("a line was waited on until the test's deadline")
	}
}

// A line the runner never answers fails after the output has stayed the
// same for a few polls; the line it did answer is delivered.
func TestBatchDirLineNeverAnswered(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{}}, NoBatch: true})
	dir := t.TempDir()
	b := batcher(t, srv, llm.BatchConfig{Size: 2, Dir: dir,
		OnExport: func(in, out string, _ int) {
			runnerLines(t, in, out, func(task, cid string) string {
				if task == "lost" {
					return ""
				}
				return okLine(cid, "here")
			})
		}})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	errs := askAll(ctx, b, "kept", "lost")
	if errs["kept"] != nil {
		t.Errorf("kept: %v", errs["kept"])
	}
	if errs["lost"] == nil || !strings.Contains(errs["lost"].Error(), "the runner stopped before answering it") {
		t.Errorf("lost: got %v, want it failed as never answered", errs["lost"])
	}
	if ctx.Err() != nil {
		t.Error("the unanswered line was waited on until the test's deadline")
	}
}

// A round no runner ever answers fails at the end of the window.
func TestBatchDirWindow(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{}}, NoBatch: true})
	b := batcher(t, srv, llm.BatchConfig{Size: 1, Dir: t.TempDir(), Deadline: 50 * time.Millisecond})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	_, err := ask(b, ctx, "alone")
	if err == nil || !strings.Contains(err.Error(), "within 50ms of writing") {
		t.Errorf("got %v, want no answer within the window", err)
	}
}
