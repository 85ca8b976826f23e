package fakellm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// post sends a chat request with the given messages (role, content pairs)
// and returns the status and decoded body.
func post(t *testing.T, s *Server, msgs ...string) (int, map[string]any) {
	t.Helper()
	status, body := postCtx(t, context.Background(), s, msgs...)
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, body)
	}
	return status, v
}

func postCtx(t *testing.T, ctx context.Context, s *Server, msgs ...string) (int, []byte) {
	t.Helper()
	var ms []map[string]any
	for i := 0; i+1 < len(msgs); i += 2 {
		ms = append(ms, map[string]any{"role": msgs[i], "content": msgs[i+1]})
	}
	b, _ := json.Marshal(map[string]any{"model": "fake-model", "messages": ms})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL()+"/chat/completions", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, body
}

func message(t *testing.T, v map[string]any) map[string]any {
	t.Helper()
	choices, _ := v["choices"].([]any)
	if len(choices) != 1 {
		t.Fatalf("choices = %v", v["choices"])
	}
	return choices[0].(map[string]any)["message"].(map[string]any)
}

func errorMessage(v map[string]any) string {
	e, _ := v["error"].(map[string]any)
	s, _ := e["message"].(string)
	return s
}

func TestRuleMatchingFirstWins(t *testing.T) {
	s := Start(t, Script{Rules: []Rule{
		{Match: []string{"slide 3", "whiteboard"}, Turns: []Turn{{Content: "wb3"}}},
		{Match: []string{"slide 3"}, Turns: []Turn{{Content: "slide3"}}},
		{Turns: []Turn{{Content: "any"}}},
	}})
	tests := []struct {
		system, user, want string
	}{
		{"You fill a whiteboard.", "Task: slide 3", "wb3"},
		{"You fill a lesson.", "Task: slide 3", "slide3"},
		{"You fill a whiteboard.", "Task: slide 4", "any"},
	}
	for _, tt := range tests {
		status, v := post(t, s, "system", tt.system, "user", tt.user)
		if status != http.StatusOK {
			t.Fatalf("status %d: %v", status, v)
		}
		if got := message(t, v)["content"]; got != tt.want {
			t.Errorf("%q/%q: content = %v, want %q", tt.system, tt.user, got, tt.want)
		}
	}
}

func TestMatchIgnoresLaterUserMessages(t *testing.T) {
	s := Start(t, Script{Rules: []Rule{{Match: []string{"needle"}, Turns: []Turn{{Content: "x"}}}}})
	status, v := post(t, s, "system", "sys", "user", "task", "assistant", "ok", "user", "needle")
	if status != http.StatusBadRequest {
		t.Fatalf("status = %d, want 400: %v", status, v)
	}
}

func TestTurnIndexByAssistantCount(t *testing.T) {
	s := Start(t, Script{Rules: []Rule{{
		Turns: []Turn{
			{ToolCalls: []FakeCall{{Name: "add_text", Arguments: `{"text":"hi"}`}}},
			{Content: "second"},
		},
	}}})

	_, v := post(t, s, "system", "s", "user", "u")
	m := message(t, v)
	if m["content"] != nil {
		t.Errorf("tool-only turn content = %v, want null", m["content"])
	}
	calls := m["tool_calls"].([]any)
	call := calls[0].(map[string]any)
	if call["id"] == "" || call["type"] != "function" {
		t.Errorf("call = %v", call)
	}
	fn := call["function"].(map[string]any)
	if fn["name"] != "add_text" || fn["arguments"] != `{"text":"hi"}` {
		t.Errorf("function = %v", fn)
	}
	if got := v["choices"].([]any)[0].(map[string]any)["finish_reason"]; got != "tool_calls" {
		t.Errorf("finish_reason = %v", got)
	}

	_, v = post(t, s, "system", "s", "user", "u", "assistant", "", "tool", "ok")
	if got := message(t, v)["content"]; got != "second" {
		t.Errorf("turn 1 content = %v, want second", got)
	}
	// Past the end without Repeat: a plain "done".
	_, v = post(t, s, "system", "s", "user", "u", "assistant", "", "tool", "ok", "assistant", "second", "user", "more")
	m = message(t, v)
	if m["content"] != "done" || m["tool_calls"] != nil {
		t.Errorf("past the end = %v, want plain done", m)
	}
}

