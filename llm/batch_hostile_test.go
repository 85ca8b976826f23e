package llm_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lessongen/lessongen/internal/fakellm"
	"github.com/lessongen/lessongen/internal/statedir"
	"github.com/lessongen/lessongen/llm"
)

// Hostile files and servers meeting --batch (issue #37, rows 2, 5, 9).

// roundName runs a round once with a tiny deadline and returns the path
// of its input file without the ".in.jsonl": the name is the round's
// hash, so a rerun of the same request uses it again.
func roundName(t *testing.T, srv *fakellm.Server, dir, task string) string {
	t.Helper()
	var in string
	b := batcher(t, srv, llm.BatchConfig{Size: 1, Dir: dir, Deadline: time.Millisecond,
		OnExport: func(i, _ string, _ int) { in = i }})
	if _, err := ask(b, t.Context(), task); err == nil || in == "" {
		t.Fatalf("first round: err %v, file %q", err, in)
	}
	return strings.TrimSuffix(in, ".in.jsonl")
}

// A link planted at a round file's (predictable) name is refused, whether
// the round is written or its answers read: the link's target outside
// the folder stays as it was, and the error names the file.
func TestBatchDirRefusesPlantedLink(t *testing.T) {
	for _, which := range []string{".in.jsonl", ".out.jsonl"} {
		t.Run(which, func(t *testing.T) {
			srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{}}, NoBatch: true})
			dir := t.TempDir()
			base := roundName(t, srv, dir, "hello")
			outside := filepath.Join(t.TempDir(), "precious")
			if err := os.WriteFile(outside, []byte("precious, 24 bytes long\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			os.Remove(base + ".in.jsonl")
			if which == ".out.jsonl" {
				// The round is there as written; only its answers are a link.
				roundName(t, srv, dir, "hello")
			}
			if err := os.Symlink(outside, base+which); err != nil {
				t.Fatal(err)
			}
			b := batcher(t, srv, llm.BatchConfig{Size: 1, Dir: dir, Deadline: time.Second})
			_, err := ask(b, t.Context(), "hello")
			if err == nil || !strings.Contains(err.Error(), base+which+" is a symlink") {
				t.Errorf("err = %v, want one naming the link %s", err, base+which)
			}
			if data, _ := os.ReadFile(outside); string(data) != "precious, 24 bytes long\n" {
				t.Errorf("the link's target changed: %q", data)
			}
			var le *statedir.LinkError
			if err := b.CheckDir(); !errors.As(err, &le) || le.Path != base+which {
				t.Errorf("CheckDir = %v, want a LinkError for %s", err, base+which)
			}
		})
	}
}

// The state kept for --batch in the state folder refuses a link too:
// batches.json -> elsewhere is neither read nor written through, and no
// batch is sent that could not be saved.
func TestBatchStateRefusesLink(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Content: "hi"}}}}})
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(outside, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, statedir.BatchesFile)); err != nil {
		t.Fatal(err)
	}
	_, err := ask(batcher(t, srv, llm.BatchConfig{Size: 1, StateDir: dir}), t.Context(), "greet")
	if err == nil || !strings.Contains(err.Error(), "is a symlink") {
		t.Errorf("err = %v, want the link refused", err)
	}
	if data, _ := os.ReadFile(outside); string(data) != "precious\n" {
		t.Errorf("the link's target changed: %q", data)
	}
	if srv.Uploads() != 0 || srv.Batches() != 0 {
		t.Errorf("uploads %d, batches %d: a batch was sent that could not be saved", srv.Uploads(), srv.Batches())
	}
}

// A folder where batches.json goes fails the round before the batch is
// created (and paid for), not after.
func TestBatchStateCheckedBeforeSend(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Content: "hi"}}}}})
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, statedir.BatchesFile), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := ask(batcher(t, srv, llm.BatchConfig{Size: 1, StateDir: dir}), t.Context(), "greet")
	if err == nil || !strings.Contains(err.Error(), "no batch sent") || !strings.Contains(err.Error(), statedir.BatchesFile+" is a folder") {
		t.Errorf("err = %v, want no batch sent, naming the folder", err)
	}
	if srv.Uploads() != 0 || srv.Batches() != 0 {
		t.Errorf("uploads %d, batches %d; want none", srv.Uploads(), srv.Batches())
	}
}

