package fakellm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// RunBatch answers the batch input file in as vLLM's offline runner does
// (`vllm run-batch`), writing its output to out: each line answered from
// the script like a chat request, in the shapes of
// vllm/entrypoints/launchers/run_batch.py (vllm-project/vllm 02759f31,
// BatchRequestOutput, run_request, make_error_request_output):
//
//   - an answer: "response": {"status_code": 200, "request_id", "body":
//     the completion}, "error": null;
//   - a scripted failure or refusal (the server's ErrorResponse):
//     "response": {"status_code": STATUS, "request_id", "body": null},
//     "error": {"error": {"message", "type", "param": null, "code":
//     STATUS}} (vllm/entrypoints/openai/engine/protocol.py, ErrorInfo);
//   - a turn with BatchRaised (the request raised): "response":
//     {"status_code": 400, "request_id", "body": null}, "error": the
//     message as a string;
//   - a turn that hangs: no line (a runner stopped before writing it).
//
// The output is written whole and renamed into place, so a reader never
// sees half of it.
func (s *Server) RunBatch(in, out string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var b strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue // run_batch skips empty lines
		}
		var l struct {
			CustomID string          `json:"custom_id"`
			URL      string          `json:"url"`
			Body     json.RawMessage `json:"body"`
		}
		if err := json.Unmarshal(line, &l); err != nil {
			return fmt.Errorf("fakellm: run-batch: %s: %w", in, err)
		}
		s.bmu.Lock()
		s.runnerLines++
		n := s.runnerLines
		s.bmu.Unlock()
		req := &http.Request{Method: http.MethodPost, URL: &url.URL{Path: l.URL}, Header: http.Header{}}
		rep := s.decide(req, l.Body)
		if rep.hang {
			continue
		}
		status, body := rep.status, rep.body
		if rep.hold || rep.write != nil || rep.sse {
			status, body = http.StatusInternalServerError, errorJSON("fakellm: this answer cannot be batched")
		}
		head := fmt.Sprintf(`{"id":"vllm-%032x","custom_id":%q,"response":{"status_code":`, n, l.CustomID)
		reqID := fmt.Sprintf(`"request_id":"vllm-batch-%032x"`, n)
		switch {
		case status == 0 || status == http.StatusOK:
			fmt.Fprintf(&b, `%s200,%s,"body":%s},"error":null}`+"\n", head, reqID, body)
		case rep.raised:
			m, _ := json.Marshal(errorText(body))
			fmt.Fprintf(&b, `%s400,%s,"body":null},"error":%s}`+"\n", head, reqID, m)
		default:
			m, _ := json.Marshal(errorText(body))
			typ := "BadRequestError"
			if status >= 500 {
				typ = "InternalServerError"
			}
			fmt.Fprintf(&b, `%s%d,%s,"body":null},"error":{"error":{"message":%s,"type":%q,"param":null,"code":%d}}}`+"\n",
				head, status, reqID, m, typ, status)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	tmp := filepath.Join(filepath.Dir(out), ".fakellm-"+filepath.Base(out))
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, out)
}

// errorText is the message of an error body in the shapes the script's
// servers write, or the body itself.
func errorText(body string) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal([]byte(body), &v) != nil {
		return body
	}
	var s string
	if json.Unmarshal(v.Error, &s) == nil {
		return s
	}
	var obj struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(v.Error, &obj) == nil && obj.Message != "" {
		return obj.Message
	}
	if v.Message != "" {
		return v.Message
	}
	return body
}

// runBatchDir answers round files in dir as they appear (each
// NAME.in.jsonl without its NAME.out.jsonl), as a person running the
// command lessongen prints would, until rounds are answered or waitCap
// passes without a new one.
func (s *Server) runBatchDir(dir string, rounds int) error {
	deadline := time.Now().Add(waitCap)
	for done := 0; done < rounds; {
		ins, _ := filepath.Glob(filepath.Join(dir, "*.in.jsonl"))
		found := false
		for _, in := range ins {
			out := strings.TrimSuffix(in, ".in.jsonl") + ".out.jsonl"
			if _, err := os.Stat(out); err == nil {
				continue
			}
			if err := s.RunBatch(in, out); err != nil {
				return err
			}
			found = true
			done++
			deadline = time.Now().Add(waitCap)
			break
		}
		if !found {
			if time.Now().After(deadline) {
				return fmt.Errorf("fakellm: run-batch: %d of %d rounds answered; no new round in %s for %s", done, rounds, dir, waitCap)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	return nil
}
