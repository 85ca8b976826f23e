package fakellm

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The Batch API as OpenAI serves it: POST /v1/files (multipart, purpose
// "batch"), POST /v1/batches, GET /v1/batches (list) and /v1/batches/{id},
// GET /v1/files/{id}/content. Each line of a batch is answered like a chat
// request from the same script, so scripted failures become failed lines.
// Script.NoBatch answers 404 there instead, as llama.cpp, Ollama and vLLM's
// OpenAI server do.

// batchStates is the order a batch goes through; each GET of it moves it one
// step, so a client must poll.
var batchStates = []string{"validating", "in_progress", "finalizing", "completed"}

// BatchFaults are what a broken or hostile server may do on the Batch API
// (issue #37); no known server does them, so they imitate no source.
type BatchFaults struct {
	// IDEchoesKey names each batch after the bearer token that created
	// it, as a server that builds ids from the request might.
	IDEchoesKey bool `json:"id_echoes_key,omitempty"`
	// IDSuffix is appended to each batch's id, e.g. "/../../models": a
	// server naming a route instead of a batch.
	IDSuffix string `json:"id_suffix,omitempty"`
	// PollStatus answers every GET /v1/batches/{id} with this status
	// (e.g. 503), for ever.
	PollStatus int `json:"poll_status,omitempty"`
	// PollHang never answers GET /v1/batches/{id}: the request is held
	// until the client gives up.
	PollHang bool `json:"poll_hang,omitempty"`
	// FailMessage ends every batch "failed" at its first poll, with this
	// message in its errors, as OpenAI reports a batch that did not
	// validate ({"errors":{"object":"list","data":[{"code",
	// "message","param","line"}]}}).
	FailMessage string `json:"fail_message,omitempty"`
}

type fakeBatch struct {
	ID       string `json:"id"`
	Input    string `json:"input_file_id"`
	Endpoint string `json:"endpoint"`
	Window   string `json:"completion_window"`
	step     int
	output   string // file ids once completed
	failMsg  string // FailMessage, once failed
	errors   string
	total    int
	failed   int
}

// batchRoute reports whether r is a Batch API request, answering it.
func (s *Server) batchRoute(w http.ResponseWriter, r *http.Request) bool {
	p := r.URL.Path
	if !strings.HasPrefix(p, "/v1/files") && !strings.HasPrefix(p, "/v1/batches") {
		return false
	}
	s.record(r, nil)
	if s.script.Batch.PollHang && r.Method == http.MethodGet && strings.HasPrefix(p, "/v1/batches/") {
		select {
		case <-r.Context().Done():
		case <-s.closing:
		}
		return true
	}
	s.bmu.Lock()
	defer s.bmu.Unlock()
	if s.script.NoBatch {
		writeRaw(w, http.StatusNotFound, errorJSON("fakellm: no route for "+r.Method+" "+p))
		return true
	}
	switch {
	case r.Method == http.MethodPost && p == "/v1/files":
		s.uploadFile(w, r)
	case r.Method == http.MethodPost && p == "/v1/batches":
		s.createBatch(w, r)
	case r.Method == http.MethodGet && (p == "/v1/batches" || p == "/v1/files"):
		writeRaw(w, http.StatusOK, `{"object":"list","data":[],"has_more":false}`)
	case r.Method == http.MethodPost && strings.HasPrefix(p, "/v1/batches/") && strings.HasSuffix(p, "/cancel"):
		id := strings.TrimSuffix(strings.TrimPrefix(p, "/v1/batches/"), "/cancel")
		b, ok := s.batches[id]
		if !ok {
			writeRaw(w, http.StatusNotFound, errorJSON("fakellm: no batch "+id))
			return true
		}
		s.cancels++
		out := strings.Replace(b.json(), `"status":"`+batchStates[b.step]+`"`, `"status":"cancelling"`, 1)
		writeRaw(w, http.StatusOK, out)
	case r.Method == http.MethodGet && strings.HasPrefix(p, "/v1/batches/"):
		s.getBatch(w, strings.TrimPrefix(p, "/v1/batches/"))
	case r.Method == http.MethodGet && strings.HasSuffix(p, "/content"):
		id := strings.TrimSuffix(strings.TrimPrefix(p, "/v1/files/"), "/content")
		data, ok := s.files[id]
		if !ok {
			writeRaw(w, http.StatusNotFound, errorJSON("fakellm: no file "+id))
			return true
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = io.WriteString(w, data)
	default:
		writeRaw(w, http.StatusNotFound, errorJSON("fakellm: no route for "+r.Method+" "+p))
	}
	return true
}

func (s *Server) addFile(data string) string {
	id := fmt.Sprintf("file-%d", len(s.files)+1)
	if s.files == nil {
		s.files = map[string]string{}
	}
	s.files[id] = data
	return id
}

func (s *Server) uploadFile(w http.ResponseWriter, r *http.Request) {
	f, _, err := r.FormFile("file")
	if err != nil || r.FormValue("purpose") != "batch" {
		writeRaw(w, http.StatusBadRequest, errorJSON("fakellm: want a multipart file with purpose batch"))
		return
	}
	data, _ := io.ReadAll(f)
	id := s.addFile(string(data))
	s.uploads++
	writeRaw(w, http.StatusOK, fmt.Sprintf(`{"id":%q,"object":"file","bytes":%d,"created_at":%d,"filename":"batch.jsonl","purpose":"batch","status":"processed"}`,
		id, len(data), time.Now().Unix()))
}

func (s *Server) createBatch(w http.ResponseWriter, r *http.Request) {
	var b fakeBatch
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &b); err != nil || s.files[b.Input] == "" ||
		b.Endpoint != "/v1/chat/completions" || b.Window != "24h" {
		writeRaw(w, http.StatusBadRequest, errorJSON("fakellm: want input_file_id of an uploaded file, endpoint /v1/chat/completions, completion_window 24h"))
		return
	}
	b.ID = fmt.Sprintf("batch_%d", len(s.batches)+1)
	if s.script.Batch.IDEchoesKey {
		b.ID += "_" + strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	}
	b.ID += s.script.Batch.IDSuffix
	if s.batches == nil {
		s.batches = map[string]*fakeBatch{}
	}
	s.batches[b.ID] = &b
	writeRaw(w, http.StatusOK, b.json())
}

func (s *Server) getBatch(w http.ResponseWriter, id string) {
	b, ok := s.batches[id]
	if !ok {
		writeRaw(w, http.StatusNotFound, errorJSON("fakellm: no batch "+id))
		return
	}
	if st := s.script.Batch.PollStatus; st != 0 {
		writeRaw(w, st, errorJSON(fmt.Sprintf("fakellm: scripted %d on a poll", st)))
		return
	}
	if m := s.script.Batch.FailMessage; m != "" {
		b.failMsg = m
		writeRaw(w, http.StatusOK, b.json())
		return
	}
	if b.step < len(batchStates)-1 {
		b.step++
		if batchStates[b.step] == "completed" {
			s.runBatch(b)
		}
	}
	writeRaw(w, http.StatusOK, b.json())
}

// runBatch answers every line, writing the output and error files.
func (s *Server) runBatch(b *fakeBatch) {
	var out, errs strings.Builder
	for i, line := range strings.Split(strings.TrimSpace(s.files[b.Input]), "\n") {
		var in struct {
			CustomID string          `json:"custom_id"`
			Body     json.RawMessage `json:"body"`
		}
		_ = json.Unmarshal([]byte(line), &in)
		req := &http.Request{Method: http.MethodPost, URL: &url.URL{Path: "/v1/chat/completions"}, Header: http.Header{"X-Fakellm-Batch": {b.ID}}}
		rep := s.decide(req, in.Body)
		s.record(req, in.Body)
		status, body := rep.status, rep.body
		if rep.hang || rep.hold || rep.write != nil || rep.sse {
			status, body = http.StatusInternalServerError, errorJSON("fakellm: this answer cannot be batched")
		}
		if status == 0 {
			status = http.StatusOK
		}
		dst := &out
		if status != http.StatusOK {
			dst, b.failed = &errs, b.failed+1
		}
		fmt.Fprintf(dst, `{"id":"batch_req_%d","custom_id":%q,"response":{"status_code":%d,"request_id":"req_%d","body":%s},"error":null}`+"\n",
			i, in.CustomID, status, i, body)
		b.total++
	}
	b.output = s.addFile(out.String())
	if errs.Len() > 0 {
		b.errors = s.addFile(errs.String())
	}
}

func (b *fakeBatch) json() string {
	m := map[string]any{
		"id": b.ID, "object": "batch", "endpoint": b.Endpoint, "errors": nil,
		"input_file_id": b.Input, "completion_window": b.Window,
		"status": batchStates[b.step], "created_at": 1700000000,
		"request_counts": map[string]int{"total": b.total, "completed": b.total - b.failed, "failed": b.failed},
		"metadata":       nil,
	}
	if b.output != "" {
		m["output_file_id"] = b.output
	}
	if b.errors != "" {
		m["error_file_id"] = b.errors
	}
	if b.failMsg != "" {
		m["status"] = "failed"
		m["errors"] = map[string]any{"object": "list", "data": []map[string]any{
			{"code": "invalid_request", "message": b.failMsg, "param": nil, "line": nil}}}
	}
	out, _ := json.Marshal(m)
	return string(out)
}

// Uploads is the number of batch input files uploaded so far.
func (s *Server) Uploads() int {
	s.bmu.Lock()
	defer s.bmu.Unlock()
	return s.uploads
}

// Cancels is the number of batch cancellations asked for so far.
func (s *Server) Cancels() int {
	s.bmu.Lock()
	defer s.bmu.Unlock()
	return s.cancels
}

// Batches is the number of batches created so far.
func (s *Server) Batches() int {
	s.bmu.Lock()
	defer s.bmu.Unlock()
	return len(s.batches)
}
