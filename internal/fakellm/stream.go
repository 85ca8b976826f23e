package fakellm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Streamed chunk shapes, as OpenAI sends them.
type (
	chunk struct {
		ID      string        `json:"id"`
		Object  string        `json:"object"`
		Created int64         `json:"created"`
		Model   string        `json:"model"`
		Choices []chunkChoice `json:"choices"`
		Usage   *usage        `json:"usage,omitempty"`
		// Error is "null" under StreamOptions.NullError (Foundry Local).
		Error json.RawMessage `json:"error,omitempty"`
	}
	chunkChoice struct {
		Index        int     `json:"index"`
		Delta        delta   `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	}
	delta struct {
		Role      string          `json:"role,omitempty"`
		Content   *string         `json:"content,omitempty"`
		ToolCalls []toolCallDelta `json:"tool_calls,omitempty"`
	}
	toolCallDelta struct {
		Index    *int          `json:"index,omitempty"`
		ID       string        `json:"id,omitempty"`
		Type     string        `json:"type,omitempty"`
		Function functionDelta `json:"function"`
	}
	functionDelta struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	}
)

// streamReply turns a whole answer into Server-Sent Events: the role, the
// text and each tool call's arguments in pieces (StreamOptions.Chunk), a
// finish chunk, a usage chunk when asked for and sent, then [DONE]. The
// first streamed answer is cut halfway under StreamOptions.CutOnce; a
// turn with a StreamError fails halfway in its server's style. The
// StreamOptions quirks shape every chunk.
func (s *Server) streamReply(cc completion, includeUsage bool, t Turn) reply {
	opt := s.script.Stream
	msg, finish := cc.Choices[0].Message, cc.Choices[0].FinishReason
	var frames []chunkChoice
	frames = append(frames, chunkChoice{Delta: delta{Role: "assistant"}})
	if msg.Content != nil {
		for _, piece := range split(*msg.Content, opt.Chunk) {
			frames = append(frames, chunkChoice{Delta: delta{Content: &piece}})
		}
	}
	for i, tc := range msg.ToolCalls {
		index := &i
		if opt.NoIndex {
			index = nil
		}
		frames = append(frames, chunkChoice{Delta: delta{ToolCalls: []toolCallDelta{{
			Index: index, ID: tc.ID, Type: tc.Type, Function: functionDelta{Name: tc.Function.Name},
		}}}})
		for _, piece := range split(tc.Function.Arguments, opt.Chunk) {
			d := toolCallDelta{Index: index, Function: functionDelta{Arguments: piece}}
			if opt.ResendName {
				d.Function.Name = tc.Function.Name
			}
			frames = append(frames, chunkChoice{Delta: delta{ToolCalls: []toolCallDelta{d}}})
		}
	}
	frames = append(frames, chunkChoice{FinishReason: &finish})

	var b strings.Builder
	n := 0
	write := func(c chunk) {
		n++
		c.ID, c.Object, c.Created, c.Model = cc.ID, "chat.completion.chunk", cc.Created, cc.Model
		if opt.ChangingIDs {
			c.ID = "chat.id." + strconv.Itoa(n)
			for i := range c.Choices {
				c.Choices[i].Index = n
			}
		}
		if opt.NullError {
			c.Error = json.RawMessage("null")
		}
		if opt.CumulativeUsage && cc.Usage != nil && c.Usage == nil {
			// The usage so far: the whole prompt, the answer up to here.
			u := *cc.Usage
			u.CompletionTokens = min(int64(n), u.CompletionTokens)
			u.TotalTokens = u.PromptTokens + u.CompletionTokens
			c.Usage = &u
		}
		data, _ := json.Marshal(c)
		b.WriteString("data: ")
		b.Write(data)
		b.WriteString("\n\n")
	}
	if opt.KeepAliveFirst {
		b.WriteString(`data: {"id":"keepalive","object":"chat.completion.chunk","created":0,"model":"","choices":[]}` + "\n\n")
	}
	if t.StreamError != "" {
		for _, f := range frames[:len(frames)/2] {
			write(chunk{Choices: []chunkChoice{f}})
		}
		streamError(&b, t, cc)
		return reply{status: http.StatusOK, body: b.String(), sse: true}
	}
	if opt.CutOnce && s.cut.CompareAndSwap(false, true) {
		for _, f := range frames[:len(frames)/2] {
			write(chunk{Choices: []chunkChoice{f}})
		}
		return reply{status: http.StatusOK, body: b.String(), sse: true}
	}
	for _, f := range frames {
		write(chunk{Choices: []chunkChoice{f}})
	}
	if (includeUsage || opt.CumulativeUsage) && cc.Usage != nil {
		write(chunk{Choices: []chunkChoice{}, Usage: cc.Usage})
	}
	b.WriteString("data: [DONE]\n\n")
	return reply{status: http.StatusOK, body: b.String(), sse: true}
}

// streamError writes t's failure the way its server reports an error
// inside a stream it has already begun with 200.
func streamError(b *strings.Builder, t Turn, cc completion) {
	msg := t.ErrorBody
	if msg == "" {
		msg = fmt.Sprintf("fakellm: scripted %d %s", t.Status, http.StatusText(t.Status))
	}
	m, _ := json.Marshal(msg)
	switch t.StreamError {
	case StreamErrorVLLM:
		// vllm/entrypoints/openai/engine/serving.py (vllm-project/vllm
		// 00bd1493), create_streaming_error_response: json.dumps of its
		// ErrorResponse, Python's spacing, then chat's closing [DONE].
		fmt.Fprintf(b, `data: {"error": {"message": %s, "type": "BadRequestError", "param": null, "code": %d}}`+"\n\ndata: [DONE]\n\n", m, t.Status)
	case StreamErrorLlamaCpp:
		// llama.cpp's tools/server/server.cpp through 2025: the stream's
		// error callback writes server_sent_event(sink, "error", …) (an
		// `error:` field of format_error_response's {code, message,
		// type}), then the "data: [DONE]" every OpenAI-style stream gets.
		fmt.Fprintf(b, `error: {"code":%d,"message":%s,"type":"invalid_request_error"}`+"\n\ndata: [DONE]\n\n", t.Status, m)
	case StreamErrorOllama:
		// server/routes.go (ollama/ollama fb30760), streamResponse: once
		// the stream has begun, the error is encoded as {"error": "…"}
		// into the response writer, which the OpenAI layer's ChatWriter
		// (middleware/openai.go) decodes as an api.ChatResponse: a chunk
		// with an empty delta, no model, no finish_reason. Then the
		// stream ends: no [DONE], and the message is nowhere on the wire.
		fmt.Fprintf(b, `data: {"id":%q,"object":"chat.completion.chunk","created":%d,"model":"","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"content":""},"finish_reason":null}]}`+"\n\n", cc.ID, cc.Created)
	}
}

// split cuts s into pieces of at most n bytes, never inside a UTF-8
// character; n <= 0 gives s whole. An empty s gives no pieces.
func split(s string, n int) []string {
	if s == "" {
		return nil
	}
	if n <= 0 {
		return []string{s}
	}
	var out []string
	for len(s) > 0 {
		end := min(n, len(s))
		for end < len(s) && end > 0 && !utf8.RuneStart(s[end]) {
			end--
		}
		if end == 0 { // one character wider than n
			_, end = utf8.DecodeRuneInString(s)
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out
}
