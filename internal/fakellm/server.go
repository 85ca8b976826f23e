// Package fakellm is a scripted, OpenAI-compatible chat completions server
// for tests and benchmarks. It speaks real HTTP on 127.0.0.1 so the real
// client, its retries and its wire format are exercised, and answers by
// script rather than by model, so scenarios stay deterministic even when
// several conversations run at once.
package fakellm

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Recorded is one request as the server received it.
type Recorded struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
	Time   time.Time
}

// Server is a running fake. Its methods are safe for concurrent use.
type Server struct {
	script  Script
	srv     *httptest.Server
	closing chan struct{}
	once    sync.Once
	// released ends every Hold; see Release.
	released    chan struct{}
	releaseOnce sync.Once

	mu       sync.Mutex
	requests []Recorded
	arrived  chan struct{} // closed and replaced on every request
	failures map[failureKey]int
	served   int // answers sent, for completion ids

	// Batch API state (batch.go), under its own lock: a batch's lines are
	// answered by decide, which takes mu.
	bmu     sync.Mutex
	files   map[string]string
	batches map[string]*fakeBatch
	uploads int
	cancels int
	// runnerLines counts lines the offline runner answered (runbatch.go).
	runnerLines int

	conns atomic.Int64 // connections accepted
	// imageStalls counts image requests, for ImagesOptions.Stall.
	imageStalls atomic.Int64
	cut         atomic.Bool // a stream was cut (StreamOptions.CutOnce)
	// inFlight counts chat and image requests being answered; peak is
	// its most.
	inFlight, peak atomic.Int64

	// timer starts a wait of pause: a real timer, or a test's clock, so
	// the latency can be checked without timing it.
	timer func(d time.Duration) (<-chan time.Time, func() bool)
}

func realTimer(d time.Duration) (<-chan time.Time, func() bool) {
	t := time.NewTimer(d)
	return t.C, t.Stop
}

type failureKey struct {
	rule, turn int
	conv       string
}

// Start starts a server for s and closes it when the test ends.
func Start(t testing.TB, s Script) *Server {
	t.Helper()
	srv, err := StartServer(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// StartServer starts a server for s on a loopback port. The caller must
// Close it.
func StartServer(s Script) (*Server, error) { return startServer(s, realTimer) }

func startServer(s Script, timer func(time.Duration) (<-chan time.Time, func() bool)) (*Server, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("fakellm: listen: %w", err)
	}
	fs := &Server{
		script:   s,
		closing:  make(chan struct{}),
		released: make(chan struct{}),
		arrived:  make(chan struct{}),
		failures: make(map[failureKey]int),
		timer:    timer,
	}
	fs.srv = httptest.NewUnstartedServer(http.HandlerFunc(fs.serveHTTP))
	fs.srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			fs.conns.Add(1)
		}
	}
	fs.srv.Listener.Close()
	fs.srv.Listener = l
	fs.srv.Start()
	return fs, nil
}

// Conns is the number of connections accepted so far.
func (s *Server) Conns() int { return int(s.conns.Load()) }

// PeakInFlight is the most chat and image requests the server was answering at
// once: what a client's bound on concurrent requests let through.
func (s *Server) PeakInFlight() int { return int(s.peak.Load()) }

// URL is the base URL, ending in /v1.
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Close stops the server. Hung answers end, and Close does not wait for
// clients that never hang up.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.closing)
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
}

// Release lets every held answer (Turn.Hold) go, now and from now on.
func (s *Server) Release() {
	s.releaseOnce.Do(func() { close(s.released) })
}

// Requests returns every request received so far, in arrival order.
func (s *Server) Requests() []Recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Recorded, len(s.requests))
	copy(out, s.requests)
	return out
}