// TestDigestAnswersThePrompt: "{{digest}}" makes the answer a function of
// the conversation: the same one gets the same answer, another one another.
func TestDigestAnswersThePrompt(t *testing.T) {
	s := Start(t, Script{Rules: []Rule{{Turns: []Turn{
		{ToolCalls: []FakeCall{{Name: "add_text", Arguments: `{"text":"{{digest}}"}`}}},
	}}}})
	args := func(msgs ...string) string {
		_, v := post(t, s, msgs...)
		return message(t, v)["tool_calls"].([]any)[0].(map[string]any)["function"].(map[string]any)["arguments"].(string)
	}
	a, b, c := args("system", "s", "user", "u"), args("system", "s", "user", "u"), args("system", "s", "user", "v")
	if a != b || a == c || strings.Contains(a, "digest") {
		t.Errorf("same prompt: %s and %s; another prompt: %s", a, b, c)
	}
}

func TestRepeatLastTurn(t *testing.T) {
	s := Start(t, Script{Rules: []Rule{{Turns: []Turn{{Content: "a"}, {Content: "b"}}, Repeat: true}}})
	_, v := post(t, s, "user", "u", "assistant", "a", "user", "x", "assistant", "b", "user", "y")
	if got := message(t, v)["content"]; got != "b" {
		t.Errorf("content = %v, want b", got)
	}
}

func TestUsageAndShape(t *testing.T) {
	s := Start(t, Script{Rules: []Rule{{Turns: []Turn{{Content: "hi"}}}}})
	_, v := post(t, s, "user", "u")
	for _, k := range []string{"id", "object", "created", "model", "choices", "usage"} {
		if _, ok := v[k]; !ok {
			t.Errorf("missing %q in %v", k, v)
		}
	}
	if v["object"] != "chat.completion" || v["model"] != "fake-model" {
		t.Errorf("object/model = %v/%v", v["object"], v["model"])
	}
	u := v["usage"].(map[string]any)
	if u["prompt_tokens"].(float64) <= 0 || u["total_tokens"].(float64) <= 0 {
		t.Errorf("usage = %v", u)
	}
	if _, ok := u["prompt_tokens_details"].(map[string]any)["cached_tokens"]; !ok {
		t.Errorf("usage lacks cached_tokens: %v", u)
	}
}

func TestQuirks(t *testing.T) {
	s := Start(t, Script{Rules: []Rule{{Turns: []Turn{{
		Content:     "ignored",
		NullContent: true,
		OmitIDs:     true,
		ToolCalls:   []FakeCall{{ID: "x", Name: "f", Arguments: `{broken`}},
	}}}}})
	_, v := post(t, s, "user", "u")
	m := message(t, v)
	if c, ok := m["content"]; !ok || c != nil {
		t.Errorf("content = %v (present %v), want null", c, ok)
	}
	call := m["tool_calls"].([]any)[0].(map[string]any)
	if _, ok := call["id"]; ok {
		t.Errorf("id present: %v", call)
	}
	if got := call["function"].(map[string]any)["arguments"]; got != `{broken` {
		t.Errorf("arguments = %v", got)
	}
}

func TestFailureTimesPerConversation(t *testing.T) {
	s := Start(t, Script{Rules: []Rule{{Turns: []Turn{{
		Content: "ok", Status: 500, Times: 2, RetryAfter: "0",
	}}}}})
	for i, want := range []int{500, 500, 200, 200} {
		status, v := post(t, s, "user", "conversation A")
		if status != want {
			t.Errorf("A attempt %d: status %d, want %d (%v)", i, status, want, v)
		}
	}
	// Another conversation has its own counter.
	if status, _ := post(t, s, "user", "conversation B"); status != 500 {
		t.Errorf("B attempt 0: status %d, want 500", status)
	}
}