// A batch id that holds the key never reaches batches.json (nor an
// error): the batch is cancelled, not saved.
func TestBatchIDWithKeyNotSaved(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Content: "hi"}}}},
		Batch: fakellm.BatchFaults{IDEchoesKey: true}})
	dir := t.TempDir()
	var told []string
	b := batcher(t, srv, llm.BatchConfig{Size: 1, StateDir: dir,
		OnBatch: func(id string, _ int, _ bool) { told = append(told, id) }})
	_, err := ask(b, t.Context(), "greet")
	if err == nil || strings.Contains(err.Error(), batchKey) || !strings.Contains(err.Error(), "batch_1_[redacted]") {
		t.Errorf("err = %v, want the batch refused, its id redacted", err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, statedir.BatchesFile)); err == nil && strings.Contains(string(data), batchKey) {
		t.Errorf("batches.json holds the key: %s", data)
	}
	if srv.Cancels() != 1 || len(told) != 0 {
		t.Errorf("cancels %d, told %v; want the batch cancelled and never waited on", srv.Cancels(), told)
	}
}

// What a server writes in a batch's errors and in a failed line is
// redacted by llm itself (the key and the base URL's credentials), not
// only by the command's redactor around it.
func TestBatchErrorsRedacted(t *testing.T) {
	const pass = "hunter2-base-url-pass"
	echo := "key " + batchKey + " and password " + pass
	for _, c := range []struct {
		name   string
		script fakellm.Script
	}{
		{"batch errors", fakellm.Script{Rules: []fakellm.Rule{{}}, Batch: fakellm.BatchFaults{FailMessage: echo}}},
		{"line error", fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Status: 400, Times: -1,
			ErrorBody: `{"error":{"message":"` + echo + `","type":"invalid_request_error"}}`}}}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := fakellm.Start(t, c.script)
			cl, err := llm.New(llm.Config{BaseURL: strings.Replace(srv.URL(), "http://", "http://user:"+pass+"@", 1),
				APIKey: batchKey, Model: "m", MaxRetries: -1})
			if err != nil {
				t.Fatal(err)
			}
			b := llm.NewBatcher(cl, llm.BatchConfig{Size: 1, Poll: time.Millisecond, PollMax: time.Millisecond})
			_, err = ask(b, t.Context(), "greet")
			if err == nil || !strings.Contains(err.Error(), "[redacted]") || strings.Contains(err.Error(), batchKey) || strings.Contains(err.Error(), pass) {
				t.Errorf("err = %v, want the server's message with the key and password redacted", err)
			}
		})
	}
}

// An image error that echoes the key or the base URL's password is
// redacted by llm itself.
func TestImageErrorRedacted(t *testing.T) {
	const pass = "hunter2-base-url-pass"
	srv := fakellm.Start(t, fakellm.Script{Images: &fakellm.ImagesOptions{Status: 400,
		Message: "refused key " + batchKey + " with password " + pass}})
	cl, err := llm.New(llm.Config{BaseURL: strings.Replace(srv.URL(), "http://", "http://user:"+pass+"@", 1),
		APIKey: batchKey, Model: "m", Clock: llm.NoWait})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = cl.GenerateImage(t.Context(), "a leaf")
	if err == nil || !strings.Contains(err.Error(), "[redacted]") || strings.Contains(err.Error(), batchKey) || strings.Contains(err.Error(), pass) {
		t.Errorf("err = %v, want the key and password redacted", err)
	}
}

