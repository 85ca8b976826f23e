package llm

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/fakellm"
)

// A streamed answer, text and tool-call arguments split into 3-byte
// pieces, assembles into exactly the Response of the same answer sent
// whole.
func TestStreamedAnswerEqualsWhole(t *testing.T) {
	turn := fakellm.Turn{Content: "Let me add two slides — ✓ done.", ToolCalls: []fakellm.FakeCall{
		{Name: "add_slide", Arguments: `{"title":"Photosynthesis — ☀","notes":"light → sugar"}`},
		{Name: "add_slide", Arguments: `{"title":"Respiration","n":[1,2,3]}`},
	}}
	script := fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{turn}}}, Stream: fakellm.StreamOptions{Chunk: 3}}
	srv := fakellm.Start(t, script)

	whole, err := newClient(t, Config{BaseURL: srv.URL(), Clock: newFakeClock()}).Complete(context.Background(), userReq("go"))
	if err != nil {
		t.Fatal(err)
	}
	var pieces []string
	req := userReq("go")
	req.OnText = func(s string) { pieces = append(pieces, s) }
	streamed, err := newClient(t, Config{BaseURL: srv.URL(), Clock: newFakeClock(), Stream: true}).Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	// Usage differs by design: the fake counts the request's bytes, and
	// the streamed request is longer (stream, stream_options).
	whole.Usage, streamed.Usage = Usage{}, Usage{}
	if !reflect.DeepEqual(whole, streamed) {
		t.Errorf("streamed answer differs:\nwhole    %+v\nstreamed %+v", whole, streamed)
	}
	if len(pieces) < 5 || strings.Join(pieces, "") != turn.Content {
		t.Errorf("text pieces %q, want %q in several pieces", pieces, turn.Content)
	}

	reqs := srv.Requests()
	var body struct {
		Stream        bool `json:"stream"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	if err := json.Unmarshal(reqs[len(reqs)-1].Body, &body); err != nil {
		t.Fatal(err)
	}
	if !body.Stream || !body.StreamOptions.IncludeUsage {
		t.Errorf("streamed request: stream=%v include_usage=%v, want both true", body.Stream, body.StreamOptions.IncludeUsage)
	}
	if whole := reqs[0].Body; strings.Contains(string(whole), "stream") {
		t.Errorf("plain request mentions stream: %s", whole)
	}
}

// Usage from the stream's last chunk reaches the Response; a server that
// sends none leaves it zero and the turn still succeeds.
func TestStreamUsage(t *testing.T) {
	for _, noUsage := range []bool{false, true} {
		srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Content: "ok"}}}}, Quirks: fakellm.Quirks{NoUsage: noUsage}})
		resp, err := newClient(t, Config{BaseURL: srv.URL(), Clock: newFakeClock(), Stream: true}).Complete(context.Background(), userReq("go"))
		if err != nil {
			t.Fatalf("no_usage=%v: %v", noUsage, err)
		}
		if got := resp.Usage.PromptTokens > 0; got == noUsage {
			t.Errorf("no_usage=%v: usage %+v", noUsage, resp.Usage)
		}
	}
}

// A stream that ends without finish_reason and [DONE] is an error, retried
// like a dropped connection; the retry's answer is whole.
func TestStreamCutIsRetried(t *testing.T) {
	srv := fakellm.Start(t, fakellm.Script{
		Rules:  []fakellm.Rule{{Turns: []fakellm.Turn{{Content: "all of it", ToolCalls: []fakellm.FakeCall{{Name: "f", Arguments: `{"a":1}`}}}}}},
		Stream: fakellm.StreamOptions{Chunk: 2, CutOnce: true},
	})
	clk := newFakeClock()
	resp, err := newClient(t, Config{BaseURL: srv.URL(), Clock: clk, Stream: true}).Complete(context.Background(), userReq("go"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Requests != 2 || len(clk.Sleeps()) != 1 {
		t.Errorf("requests %d, sleeps %v; want 2 attempts, one backoff", resp.Requests, clk.Sleeps())
	}
	if resp.Message.Content != "all of it" || len(resp.Message.ToolCalls) != 1 || resp.Message.ToolCalls[0].Arguments != `{"a":1}` {
		t.Errorf("answer %+v", resp.Message)
	}

	// The text of the cut attempt is declared void before the retry's
	// text comes: what follows the last restart is the whole answer.
	var shown []string
	req := userReq("go")
	req.OnText = func(s string) { shown = append(shown, s) }
	req.OnRestart = func() { shown = append(shown, "<restart>") }
	srv3 := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Content: "all of it"}}}}, Stream: fakellm.StreamOptions{Chunk: 2, CutOnce: true}})
	if _, err := newClient(t, Config{BaseURL: srv3.URL(), Clock: newFakeClock(), Stream: true}).Complete(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(shown, "")
	if strings.Count(joined, "<restart>") != 1 || !strings.HasSuffix(joined, "<restart>all of it") || strings.HasPrefix(joined, "<restart>") {
		t.Errorf("text shown %q: want the cut attempt's text, one restart, then the whole answer", shown)
	}

	// Without retries, the cut is reported as such.
	srv2 := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Content: "abcdef"}}}}, Stream: fakellm.StreamOptions{Chunk: 1, CutOnce: true}})
	_, err = newClient(t, Config{BaseURL: srv2.URL(), Clock: newFakeClock(), Stream: true, MaxRetries: -1}).Complete(context.Background(), userReq("go"))
	if pe := providerError(t, err); !pe.Retryable || !strings.Contains(pe.Message, "before it was complete") {
		t.Errorf("cut stream error %+v", pe)
	}
}