// RequestCount is the number of requests received so far.
func (s *Server) RequestCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// WaitForRequests blocks until at least n requests have arrived or ctx ends.
func (s *Server) WaitForRequests(ctx context.Context, n int) error {
	for {
		s.mu.Lock()
		got, ch := len(s.requests), s.arrived
		s.mu.Unlock()
		if got >= n {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("fakellm: %d of %d requests arrived: %w", got, n, ctx.Err())
		case <-ch:
		}
	}
}

// Wire shapes, as OpenAI sends them.
type (
	chatRequest struct {
		Model         string `json:"model"`
		Stream        bool   `json:"stream"`
		StreamOptions *struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
		ParallelToolCalls *bool         `json:"parallel_tool_calls"`
		MaxTokens         *int64        `json:"max_tokens"`
		ReasoningEffort   string        `json:"reasoning_effort"`
		Messages          []chatMessage `json:"messages"`
		Tools             []struct {
			Function struct {
				Strict *bool `json:"strict"`
			} `json:"function"`
		} `json:"tools"`
	}
	chatMessage struct {
		Role      string          `json:"role"`
		Content   json.RawMessage `json:"content"`
		ToolCalls []struct {
			Function struct {
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	}
	completion struct {
		ID      string   `json:"id"`
		Object  string   `json:"object"`
		Created int64    `json:"created"`
		Model   string   `json:"model"`
		Choices []choice `json:"choices"`
		Usage   *usage   `json:"usage,omitempty"`
	}
	choice struct {
		Index        int             `json:"index"`
		Message      answer          `json:"message"`
		Logprobs     json.RawMessage `json:"logprobs"`
		FinishReason string          `json:"finish_reason"`
	}
	answer struct {
		Role      string     `json:"role"`
		Content   *string    `json:"content"`
		ToolCalls []toolCall `json:"tool_calls,omitempty"`
	}
	toolCall struct {
		ID       string   `json:"id,omitempty"`
		Type     string   `json:"type"`
		Function function `json:"function"`
	}
	function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	usage struct {
		PromptTokens        int64         `json:"prompt_tokens"`
		CompletionTokens    int64         `json:"completion_tokens"`
		TotalTokens         int64         `json:"total_tokens"`
		PromptTokensDetails promptDetails `json:"prompt_tokens_details"`
	}
	promptDetails struct {
		CachedTokens int64 `json:"cached_tokens"`
	}
)

// reply is a decided answer.
type reply struct {
	status     int
	body       string
	retryAfter string
	hang       bool
	hold       bool
	sse        bool // body is Server-Sent Events
	raised     bool // the failure is an exception to an offline runner (Turn.BatchRaised)
	// write, when set, writes the body as it is sent (runaway answers),
	// instead of body.
	write func(ctx context.Context, w io.Writer)
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && r.URL.Path == "/v1/models" {
		// Not recorded: scenarios count chat requests.
		s.models(w)
		return
	}
	if s.batchRoute(w, r) {
		return
	}
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for p := s.peak.Load(); n > p && !s.peak.CompareAndSwap(p, n); p = s.peak.Load() {
	}
	body, err := io.ReadAll(r.Body)
	var rep reply
	if err != nil {
		rep = errorReply(http.StatusBadRequest, "fakellm: reading request body: "+err.Error())
	} else {
		rep = s.decide(r, body)
	}
	// Recorded only once the answer (and any failure count) is settled, so a
	// test that saw this request arrive cannot race it with the next one.
	s.record(r, body)

	if !s.pause(r.Context(), time.Duration(s.script.Latency)) {
		abort()
	}
	if im := s.script.Images; im != nil && r.URL.Path == imagesPath && !s.pause(r.Context(), time.Duration(im.Delay)) {
		abort()
	}
	if rep.hang {
		s.pause(r.Context(), -1)
		abort()
	}
	if rep.hold && !s.hold(r.Context()) {
		abort()
	}
	if rep.retryAfter != "" {
		w.Header().Set("Retry-After", rep.retryAfter)
	}
	if rep.write != nil {
		ct := "application/json"
		if rep.sse {
			ct = "text/event-stream"
		}
		w.Header().Set("Content-Type", ct)
		w.WriteHeader(rep.status)
		rep.write(r.Context(), w)
		return
	}
	if rep.sse {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Content-Length", strconv.Itoa(len(rep.body)))
		w.WriteHeader(rep.status)
		_, _ = io.WriteString(w, rep.body)
		return
	}
	writeRaw(w, rep.status, rep.body)
}

// decide picks the answer to a request, counting scripted failures.
func (s *Server) decide(r *http.Request, body []byte) reply {
	if r.Method == http.MethodPost && r.URL.Path == imagesPath {
		return s.imageReply(body)
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		return errorReply(http.StatusNotFound, fmt.Sprintf("fakellm: no route for %s %s (want POST /v1/chat/completions)", r.Method, r.URL.Path))
	}
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return errorReply(http.StatusBadRequest, "fakellm: request body is not a chat request: "+err.Error())
	}

	if rep, refused := s.quirk(req); refused {
		return rep
	}
	if n := s.script.Quirks.ContextTokens; n > 0 && len(body)/4+1 > n {
		return reply{status: http.StatusBadRequest, body: fmt.Sprintf(
			`{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it (n_ctx %d, prompt %d tokens)","type":"exceed_context_size_error"}}`, n, len(body)/4+1)}
	}

	task, turnIdx := taskText(req.Messages), 0
	for _, m := range req.Messages {
		if m.Role == "assistant" {
			turnIdx++
		}
	}
	ruleIdx, rule := s.match(task)
	if rule == nil {
		return errorReply(http.StatusBadRequest, fmt.Sprintf(
			"fakellm: no rule of %d matches this request; its task text begins %q", len(s.script.Rules), prefix(task, 160)))
	}

	turn := Turn{Content: "done"}
	switch {
	case turnIdx < len(rule.Turns):
		turn = rule.Turns[turnIdx]
	case rule.Repeat && len(rule.Turns) > 0:
		turn = rule.Turns[len(rule.Turns)-1]
	}

	failing := (turn.Status != 0 || turn.Hang) && s.fail(failureKey{ruleIdx, turnIdx, convKey(req.Messages)}, turn.Times)
	if !failing {
		turn.StreamError = ""
	}
	if failing {
		if turn.Hang {
			return reply{hang: true}
		}
		if turn.StreamError != "" && req.Stream {
			return s.answer(req, body, turnIdx, turn)
		}
		rep := reply{status: turn.Status, body: turn.ErrorBody, retryAfter: turn.RetryAfter, raised: turn.BatchRaised}
		if rep.body == "" {
			rep.body = errorJSON(fmt.Sprintf("fakellm: scripted %d %s", turn.Status, http.StatusText(turn.Status)))
		}
		return rep
	}
	if turn.Endless || turn.HugeBytes > 0 {
		return s.runaway(req, turn)
	}
	rep := s.answer(req, body, turnIdx, turn)
	rep.hold = turn.Hold
	return rep
}

// models lists Script.Models as OpenAI's GET /models does; without any,
// it answers 404 like servers that do not have the route.
func (s *Server) models(w http.ResponseWriter) {
	if len(s.script.Models) == 0 {
		writeRaw(w, http.StatusNotFound, errorJSON("fakellm: no route for GET /v1/models"))
		return
	}
	type model struct {
		ID       string `json:"id"`
		Object   string `json:"object"`
		Shutdown string `json:"shutdown_date,omitempty"`
	}
	list := struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}{Object: "list"}
	for _, id := range s.script.Models {
		list.Data = append(list.Data, model{ID: id, Object: "model", Shutdown: s.script.ShutdownDates[id]})
	}
	b, _ := json.Marshal(list)
	writeRaw(w, http.StatusOK, string(b))
}