func TestFailureDefaultsAndCustomBody(t *testing.T) {
	s := Start(t, Script{Rules: []Rule{
		{Match: []string{"json"}, Turns: []Turn{{Status: 429, RetryAfter: "1"}}},
		{Match: []string{"text"}, Turns: []Turn{{Status: 503, ErrorBody: "upstream down", Times: -1}}},
	}})
	status, v := post(t, s, "user", "json")
	if status != 429 || !strings.Contains(errorMessage(v), "429") {
		t.Errorf("status %d body %v", status, v)
	}
	for range 3 {
		status, body := postCtx(t, context.Background(), s, "user", "text")
		if status != 503 || string(body) != "upstream down" {
			t.Errorf("status %d body %q, want 503 forever", status, body)
		}
	}
	reqs := s.Requests()
	if len(reqs) != 4 || reqs[0].Path != "/v1/chat/completions" || reqs[0].Method != http.MethodPost {
		t.Fatalf("requests = %+v", reqs)
	}
}

func TestRetryAfterHeader(t *testing.T) {
	s := Start(t, Script{Rules: []Rule{{Turns: []Turn{{Status: 429, RetryAfter: "7"}}}}})
	res, err := http.Post(s.URL()+"/chat/completions", "application/json",
		strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"u"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if got := res.Header.Get("Retry-After"); got != "7" {
		t.Errorf("Retry-After = %q", got)
	}
	if got := res.Header.Get("Content-Type"); got != "application/json" {
		t.Errorf("Content-Type = %q", got)
	}
}

func TestUnmatchedIs400NamingTheTask(t *testing.T) {
	s := Start(t, Script{Rules: []Rule{{Match: []string{"photosynthesis"}}}})
	status, v := post(t, s, "system", "You write whiteboards.", "user", "Slide about gravity")
	if status != http.StatusBadRequest {
		t.Fatalf("status = %d", status)
	}
	msg := errorMessage(v)
	if !strings.Contains(msg, "no rule") || !strings.Contains(msg, "You write whiteboards.") {
		t.Errorf("message = %q", msg)
	}
}

func TestWrongPathIs404(t *testing.T) {
	s := Start(t, Script{})
	res, err := http.Get(s.URL() + "/models")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("status = %d", res.StatusCode)
	}
}

func TestHangEndsOnClose(t *testing.T) {
	s, err := StartServer(Script{Rules: []Rule{{Turns: []Turn{{Hang: true, Times: -1}}}}})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan int)
	go func() {
		status, _ := postCtx(t, context.Background(), s, "user", "u")
		done <- status
	}()
	if err := s.WaitForRequests(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
		t.Fatal("hung request answered before Close")
	default:
	}
	s.Close()
	if status := <-done; status == http.StatusOK {
		t.Errorf("hung request got 200 after Close")
	}
	s.Close() // idempotent
}

