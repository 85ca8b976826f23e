package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lessongen/lessongen/internal/fakellm"
)

// fakeClock runs backoff instantly: Sleep advances virtual time.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.sleeps = append(c.sleeps, d)
	return nil
}

func (c *fakeClock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

const testKey = "sk-test-secret-key-0123456789"

func newClient(t *testing.T, cfg Config) *Client {
	t.Helper()
	if cfg.Model == "" {
		cfg.Model = "test-model"
	}
	if cfg.APIKey == "" {
		cfg.APIKey = testKey
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func userReq(text string) Request {
	return Request{Messages: []Message{
		{Role: RoleSystem, Content: "You are a test."},
		{Role: RoleUser, Content: text},
	}}
}

func providerError(t *testing.T, err error) *ProviderError {
	t.Helper()
	var pe *ProviderError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *ProviderError", err, err)
	}
	return pe
}

func TestRequestWireFormat(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Content: "ok"}}}}})
	temp, seed := 0.25, int64(7)
	c := newClient(t, Config{
		BaseURL: srv.URL(), Model: "llama3", Temperature: &temp, Seed: &seed, MaxTokens: 300,
	})
	req := Request{
		Messages: []Message{
			{Role: RoleSystem, Content: "sys"},
			{Role: RoleUser, Content: "task"},
			{Role: RoleAssistant, ToolCalls: []ToolCall{
				{ID: "call_a", Name: "add_text", Arguments: `{"text":"hi"}`},
				{ID: "call_b", Name: "list", Arguments: ""},
			}},
			{Role: RoleTool, ToolCallID: "call_a", Content: `{"ok":true}`},
			{Role: RoleTool, ToolCallID: "call_b", Content: "[]"},
		},
		Tools: []Tool{
			{
				Name: "add_text", Description: "Add a text box.", Strict: true,
				Parameters: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","maxLength":64}},"required":["text"],"additionalProperties":false}`),
			},
			{Name: "list"},
		},
	}
	resp, err := c.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Content != "done" || resp.Requests != 1 { // turn 1 of a one-turn rule
		t.Errorf("resp = %+v", resp)
	}

	recs := srv.Requests()
	if len(recs) != 1 {
		t.Fatalf("%d requests", len(recs))
	}
	if got := recs[0].Header.Get("Authorization"); got != "Bearer "+testKey {
		t.Errorf("Authorization = %q", got)
	}
	var body map[string]any
	if err := json.Unmarshal(recs[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{}
	mustJSON(t, `{
		"model": "llama3",
		"temperature": 0.25,
		"seed": 7,
		"max_tokens": 300,
		"parallel_tool_calls": true,
		"messages": [
			{"role": "system", "content": "sys"},
			{"role": "user", "content": "task"},
			{"role": "assistant", "tool_calls": [
				{"id": "call_a", "type": "function", "function": {"name": "add_text", "arguments": "{\"text\":\"hi\"}"}},
				{"id": "call_b", "type": "function", "function": {"name": "list", "arguments": "{}"}}
			]},
			{"role": "tool", "tool_call_id": "call_a", "content": "{\"ok\":true}"},
			{"role": "tool", "tool_call_id": "call_b", "content": "[]"}
		],
		"tools": [
			{"type": "function", "function": {
				"name": "add_text", "description": "Add a text box.", "strict": true,
				"parameters": {"type":"object","properties":{"text":{"type":"string","maxLength":64}},"required":["text"],"additionalProperties":false}
			}},
			{"type": "function", "function": {"name": "list", "parameters": {"type":"object","properties":{}}}}
		]
	}`, &want)
	if g, w := canon(t, body), canon(t, want); g != w {
		t.Errorf("request body:\n got %s\nwant %s", g, w)
	}
}

func TestMaxTokensFieldByHost(t *testing.T) {
	for _, tt := range []struct{ base, setting, field, other string }{
		{"https://api.openai.com/v1", "", "max_completion_tokens", "max_tokens"},
		{"https://API.OpenAI.com./v1", "auto", "max_completion_tokens", "max_tokens"},
		{"https://eu.api.openai.com/v1", "auto", "max_completion_tokens", "max_tokens"},
		{"https://mine.openai.azure.com/openai/v1", "auto", "max_completion_tokens", "max_tokens"},
		{"http://localhost:11434/v1", "auto", "max_tokens", "max_completion_tokens"},
		{"https://openai.com.evil.example/v1", "auto", "max_tokens", "max_completion_tokens"},
		{"https://api.openai.com/v1", "max_tokens", "max_tokens", "max_completion_tokens"},
		{"http://localhost:8000/v1", "max_completion_tokens", "max_completion_tokens", "max_tokens"},
	} {
		c := newClient(t, Config{BaseURL: tt.base, MaxTokens: 10, TokenField: tt.setting})
		p, err := c.params(userReq("x"))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(p)
		var m map[string]any
		mustJSON(t, string(b), &m)
		if m[tt.field] != float64(10) {
			t.Errorf("%s: %s = %v in %s", tt.base, tt.field, m[tt.field], b)
		}
		if _, ok := m[tt.other]; ok {
			t.Errorf("%s: unexpected %s in %s", tt.base, tt.other, b)
		}
	}
}

func TestOptionalParamsOmitted(t *testing.T) {
	c := newClient(t, Config{BaseURL: "http://localhost/v1"})
	p, err := c.params(userReq("x"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(p)
	for _, k := range []string{"temperature", "seed", "max_tokens", "max_completion_tokens", "tools"} {
		if strings.Contains(string(b), `"`+k+`"`) {
			t.Errorf("%s sent though unset: %s", k, b)
		}
	}
}

func TestInvalidRequest(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{}}})
	c := newClient(t, Config{BaseURL: srv.URL()})
	for name, req := range map[string]Request{
		"tool without id":   {Messages: []Message{{Role: RoleTool, Content: "x"}}},
		"call without id":   {Messages: []Message{{Role: RoleAssistant, ToolCalls: []ToolCall{{Name: "f"}}}}},
		"unknown role":      {Messages: []Message{{Role: "wizard"}}},
		"params not object": {Messages: []Message{{Role: RoleUser}}, Tools: []Tool{{Name: "f", Parameters: json.RawMessage(`[]`)}}},
	} {
		if _, err := c.Complete(context.Background(), req); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if n := srv.RequestCount(); n != 0 {
		t.Errorf("%d requests sent for invalid input", n)
	}
}

func TestNewValidates(t *testing.T) {
	if _, err := New(Config{}); err == nil {
		t.Error("no model: no error")
	}
	_, err := New(Config{Model: "m", BaseURL: "ftp://host/" + testKey, APIKey: testKey})
	if err == nil || strings.Contains(err.Error(), testKey) {
		t.Errorf("bad base URL: err = %v", err)
	}
}

func TestResponseToleratesCompatibleServers(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{
		{NullContent: true, OmitIDs: true, ToolCalls: []fakellm.FakeCall{
			{Name: "add_text", Arguments: `{"text":"a"}`},
			{Name: "add_text", Arguments: ""},
		}},
		{OmitIDs: true, Content: "more", ToolCalls: []fakellm.FakeCall{{Name: "f", Arguments: `{broken`}}},
	}}}})
	c := newClient(t, Config{BaseURL: srv.URL()})

	req := userReq("go")
	resp, err := c.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	m := resp.Message
	if m.Role != RoleAssistant || m.Content != "" || resp.FinishReason != "tool_calls" {
		t.Errorf("message = %+v finish %q", m, resp.FinishReason)
	}
	want := []ToolCall{
		{ID: "call_0", Name: "add_text", Arguments: `{"text":"a"}`},
		{ID: "call_1", Name: "add_text", Arguments: ""},
	}
	if fmt.Sprint(m.ToolCalls) != fmt.Sprint(want) {
		t.Errorf("tool calls = %+v, want %+v", m.ToolCalls, want)
	}
	if resp.Usage.PromptTokens == 0 || resp.Usage.CompletionTokens == 0 {
		t.Errorf("usage = %+v", resp.Usage)
	}

	// Ids stay unique across the conversation.
	req.Messages = append(req.Messages, m,
		Message{Role: RoleTool, ToolCallID: "call_0", Content: "ok"},
		Message{Role: RoleTool, ToolCallID: "call_1", Content: "ok"})
	resp, err = c.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Message.ToolCalls; len(got) != 1 || got[0].ID != "call_2" || got[0].Arguments != `{broken` {
		t.Errorf("second turn calls = %+v", got)
	}
	if resp.Message.Content != "more" || resp.Usage.CachedTokens == 0 {
		t.Errorf("second turn = %+v", resp)
	}
}

