package fakellm

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// RunBatch writes each line in one of run_batch's shapes: an answer, an
// ErrorResponse beside a null body, a string for a request that raised,
// and nothing for a line it never reached.
func TestRunBatchShapes(t *testing.T) {
	srv := Start(t, Script{Rules: []Rule{
		{Match: []string{"ok"}, Turns: []Turn{{Content: "fine"}}},
		{Match: []string{"refused"}, Turns: []Turn{{Status: 400, Times: -1, ErrorBody: `{"error":{"message":"too long"}}`}}},
		{Match: []string{"raised"}, Turns: []Turn{{Status: 400, Times: -1, BatchRaised: true, ErrorBody: "boom"}}},
		{Match: []string{"lost"}, Turns: []Turn{{Hang: true, Times: -1}}},
	}})
	dir := t.TempDir()
	in, out := filepath.Join(dir, "r.in.jsonl"), filepath.Join(dir, "r.out.jsonl")
	var b strings.Builder
	for _, task := range []string{"ok", "refused", "raised", "lost"} {
		b.WriteString(`{"custom_id":"` + task + `","method":"POST","url":"/v1/chat/completions","body":{"model":"m","messages":[{"role":"user","content":"` + task + `"}]}}` + "\n")
	}
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := srv.RunBatch(in, out); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	want := []string{
		`^\{"id":"vllm-[0-9a-f]{32}","custom_id":"ok","response":\{"status_code":200,"request_id":"vllm-batch-[0-9a-f]{32}","body":\{.*"content":"fine".*\}\},"error":null\}$`,
		`^\{"id":"vllm-[0-9a-f]{32}","custom_id":"refused","response":\{"status_code":400,"request_id":"vllm-batch-[0-9a-f]{32}","body":null\},"error":\{"error":\{"message":"too long","type":"BadRequestError","param":null,"code":400\}\}\}$`,
		`^\{"id":"vllm-[0-9a-f]{32}","custom_id":"raised","response":\{"status_code":400,"request_id":"vllm-batch-[0-9a-f]{32}","body":null\},"error":"boom"\}$`,
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d (the lost one left out):\n%s", len(lines), len(want), data)
	}
	for i, w := range want {
		if !regexp.MustCompile(w).MatchString(lines[i]) {
			t.Errorf("line %d:\n%s\nwant %s", i, lines[i], w)
		}
	}
	if srv.RequestCount() != 0 {
		t.Errorf("%d requests counted over HTTP; the runner is not the server", srv.RequestCount())
	}
}