func TestHangEndsWhenClientGivesUp(t *testing.T) {
	s := Start(t, Script{Rules: []Rule{{Turns: []Turn{{Hang: true, Content: "late"}}}}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		postCtx(t, ctx, s, "user", "u")
	}()
	if err := s.WaitForRequests(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	cancel()
	<-done
	// Hang applies once: the retry is answered.
	_, v := post(t, s, "user", "u")
	if got := message(t, v)["content"]; got != "late" {
		t.Errorf("retry content = %v, want late", got)
	}
}

func TestWaitForRequests(t *testing.T) {
	s := Start(t, Script{Rules: []Rule{{}}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.WaitForRequests(ctx, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled wait = %v", err)
	}
	if err := s.WaitForRequests(context.Background(), 0); err != nil {
		t.Errorf("wait 0 = %v", err)
	}

	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() { postCtx(t, context.Background(), s, "user", "u") })
	}
	if err := s.WaitForRequests(context.Background(), 3); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if got := s.RequestCount(); got != 3 {
		t.Errorf("RequestCount = %d", got)
	}
}

// The latency holds every answer: the server waits exactly that long on its
// clock and writes the answer only once the wait ends; without a latency it
// does not wait at all. The clock is the test's, so nothing here depends on
// how fast the machine is.
func TestLatency(t *testing.T) {
	for _, latency := range []time.Duration{time.Hour, 0} {
		waits := make(chan time.Duration, 1)
		end := make(chan time.Time, 1) // never blocks the test
		s, err := startServer(Script{Latency: Duration(latency), Rules: []Rule{{Turns: []Turn{{Content: "x"}}}}},
			func(d time.Duration) (<-chan time.Time, func() bool) {
				waits <- d
				return end, func() bool { return true }
			})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		answered := make(chan string, 1)
		go func() { answered <- answerOf(s) }()
		if latency == 0 {
			if got := <-answered; got != "x" || len(waits) != 0 {
				t.Errorf("no latency: answer %q, waits %d, want x and none", got, len(waits))
			}
			continue
		}
		select {
		case d := <-waits:
			if d != latency {
				t.Errorf("waited %v, want the latency %v", d, latency)
			}
		case got := <-answered:
			t.Fatalf("answered %q without waiting for the latency", got)
		}
		select {
		case got := <-answered:
			t.Fatalf("answered %q while the latency ran", got)
		default:
		}
		end <- time.Now()
		if got := <-answered; got != "x" {
			t.Errorf("answer after the latency = %q, want x", got)
		}
	}
}

// answerOf posts one user message and returns the answer's content, or the
// failure as text; it runs on its own goroutine, so it cannot use t.
func answerOf(s *Server) string {
	b, _ := json.Marshal(map[string]any{"model": "fake-model", "messages": []map[string]any{{"role": "user", "content": "u"}}})
	res, err := http.Post(s.URL()+"/chat/completions", "application/json", bytes.NewReader(b))
	if err != nil {
		return err.Error()
	}
	defer res.Body.Close()
	var v struct {
		Choices []struct{ Message struct{ Content string } }
	}
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil || len(v.Choices) != 1 {
		return fmt.Sprintf("status %d, %v", res.StatusCode, err)
	}
	return v.Choices[0].Message.Content
}

func TestParseScript(t *testing.T) {
	s, err := ParseScript([]byte(`{
		"latency": "50ms",
		"rules": [{"match": ["a"], "repeat": true, "turns": [
			{"tool_calls": [{"name": "f", "arguments": "{not json"}]},
			{"status": 429, "retry_after": "0", "times": -1}
		]}]
	}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Latency != Duration(50*time.Millisecond) || !s.Rules[0].Repeat || s.Rules[0].Turns[0].ToolCalls[0].Arguments != "{not json" {
		t.Errorf("script = %+v", s)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"latency":"50ms"`) {
		t.Errorf("marshal = %s", b)
	}

	bad := []string{
		`{"rules": [{"turns": [{"contnet": "typo"}]}]}`,
		`{"latency": 50}`,
		`{"rules": [{"turns": [{"status": 200}]}]}`,
		`{"rules": [{"turns": [{"status": 500, "hang": true}]}]}`,
		`{"rules": [{"turns": [{"tool_calls": [{"arguments": "{}"}]}]}]}`,
		`{"rules": []} {}`,
		`{"rules": [{"turns": [{"tool_calls": [{"name": "f", "repeat": -1}]}]}]}`,
		`{"rules": [{"turns": [{"tool_calls": [{"name": "f", "id": "x", "repeat": 2}]}]}]}`,
	}
	for _, in := range bad {
		if _, err := ParseScript([]byte(in)); err == nil {
			t.Errorf("ParseScript(%s) = nil error", in)
		}
	}
}

// A repeated call is sent that many times, each with its own id.
func TestRepeatedCalls(t *testing.T) {
	script, err := ParseScript([]byte(`{"rules": [{"turns": [{"tool_calls": [
		{"name": "a", "args": {"x": 1}, "repeat": 3},
		{"name": "b"}
	]}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	_, v := post(t, Start(t, script), "system", "s", "user", "u")
	calls, _ := message(t, v)["tool_calls"].([]any)
	var got []string
	ids := map[string]bool{}
	for _, c := range calls {
		c := c.(map[string]any)
		f := c["function"].(map[string]any)
		got = append(got, f["name"].(string)+f["arguments"].(string))
		ids[c["id"].(string)] = true
	}
	if strings.Join(got, " ") != `a{"x":1} a{"x":1} a{"x":1} b` || len(ids) != 4 {
		t.Errorf("calls %v, %d ids", got, len(ids))
	}
}
