package fakellm

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// runawayBlock is the text written at a time by a runaway answer.
const runawayBlock = 32 << 10

// runaway answers t.Endless or t.HugeBytes: a body written piece by piece
// from one reused block, so a client that reads it all is the only side
// whose memory grows.
func (s *Server) runaway(req chatRequest, t Turn) reply {
	text := strings.Repeat("a", runawayBlock)
	total := t.HugeBytes // <= 0 with Endless: no end
	if t.Endless {
		total = -1
	}
	write := func(ctx context.Context, w io.Writer) {
		flush := func() {
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
		}
		done := func() bool {
			select {
			case <-ctx.Done():
				return true
			case <-s.closing:
				return true
			default:
				return false
			}
		}
		var frame []byte
		if req.Stream {
			c := chunk{ID: "chatcmpl-runaway", Object: "chat.completion.chunk", Model: req.Model,
				Choices: []chunkChoice{{Delta: delta{Content: &text}}}}
			data, _ := json.Marshal(c)
			frame = append(append([]byte("data: "), data...), "\n\n"...)
		} else {
			head := `{"id":"chatcmpl-runaway","object":"chat.completion","created":0,"model":` +
				strconv.Quote(req.Model) + `,"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"`
			if _, err := io.WriteString(w, head); err != nil {
				return
			}
			frame = []byte(text)
		}
		for sent := 0; total < 0 || sent < total; sent += runawayBlock {
			if done() {
				return
			}
			if _, err := w.Write(frame); err != nil {
				return
			}
			flush()
		}
		if req.Stream {
			stop := "stop"
			data, _ := json.Marshal(chunk{ID: "chatcmpl-runaway", Object: "chat.completion.chunk", Model: req.Model,
				Choices: []chunkChoice{{FinishReason: &stop}}})
			_, _ = w.Write(bytes.Join([][]byte{[]byte("data: "), data, []byte("\n\ndata: [DONE]\n\n")}, nil))
			return
		}
		_, _ = io.WriteString(w, `"}}]}`)
	}
	return reply{status: http.StatusOK, sse: req.Stream, write: write}
}