func TestResponseWithoutTypeUsageOrStringArguments(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,
			"tool_calls":[
				{"function":{"name":"f","arguments":"{}"}},
				{"id":"dup","function":{"name":"g","arguments":{"x":1}}},
				{"id":"dup","type":"function","function":{"name":"h","arguments":""}}
			]}}]}`)
	}))
	defer srv.Close()
	c := newClient(t, Config{BaseURL: srv.URL + "/v1"})
	resp, err := c.Complete(context.Background(), userReq("x"))
	if err != nil {
		t.Fatal(err)
	}
	want := []ToolCall{
		{ID: "call_0", Name: "f", Arguments: "{}"},
		{ID: "dup", Name: "g", Arguments: `{"x":1}`},
		{ID: "call_2", Name: "h", Arguments: ""},
	}
	if fmt.Sprint(resp.Message.ToolCalls) != fmt.Sprint(want) {
		t.Errorf("tool calls = %+v, want %+v", resp.Message.ToolCalls, want)
	}
	if resp.Usage != (Usage{}) {
		t.Errorf("usage = %+v, want zero", resp.Usage)
	}
}

func TestRetry429HonoursRetryAfter(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{
		{Status: 429, RetryAfter: "3", Times: 2, Content: "finally"},
	}}}})
	clk := newFakeClock()
	c := newClient(t, Config{BaseURL: srv.URL(), Clock: clk})
	resp, err := c.Complete(context.Background(), userReq("x"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Content != "finally" || resp.Requests != 3 {
		t.Errorf("resp = %+v", resp)
	}
	if got := fmt.Sprint(clk.Sleeps()); got != "[3s 3s]" {
		t.Errorf("sleeps = %s, want [3s 3s]", got)
	}
}

func TestRetryAfterMsRealClock(t *testing.T) {
	var n int
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		first := n == 1
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if first {
			w.Header().Set("Retry-After-Ms", "20")
			w.Header().Set("Retry-After", "60") // the ms header wins
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"error":{"message":"slow down","type":"rate_limit"}}`)
			return
		}
		io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`)
	}))
	defer srv.Close()
	c := newClient(t, Config{BaseURL: srv.URL + "/v1"})
	resp, err := c.Complete(context.Background(), userReq("x"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Requests != 2 || resp.Message.Content != "ok" {
		t.Errorf("resp = %+v", resp)
	}
}

func TestRepeated500(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{
		Status: 500, Times: -1,
		ErrorBody: `{"error":{"message":"model overloaded","type":"server_error","code":"overloaded"}}`,
	}}}}})
	clk := newFakeClock()
	c := newClient(t, Config{BaseURL: srv.URL(), Clock: clk})
	resp, err := c.Complete(context.Background(), userReq("x"))
	pe := providerError(t, err)
	if pe.StatusCode != 500 || pe.Message != "model overloaded" || pe.Code != "overloaded" || pe.Attempts != 5 || !pe.Retryable {
		t.Errorf("error = %+v", pe)
	}
	for _, s := range []string{"500", "model overloaded", "5 attempts"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q lacks %q", err, s)
		}
	}
	if resp.Requests != 5 || srv.RequestCount() != 5 {
		t.Errorf("requests: resp %d, server %d", resp.Requests, srv.RequestCount())
	}
	// Exponential backoff minus up to 25% jitter.
	sleeps := clk.Sleeps()
	if len(sleeps) != 4 {
		t.Fatalf("sleeps = %v", sleeps)
	}
	for i, d := range sleeps {
		hi := 500 * time.Millisecond << i
		if d > hi || d < hi*3/4 {
			t.Errorf("sleep %d = %v, want in [%v, %v]", i, d, hi*3/4, hi)
		}
	}
}

func TestMaxRetries(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Status: 503, Times: -1}}}}})
	for _, tt := range []struct{ cfg, want int }{{-1, 1}, {1, 2}, {0, 5}} {
		c := newClient(t, Config{BaseURL: srv.URL(), Clock: newFakeClock(), MaxRetries: tt.cfg})
		_, err := c.Complete(context.Background(), userReq(fmt.Sprint(tt.cfg)))
		if pe := providerError(t, err); pe.Attempts != tt.want {
			t.Errorf("MaxRetries %d: %d attempts, want %d", tt.cfg, pe.Attempts, tt.want)
		}
	}
}

func TestErrorBodies(t *testing.T) {
	tests := []struct {
		name   string
		turn   fakellm.Turn
		is     error
		status int
		msg    string
	}{
		{"string error", fakellm.Turn{Status: 404, ErrorBody: `{"error":"model 'llama9' not found, try pulling it first"}`},
			ErrNotFound, 404, "model 'llama9' not found, try pulling it first"},
		{"plain text", fakellm.Turn{Status: 400, ErrorBody: "Bad Request: context length exceeded\n"},
			nil, 400, "Bad Request: context length exceeded"},
		{"401", fakellm.Turn{Status: 401, ErrorBody: `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`},
			ErrAuth, 401, "Incorrect API key provided"},
		{"403 detail", fakellm.Turn{Status: 403, ErrorBody: `{"detail":"forbidden for this project"}`},
			ErrAuth, 403, "forbidden for this project"},
		{"message field", fakellm.Turn{Status: 422, ErrorBody: `{"message":"unknown field"}`},
			nil, 422, "unknown field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{tt.turn}}}})
			c := newClient(t, Config{BaseURL: srv.URL(), Clock: newFakeClock()})
			_, err := c.Complete(context.Background(), userReq("x"))
			pe := providerError(t, err)
			if pe.StatusCode != tt.status || pe.Message != tt.msg || pe.Retryable || pe.Attempts != 1 {
				t.Errorf("error = %+v", pe)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.is)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Error() = %q lacks the server message", err)
			}
			if srv.RequestCount() != 1 {
				t.Errorf("%d requests; 4xx must not be retried", srv.RequestCount())
			}
		})
	}
}

func TestNotAChatCompletion(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html>welcome</html>")
	}))
	defer srv.Close()
	c := newClient(t, Config{BaseURL: srv.URL + "/v1", Clock: newFakeClock()})
	_, err := c.Complete(context.Background(), userReq("x"))
	if !errors.Is(err, ErrBadResponse) || providerError(t, err).Attempts != 1 {
		t.Errorf("err = %v", err)
	}
}

func TestUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // now refuses connections
	clk := newFakeClock()
	c := newClient(t, Config{BaseURL: "http://" + addr + "/v1", Clock: clk, MaxRetries: 2})
	resp, err := c.Complete(context.Background(), userReq("x"))
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("err = %v, want ErrUnreachable", err)
	}
	pe := providerError(t, err)
	if pe.StatusCode != 0 || pe.Attempts != 3 || resp.Requests != 3 || len(clk.Sleeps()) != 2 {
		t.Errorf("error = %+v, requests %d, sleeps %v", pe, resp.Requests, clk.Sleeps())
	}
}

func TestTurnTimeout(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Hang: true, Times: -1}}}}})
	c := newClient(t, Config{BaseURL: srv.URL(), TurnTimeout: 50 * time.Millisecond})
	_, err := c.Complete(context.Background(), userReq("x"))
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
	if !strings.Contains(err.Error(), "did not answer within") || !strings.Contains(err.Error(), "50ms") {
		t.Errorf("err = %q", err)
	}
	if srv.RequestCount() != 1 {
		t.Errorf("%d requests; a timed-out turn is not retried", srv.RequestCount())
	}
}

func TestCallerDeadlineIsNotCalledTurnTimeout(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Hang: true}}}}})
	c := newClient(t, Config{BaseURL: srv.URL(), TurnTimeout: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := c.Complete(ctx, userReq("x"))
	if !errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "turn timeout") {
		t.Errorf("err = %v", err)
	}
}

func TestCancellation(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Hang: true, Times: -1}}}}})
	c := newClient(t, Config{BaseURL: srv.URL()})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := c.Complete(ctx, userReq("x"))
		errc <- err
	}()
	if err := srv.WaitForRequests(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	cancel()
	err := <-errc
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want Canceled", err)
	}
	if srv.RequestCount() != 1 {
		t.Errorf("%d requests; cancellation is never retried", srv.RequestCount())
	}

	// Already cancelled: nothing is sent.
	resp, err := c.Complete(ctx, userReq("y"))
	if !errors.Is(err, context.Canceled) || resp.Requests != 0 || srv.RequestCount() != 1 {
		t.Errorf("pre-cancelled: err %v, requests %d", err, resp.Requests)
	}
}

// blockingClock never lets a backoff finish, so cancellation must end it.
type blockingClock struct{ realClock }

func (blockingClock) Sleep(ctx context.Context, d time.Duration) error {
	<-ctx.Done()
	return ctx.Err()
}

func TestCancellationDuringBackoff(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Status: 500, Times: -1}}}}})
	c := newClient(t, Config{BaseURL: srv.URL(), Clock: blockingClock{}})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := c.Complete(ctx, userReq("x"))
		errc <- err
	}()
	if err := srv.WaitForRequests(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want Canceled", err)
	}
}

func TestKeyNeverInErrors(t *testing.T) {
	// The server echoes whatever it got, as some proxies do.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		key := strings.TrimPrefix(auth, "Bearer ")
		switch r.URL.Query().Get("shape") {
		case "string":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(401)
			fmt.Fprintf(w, `{"error":"invalid key %s"}`, key)
		case "text":
			w.WriteHeader(500)
			fmt.Fprintf(w, "upstream rejected header %q", auth)
		default:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(401)
			fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s","code":"bad_%s"}}`, key, key)
		}
	}))
	defer srv.Close()
	for _, shape := range []string{"openai", "string", "text"} {
		c := newClient(t, Config{
			BaseURL: srv.URL + "/v1", Clock: newFakeClock(), MaxRetries: -1,
			HTTPClient: &http.Client{Transport: queryTransport{"shape", shape}},
		})
		_, err := c.Complete(context.Background(), userReq("x"))
		if err == nil {
			t.Fatalf("%s: no error", shape)
		}
		if strings.Contains(err.Error(), testKey) || strings.Contains(fmt.Sprintf("%+v %#v", err, err), testKey) {
			t.Errorf("%s: key leaked: %v", shape, err)
		}
		if !strings.Contains(err.Error(), "[redacted]") {
			t.Errorf("%s: %v lacks the redaction marker", shape, err)
		}
	}
}