// openAIUnsupported is OpenAI's 400 for a field a model does not take,
// as its reasoning models answer parallel_tool_calls and max_tokens
// (servers.md, "Refusals by wording").
func openAIUnsupported(field, more string) reply {
	return reply{status: http.StatusBadRequest, body: `{"error":{"message":"Unsupported parameter: '` + field +
		`' is not supported with this model.` + more + `","type":"invalid_request_error","param":"` + field + `","code":"unsupported_parameter"}}`}
}

// azureUnknown is newer Azure OpenAI API versions' 400 for a field they
// do not know (servers.md, "Refusals by wording").
func azureUnknown(field string) reply {
	return reply{status: http.StatusBadRequest, body: `{"error":{"message":"Unknown parameter: '` + field +
		`'.","type":"invalid_request_error","param":"` + field + `","code":"unknown_parameter"}}`}
}

// quirk answers a request the way a server with the script's quirks
// refuses it, with that server's own status and body.
func (s *Server) quirk(req chatRequest) (reply, bool) {
	q := s.script.Quirks
	if q.NoJinja && len(req.Tools) > 0 {
		// llama.cpp: oaicompat_chat_params_parse throws runtime_error
		// "tools param requires --jinja flag", answered by
		// format_error_response as a 500 server_error.
		return reply{status: http.StatusInternalServerError,
			body: `{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}`}, true
	}
	if q.NoAutoToolChoice && len(req.Tools) > 0 {
		// vLLM's ErrorResponse as its server sends it today
		// (vllm/entrypoints/openai/engine/protocol.py at 040a2cc2:
		// {"error": ErrorInfo}); before, it was flat, as RejectStrict's.
		return reply{status: http.StatusBadRequest,
			body: `{"error":{"message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","param":null,"code":400}}`}, true
	}
	if q.AzureParallelToolCalls && req.ParallelToolCalls != nil {
		return reply{status: http.StatusBadRequest,
			body: `{"error":{"message":"Unrecognized request argument supplied: parallel_tool_calls","type":"invalid_request_error","param":null,"code":null}}`}, true
	}
	if q.OpenAIReasoning && req.ParallelToolCalls != nil {
		return openAIUnsupported("parallel_tool_calls", ""), true
	}
	if q.OpenAIReasoning && req.MaxTokens != nil {
		return openAIUnsupported("max_tokens", " Use 'max_completion_tokens' instead."), true
	}
	if q.ToolsNeedNoReasoning && len(req.Tools) > 0 && req.ReasoningEffort != "none" {
		return reply{status: http.StatusBadRequest,
			body: `{"error":{"message":"Function tools with reasoning_effort are not supported for ` + req.Model + ` in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.","type":"invalid_request_error","param":"reasoning_effort","code":null}}`}, true
	}
	if q.AzureUnknownParameter && req.ParallelToolCalls != nil {
		return azureUnknown("parallel_tool_calls"), true
	}
	if q.AzureUnknownParameter && req.StreamOptions != nil {
		return azureUnknown("stream_options"), true
	}
	if q.AzureStreamOptions && req.StreamOptions != nil {
		return reply{status: http.StatusBadRequest,
			body: `{"error":{"message":"Unrecognized request argument supplied: stream_options","type":"invalid_request_error","param":null,"code":null}}`}, true
	}
	if q.OllamaNoTools && len(req.Tools) > 0 {
		// ollama/ollama fb30760: server/routes.go scheduleRunner prefixes
		// CheckCapabilities' "does not support tools" (server/images.go)
		// with the model's full name; the OpenAI layer wraps a 400 as
		// openai.NewError (openai/openai.go): "invalid_request_error".
		name := req.Model
		if !strings.Contains(name, ":") {
			name += ":latest"
		}
		return reply{status: http.StatusBadRequest,
			body: `{"error":{"message":"registry.ollama.ai/library/` + name + ` does not support tools","type":"invalid_request_error","param":null,"code":null}}`}, true
	}
	if q.LlamaCppNoToolStream && len(req.Tools) > 0 && req.Stream {
		return reply{status: http.StatusInternalServerError,
			body: `{"error":{"code":500,"message":"Cannot use tools with stream","type":"server_error"}}`}, true
	}
	if q.LlamaCppNoImages {
		for _, m := range req.Messages {
			if bytes.Contains(m.Content, []byte(`"image_url"`)) {
				return reply{status: http.StatusInternalServerError,
					body: `{"error":{"code":500,"message":"image input is not supported - hint: if this is unexpected, you may need to provide the mmproj","type":"server_error"}}`}, true
			}
		}
	}
	if q.RejectStrict {
		// Older vLLM: pydantic's extra="forbid" on its request models, and
		// the flat ErrorResponse of those releases.
		for _, t := range req.Tools {
			if t.Function.Strict != nil {
				return reply{status: http.StatusBadRequest,
					body: `{"object":"error","message":"[{'type': 'extra_forbidden', 'loc': ('body', 'tools', 0, 'function', 'strict'), 'msg': 'Extra inputs are not permitted', 'input': True}]","type":"BadRequestError","param":null,"code":400}`}, true
			}
		}
	}
	if q.OllamaArgs {
		for _, m := range req.Messages {
			for _, tc := range m.ToolCalls {
				var obj map[string]any
				if json.Unmarshal([]byte(tc.Function.Arguments), &obj) != nil {
					// ollama/ollama fb30760: openai.FromChatRequest fails
					// (openai/openai.go), and ChatMiddleware answers
					// openai.NewError(400, …) (middleware/openai.go).
					return reply{status: http.StatusBadRequest, body: `{"error":{"message":"invalid tool call arguments","type":"invalid_request_error","param":null,"code":null}}`}, true
				}
			}
		}
	}
	return reply{}, false
}