// A poll answered 5xx for ever fails after --retries polls in a row,
// instead of polling for ever; the batch stays saved for a rerun.
func TestBatchPollRetriesBounded(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{}}, Batch: fakellm.BatchFaults{PollStatus: 503}})
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	_, err := ask(batcher(t, srv, llm.BatchConfig{Size: 1, StateDir: dir}), ctx, "greet")
	if ctx.Err() != nil {
		t.Fatal("polling a batch answered 503 for ever did not end")
	}
	var pe *llm.ProviderError
	if !errors.As(err, &pe) || pe.StatusCode != 503 || !strings.Contains(err.Error(), "failed 3 times in a row (--retries 2)") {
		t.Errorf("err = %v, want the 503 after 3 polls", err)
	}
	polls := 0
	for _, r := range srv.Requests() {
		if r.Method == "GET" && strings.HasPrefix(r.Path, "/v1/batches/") {
			polls++
		}
	}
	if polls != 3 {
		t.Errorf("%d polls, want 3 (the first and --retries 2)", polls)
	}
	if data, err := os.ReadFile(filepath.Join(dir, statedir.BatchesFile)); err != nil || !strings.Contains(string(data), "batch_1") {
		t.Errorf("batch not kept for a rerun: %q, %v", data, err)
	}
}

// A batch that never ends is waited on until the deadline, not for ever.
func TestBatchPollDeadline(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{}}})
	b := batcher(t, srv, llm.BatchConfig{Size: 1, Deadline: time.Nanosecond})
	_, err := ask(b, t.Context(), "greet")
	if err == nil || !strings.Contains(err.Error(), "has not ended within 1ns of waiting on it") {
		t.Errorf("err = %v, want the deadline", err)
	}
}

// A batch's output past the cap on one answer (8 MiB) is read whole: it
// holds a round's answers, up to llm.MaxBatchFileBytes.
func TestBatchOutputOverAnswerCap(t *testing.T) {
	big := strings.Repeat("word ", (llm.DefaultMaxAnswerBytes/5)+1024)
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Content: big}}}}})
	r, err := ask(batcher(t, srv, llm.BatchConfig{Size: 1}), t.Context(), "greet")
	if err != nil || len(r.Message.Content) != len(big) {
		t.Errorf("answer of %d bytes, err %v; want the whole %d", len(r.Message.Content), err, len(big))
	}
}

// A poll the server never answers costs one attempt (AttemptTimeout),
// and --retries of them end the wait: no request waits for ever.
func TestBatchPollHangBounded(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{}}, Batch: fakellm.BatchFaults{PollHang: true}})
	c, err := llm.New(llm.Config{BaseURL: srv.URL(), APIKey: batchKey, Model: "m", MaxRetries: 1, AttemptTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	b := llm.NewBatcher(c, llm.BatchConfig{Size: 1, Poll: time.Millisecond, PollMax: time.Millisecond})
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	_, err = ask(b, ctx, "greet")
	if ctx.Err() != nil {
		t.Fatal("a poll the server never answers held the run")
	}
	if err == nil || !strings.Contains(err.Error(), "failed 2 times in a row (--retries 1)") {
		t.Errorf("err = %v, want the polls given up after --retries", err)
	}
}

// A batch id that would name another route ("batch_1/../../models") is
// refused before it is saved, polled or cancelled.
func TestBatchIDThatIsARouteRefused(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Content: "hi"}}}},
		Batch: fakellm.BatchFaults{IDSuffix: "/../../models"}})
	dir := t.TempDir()
	var told []string
	b := batcher(t, srv, llm.BatchConfig{Size: 1, StateDir: dir,
		OnBatch: func(id string, _ int, _ bool) { told = append(told, id) }})
	_, err := ask(b, t.Context(), "greet")
	if err == nil || !strings.Contains(err.Error(), "is not an id") {
		t.Errorf("err = %v, want the batch id refused", err)
	}
	if _, err := os.Stat(filepath.Join(dir, statedir.BatchesFile)); err == nil || srv.Cancels() != 0 || len(told) != 0 {
		t.Errorf("saved %v, cancels %d, told %v; want nothing saved, cancelled or waited on", err, srv.Cancels(), told)
	}
}
