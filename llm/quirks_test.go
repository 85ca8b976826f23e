package llm

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/fakellm"
)

// quirkTurn is an answer with text and three tool calls, arguments in
// 3-byte pieces, so every quirk of how deltas are keyed shows.
var quirkTurn = fakellm.Turn{Content: "Writing the metadata.", ToolCalls: []fakellm.FakeCall{
	{Name: "set_objectives", Arguments: `{"objectives":["Explain photosynthesis"]}`},
	{Name: "set_vocabulary", Arguments: `{"terms":[{"term":"chlorophyll","definition":"green pigment"}]}`},
	{Name: "set_standards", Arguments: `{"standards":["MS-LS1-6"]}`},
}}

// Each real server's way of streaming reads into the very answer OpenAI's
// way gives: the same text, calls, names, arguments and usage.
func TestStreamQuirksOfRealServers(t *testing.T) {
	plain := fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{quirkTurn}}}, Stream: fakellm.StreamOptions{Chunk: 3}}
	want, err := newClient(t, Config{BaseURL: fakellm.Start(t, plain).URL(), Clock: newFakeClock(), Stream: true}).Complete(context.Background(), userReq("go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		server string
		opt    fakellm.StreamOptions
	}{
		{"Foundry Local: error null on every chunk", fakellm.StreamOptions{NullError: true}},
		{"Foundry Local: a new chunk id and choice index on every chunk", fakellm.StreamOptions{ChangingIDs: true}},
		{"omlx: a keep-alive chunk first", fakellm.StreamOptions{KeepAliveFirst: true}},
		{"MiniMax via NVIDIA NIM: the name in every delta", fakellm.StreamOptions{ResendName: true}},
		{"early vLLM: tool-call deltas without index", fakellm.StreamOptions{NoIndex: true}},
		{"vLLM 0.5.4: cumulative usage on every chunk", fakellm.StreamOptions{CumulativeUsage: true}},
	} {
		t.Run(tc.server, func(t *testing.T) {
			s := plain
			s.Stream = tc.opt
			s.Stream.Chunk = 3
			got, err := newClient(t, Config{BaseURL: fakellm.Start(t, s).URL(), Clock: newFakeClock(), Stream: true}).Complete(context.Background(), userReq("go"))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("answer differs from OpenAI's way:\ngot  %+v\nwant %+v", got, want)
			}
		})
	}
}

// An error a server sends inside a stream it began with 200 is the
// server's error: its message and code shown, classified like an HTTP
// error of that code — a 400 is not retried, a 500 is.
func TestStreamErrorEvents(t *testing.T) {
	const ctxMsg = "the request exceeds the available context size, try increasing it"
	for _, tc := range []struct {
		server, style string
		status        int
		wantStatus    int
		retried       bool
	}{
		{"vLLM: data event with code 400", fakellm.StreamErrorVLLM, 400, 400, false},
		{"vLLM: data event with code 500", fakellm.StreamErrorVLLM, 500, 500, true},
		{"llama.cpp through 2025: an error: field", fakellm.StreamErrorLlamaCpp, 400, 400, false},
	} {
		t.Run(tc.server, func(t *testing.T) {
			turn := quirkTurn
			turn.Status, turn.ErrorBody, turn.StreamError, turn.Times = tc.status, ctxMsg, tc.style, 1
			srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{turn}}}, Stream: fakellm.StreamOptions{Chunk: 3}})
			_, err := newClient(t, Config{BaseURL: srv.URL(), Clock: newFakeClock(), Stream: true, MaxRetries: -1}).Complete(context.Background(), userReq("go"))
			pe := providerError(t, err)
			if pe.StatusCode != tc.wantStatus || pe.Message != ctxMsg || pe.Retryable != tc.retried || Systemic(err) {
				t.Errorf("error %q: status %d retryable %v systemic %v; want %d, the server's message, retryable %v, not systemic",
					pe, pe.StatusCode, pe.Retryable, Systemic(err), tc.wantStatus, tc.retried)
			}
			// With retries, a transient one is retried and the answer comes whole.
			srv = fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{turn}}}, Stream: fakellm.StreamOptions{Chunk: 3}})
			resp, err := newClient(t, Config{BaseURL: srv.URL(), Clock: newFakeClock(), Stream: true}).Complete(context.Background(), userReq("go"))
			switch {
			case tc.retried && (err != nil || len(resp.Message.ToolCalls) != 3 || srv.RequestCount() != 2):
				t.Errorf("retried: %v, %d calls after %d requests; want the whole answer on the second", err, len(resp.Message.ToolCalls), srv.RequestCount())
			case !tc.retried && (err == nil || srv.RequestCount() != 1):
				t.Errorf("not retried: %v after %d requests; want the error after 1", err, srv.RequestCount())
			}
		})
	}
}