// queryTransport adds a query parameter, letting one test server play
// several roles.
type queryTransport struct{ k, v string }

func (q queryTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	qs := r.URL.Query()
	qs.Set(q.k, q.v)
	r.URL.RawQuery = qs.Encode()
	return http.DefaultTransport.RoundTrip(r)
}

func TestEnvironmentNotLeaked(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Content: "ok"}}}}})
	t.Setenv("OPENAI_ORG_ID", "org-leak")
	t.Setenv("OPENAI_PROJECT_ID", "proj-leak")
	t.Setenv("OPENAI_CUSTOM_HEADERS", "X-Leak: yes")
	t.Setenv("OPENAI_API_KEY", "sk-env-leak-key")
	t.Setenv("OPENAI_ADMIN_KEY", "sk-admin-leak-key")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")

	c, err := New(Config{BaseURL: srv.URL(), Model: "m"}) // no key: a local server
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Complete(context.Background(), userReq("x")); err != nil {
		t.Fatal(err)
	}
	h := srv.Requests()[0].Header
	for _, k := range []string{"OpenAI-Organization", "OpenAI-Project", "X-Leak", "Authorization"} {
		if v := h.Get(k); v != "" {
			t.Errorf("header %s: %q sent", k, v)
		}
	}
	for k, vs := range h {
		if strings.Contains(strings.Join(vs, " "), "leak") {
			t.Errorf("header %s: %q carries environment", k, vs)
		}
	}
}

func mustJSON(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("%v in %s", err, s)
	}
}

// canon re-encodes v with sorted keys, for comparison.
func canon(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