// hold waits for Release unless the client hangs up or the server closes;
// it reports whether it was released.
func (s *Server) hold(ctx context.Context) bool {
	select {
	case <-s.released:
		return true
	case <-ctx.Done():
	case <-s.closing:
	}
	return false
}

func errorReply(status int, msg string) reply {
	return reply{status: status, body: errorJSON(msg)}
}

// abort drops the connection without an answer; merely returning from the
// handler would send an empty 200.
func abort() { panic(http.ErrAbortHandler) }

func (s *Server) record(r *http.Request, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, Recorded{
		Method: r.Method,
		Path:   r.URL.Path,
		Header: r.Header.Clone(),
		Body:   body,
		Time:   time.Now(),
	})
	close(s.arrived)
	s.arrived = make(chan struct{})
}

// match returns the first rule whose strings all occur in the task text.
func (s *Server) match(task string) (int, *Rule) {
	for i := range s.script.Rules {
		r := &s.script.Rules[i]
		ok := true
		for _, m := range r.Match {
			if !strings.Contains(task, m) {
				ok = false
				break
			}
		}
		if ok {
			return i, r
		}
	}
	return -1, nil
}

// fail reports whether this request gets the scripted failure, counting
// failures per rule, turn and conversation so a retried turn fails `times`
// times and then succeeds.
func (s *Server) fail(k failureKey, times int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if times != -1 && s.failures[k] >= max(times, 1) {
		return false
	}
	s.failures[k]++
	return true
}