// Ollama ends a stream whose model failed with an empty chunk and nothing
// after (no finish_reason, no [DONE], no message): an error that says so,
// retried like a cut, never an answer made of the text so far.
func TestStreamOllamaFailure(t *testing.T) {
	turn := quirkTurn
	turn.Status, turn.StreamError, turn.Times = 500, fakellm.StreamErrorOllama, 1
	turn.ErrorBody = "model runner has unexpectedly stopped"
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{turn}}}, Stream: fakellm.StreamOptions{Chunk: 3}})
	_, err := newClient(t, Config{BaseURL: srv.URL(), Clock: newFakeClock(), Stream: true, MaxRetries: -1}).Complete(context.Background(), userReq("go"))
	pe := providerError(t, err)
	if !strings.Contains(pe.Message, "ended the stream mid-answer with an empty chunk") || !strings.Contains(pe.Message, "Ollama") ||
		!pe.Retryable || Systemic(err) || strings.Contains(pe.Message, turn.ErrorBody) {
		t.Errorf("error %q (retryable %v, systemic %v); want Ollama's failed stream named, retryable, not systemic", pe, pe.Retryable, Systemic(err))
	}
	srv = fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{turn}}}, Stream: fakellm.StreamOptions{Chunk: 3}})
	resp, err := newClient(t, Config{BaseURL: srv.URL(), Clock: newFakeClock(), Stream: true}).Complete(context.Background(), userReq("go"))
	if err != nil || len(resp.Message.ToolCalls) != 3 || srv.RequestCount() != 2 {
		t.Errorf("retried: %v, %d calls after %d requests; want the whole answer on the second", err, len(resp.Message.ToolCalls), srv.RequestCount())
	}
}

// The stream that ends after an empty chunk is told apart by its end: a
// cut after text is a cut, and an empty chunk followed by [DONE] is not
// Ollama's failure.
func TestAssemblerEmptyLastChunk(t *testing.T) {
	for _, tc := range []struct {
		name   string
		chunks []string
		want   error
	}{
		{"ollama failure", []string{`{"choices":[{"index":0,"delta":{"content":"Wri"},"finish_reason":null}]}`,
			`{"id":"x","model":"","choices":[{"index":0,"delta":{"content":""},"finish_reason":null}]}`}, errStreamAbandoned},
		{"cut after text", []string{`{"choices":[{"index":0,"delta":{"content":"Wri"},"finish_reason":null}]}`}, errStreamCut},
		{"empty chunk then [DONE]", []string{`{"choices":[{"index":0,"delta":{"content":""},"finish_reason":null}]}`, `[DONE]`}, errStreamCut},
	} {
		var a assembler
		for _, c := range tc.chunks {
			if _, err := a.add([]byte(c)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := a.done(); err != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
}

// A server that names a setting inside a stream error gets the same fix
// line as when it answers with the status.
func TestStreamErrorSetupFix(t *testing.T) {
	turn := fakellm.Turn{Status: 400, StreamError: fakellm.StreamErrorVLLM, Times: -1,
		ErrorBody: `"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set`}
	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{turn}}}})
	_, err := newClient(t, Config{BaseURL: srv.URL(), Clock: newFakeClock(), Stream: true}).Complete(context.Background(), userReq("go"))
	if pe := providerError(t, err); !strings.Contains(pe.Fix, "--enable-auto-tool-choice") || !Systemic(err) || srv.RequestCount() != 1 {
		t.Errorf("error %v after %d requests; want the vLLM fix, systemic, 1 request", err, srv.RequestCount())
	}
}

// Deltas keyed by index are put together by index even when calls
// interleave; deltas without one continue the last call unless a new id
// or another name starts the next.
func TestAssemblerKeys(t *testing.T) {
	var a assembler
	for _, p := range []string{
		`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":""}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"f","arguments":"{\"n\":"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"n\":"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"index":1,"function":{"arguments":"2}"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]}}]}`,
		`{"choices":[{"finish_reason":"tool_calls","delta":{}}]}`,
	} {
		if _, err := a.add([]byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	ans, err := a.done()
	if err != nil || len(ans.calls) != 2 || ans.calls[0].args != `{"n":1}` || ans.calls[1].args != `{"n":2}` || ans.calls[1].id != "b" {
		t.Errorf("interleaved by index: %+v, %v", ans.calls, err)
	}

	var b assembler
	for _, p := range []string{
		`{"choices":[{"delta":{"tool_calls":[{"id":"a","function":{"name":"f","arguments":"{}"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"id":"b","function":{"name":"f","arguments":"{"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"}"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"function":{"name":"g","arguments":"{}"}}]}}]}`,
		`{"choices":[{"finish_reason":"tool_calls","delta":{}}]}`,
	} {
		if _, err := b.add([]byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	ans, err = b.done()
	if err != nil || len(ans.calls) != 3 || ans.calls[1].args != "{}" || ans.calls[2].name != "g" {
		t.Errorf("by order: %+v, %v", ans.calls, err)
	}
}
