package llm

import (
	"context"
	"errors"
	"net/http"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// errStreamCut is a stream that ended without a finish_reason: the server
// or a proxy hung up before the answer was whole. openai-go reports no
// error for it (the SSE decoder stops at EOF as at [DONE]).
var errStreamCut = errors.New("the streamed answer ended before it was complete (no finish_reason)")

// errStreamChunk is a chunk the accumulator refused (another completion's
// id, or an impossible index): the answer cannot be put together.
var errStreamChunk = errors.New("the streamed answer holds a chunk that does not belong to it")

// streamed makes one attempt over Server-Sent Events and puts the chunks
// together into the completion a non-streamed request would have
// returned, so both paths share response(). onText, when set, gets each
// piece of text as it arrives. Tool-call arguments are only ever read
// from the assembled answer, never piecewise.
func (c *Client) streamed(ctx context.Context, params openai.ChatCompletionNewParams, res **http.Response, onText func(string)) (*openai.ChatCompletion, error) {
	// Usage arrives in a last chunk only when asked for; servers that do
	// not know the option ignore it and the turn's usage stays zero.
	params.StreamOptions.IncludeUsage = openai.Bool(true)
	stream := c.chat.NewStreaming(ctx, params, option.WithResponseInto(res))
	defer stream.Close()
	var acc openai.ChatCompletionAccumulator
	finished := false
	for stream.Next() {
		chunk := stream.Current()
		if !acc.AddChunk(chunk) {
			return nil, errStreamChunk
		}
		for _, ch := range chunk.Choices {
			if ch.FinishReason != "" {
				finished = true
			}
			if ch.Index == 0 && ch.Delta.Content != "" && onText != nil {
				onText(ch.Delta.Content)
			}
		}
	}
	if err := stream.Err(); err != nil {
		return nil, err
	}
	if !finished {
		return nil, errStreamCut
	}
	return &acc.ChatCompletion, nil
}