// pause waits d (forever when d < 0) unless the client hangs up or the
// server closes; it reports whether the wait ran to its end.
func (s *Server) pause(ctx context.Context, d time.Duration) bool {
	if d == 0 {
		return true
	}
	var done <-chan time.Time
	if d > 0 {
		c, stop := s.timer(d)
		defer stop()
		done = c
	}
	select {
	case <-done:
		return true
	case <-ctx.Done():
	case <-s.closing:
	}
	return false
}

func (s *Server) answer(req chatRequest, body []byte, turnIdx int, t Turn) reply {
	a := answer{Role: "assistant"}
	// Like OpenAI, a turn that only calls tools has content null.
	if !t.NullContent && (t.Content != "" || len(t.ToolCalls) == 0) {
		a.Content = &t.Content
	}
	outLen := len(t.Content)
	for j, c := range t.ToolCalls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("call_t%d_%d", turnIdx, j)
		}
		if t.OmitIDs {
			id = ""
		}
		args := c.Arguments
		if strings.Contains(args, digestMark) {
			args = strings.ReplaceAll(args, digestMark, digest(req.Messages))
		}
		a.ToolCalls = append(a.ToolCalls, toolCall{
			ID: id, Type: "function",
			Function: function{Name: c.Name, Arguments: args},
		})
		outLen += len(c.Name) + len(args)
	}
	finish := "stop"
	if len(a.ToolCalls) > 0 {
		finish = "tool_calls"
	}

	s.mu.Lock()
	s.served++
	n := s.served
	s.mu.Unlock()

	// Token counts are rough but deterministic: about 4 bytes a token, and
	// every turn after the first "hits the cache" for half its prompt.
	u := usage{PromptTokens: int64(len(body)/4 + 1), CompletionTokens: int64(outLen/4 + 1)}
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
	if turnIdx > 0 {
		u.PromptTokensDetails.CachedTokens = u.PromptTokens / 2
	}
	id := "chatcmpl-fake-" + strconv.Itoa(n)
	if s.script.Created != 0 {
		sum := sha256.Sum256(body)
		id = "chatcmpl-fake-" + hex.EncodeToString(sum[:6])
	}
	cc := completion{
		ID:      id,
		Object:  "chat.completion",
		Created: cmp.Or(s.script.Created, time.Now().Unix()),
		Model:   req.Model,
		Choices: []choice{{Message: a, Logprobs: json.RawMessage("null"), FinishReason: finish}},
		Usage:   &u,
	}
	if s.script.Quirks.NoUsage {
		cc.Usage = nil
	}
	if req.Stream {
		return s.streamReply(cc, req.StreamOptions != nil && req.StreamOptions.IncludeUsage, t)
	}
	b, err := json.Marshal(cc)
	if err != nil {
		return errorReply(http.StatusInternalServerError, "fakellm: "+err.Error())
	}
	return reply{status: http.StatusOK, body: string(b)}
}

