package fakellm

import (
	"encoding/json"
	"net/http"
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
		Index    int           `json:"index"`
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
// first streamed answer is cut halfway under StreamOptions.CutOnce.
func (s *Server) streamReply(cc completion, includeUsage bool) reply {
	msg, finish := cc.Choices[0].Message, cc.Choices[0].FinishReason
	var frames []chunkChoice
	frames = append(frames, chunkChoice{Delta: delta{Role: "assistant"}})
	if msg.Content != nil {
		for _, piece := range split(*msg.Content, s.script.Stream.Chunk) {
			frames = append(frames, chunkChoice{Delta: delta{Content: &piece}})
		}
	}
	for i, tc := range msg.ToolCalls {
		frames = append(frames, chunkChoice{Delta: delta{ToolCalls: []toolCallDelta{{
			Index: i, ID: tc.ID, Type: tc.Type, Function: functionDelta{Name: tc.Function.Name},
		}}}})
		for _, piece := range split(tc.Function.Arguments, s.script.Stream.Chunk) {
			frames = append(frames, chunkChoice{Delta: delta{ToolCalls: []toolCallDelta{{
				Index: i, Function: functionDelta{Arguments: piece},
			}}}})
		}
	}
	frames = append(frames, chunkChoice{FinishReason: &finish})

	var b strings.Builder
	write := func(c chunk) {
		c.ID, c.Object, c.Created, c.Model = cc.ID, "chat.completion.chunk", cc.Created, cc.Model
		data, _ := json.Marshal(c)
		b.WriteString("data: ")
		b.Write(data)
		b.WriteString("\n\n")
	}
	if s.script.Stream.CutOnce && s.cut.CompareAndSwap(false, true) {
		for _, f := range frames[:len(frames)/2] {
			write(chunk{Choices: []chunkChoice{f}})
		}
		return reply{status: http.StatusOK, body: b.String(), sse: true}
	}
	for _, f := range frames {
		write(chunk{Choices: []chunkChoice{f}})
	}
	if includeUsage && cc.Usage != nil {
		write(chunk{Choices: []chunkChoice{}, Usage: cc.Usage})
	}
	b.WriteString("data: [DONE]\n\n")
	return reply{status: http.StatusOK, body: b.String(), sse: true}
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