// taskText is what rules match against: the system messages and the first
// user message.
func taskText(msgs []chatMessage) string {
	var parts []string
	user := false
	for _, m := range msgs {
		switch {
		case m.Role == "system" || m.Role == "developer":
			parts = append(parts, contentText(m.Content))
		case m.Role == "user" && !user:
			parts = append(parts, contentText(m.Content))
			user = true
		}
	}
	return strings.Join(parts, "\n")
}

// digestMark in a scripted call's arguments stands for digest.
const digestMark = "{{digest}}"

// digest is a short hash of a conversation as the model reads it: each
// message's role, content and tool calls' arguments.
func digest(msgs []chatMessage) string {
	h := sha256.New()
	for _, m := range msgs {
		fmt.Fprintf(h, "%s\x00%s\x00", m.Role, contentText(m.Content))
		for _, c := range m.ToolCalls {
			fmt.Fprintf(h, "%s\x00", c.Function.Arguments)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:8]
}

// convKey identifies a conversation by its first two messages, which stay
// the same for every turn of it.
func convKey(msgs []chatMessage) string {
	h := sha256.New()
	for i, m := range msgs {
		if i == 2 {
			break
		}
		fmt.Fprintf(h, "%s\x00%s\x00", m.Role, contentText(m.Content))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// contentText reads content sent as a string, null, or an array of parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return ""
}

func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func errorJSON(msg string) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": msg, "type": "server_error", "param": nil, "code": nil,
	}})
	return string(b)
}

// writeRaw labels JSON-looking bodies as JSON and the rest as text, as real
// servers and proxies do.
func writeRaw(w http.ResponseWriter, status int, body string) {
	ct := "text/plain; charset=utf-8"
	if t := strings.TrimSpace(body); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		ct = "application/json"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}
