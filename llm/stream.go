package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// errStreamCut is a stream that ended without a finish_reason: the server
// or a proxy hung up before the answer was whole.
var errStreamCut = errors.New("the streamed answer ended before it was complete (no finish_reason)")

// errStreamAbandoned is a cut whose last chunk was empty: how Ollama's
// OpenAI layer ends a stream when the model fails mid-answer. Its
// streamResponse (server/routes.go) writes the error as {"error": "…"}
// into the stream, which ChatWriter (middleware/openai.go) decodes as an
// empty chat chunk; then the stream ends with no finish_reason, no [DONE]
// and the error's text nowhere. The message says so rather than pass for
// a dropped connection; it is retried like any cut.
var errStreamAbandoned = abandonedError{}

type abandonedError struct{}

func (abandonedError) Error() string {
	return "the server ended the stream mid-answer with an empty chunk, no finish_reason and no [DONE], without saying why (Ollama does this when the model fails; its server log has the reason)"
}

func (abandonedError) Unwrap() error { return errStreamCut }

// streamError is an error the server reported inside a stream it had
// begun with 200: a data event {"error": …} (vLLM, llama.cpp) or an SSE
// field `error: …` (llama.cpp through 2025). Ollama sends none (see
// errStreamAbandoned). Status is the HTTP status its code names, 0 when
// it names none.
type streamError struct {
	Status  int
	Message string
	Code    string
}

func (e *streamError) Error() string { return e.Message }

// streamed makes one attempt over Server-Sent Events and reads the
// chunks into the answer a non-streamed request would have returned, so
// both paths share response(). onText, when set, gets each piece of text
// as it arrives; tool-call arguments are only read from the whole answer.
//
// The chunks are read here rather than by openai-go's accumulator, which
// refuses what real servers send (see assemble).
func (c *Client) streamed(ctx context.Context, params openai.ChatCompletionNewParams, res **http.Response, onText func(string)) (answer, error) {
	// Usage arrives in a last chunk only when asked for; servers that do
	// not know the option ignore it and the turn's usage stays zero.
	params.StreamOptions.IncludeUsage = openai.Bool(true)
	// The body into *res is left unread by openai-go; error statuses
	// still come back as *openai.Error.
	_, err := c.chat.New(ctx, params, option.WithJSONSet("stream", true), option.WithResponseBodyInto(res))
	if err != nil {
		return answer{}, err
	}
	body := (*res).Body
	defer body.Close()
	if mt, _, _ := mime.ParseMediaType((*res).Header.Get("Content-Type")); mt == "application/json" {
		// A server that ignores "stream" answers whole.
		var cc openai.ChatCompletion
		data, err := io.ReadAll(body)
		if err != nil {
			return answer{}, err
		}
		if err := json.Unmarshal(data, &cc); err != nil {
			return answer{}, err
		}
		if len(cc.Choices) == 0 {
			return answer{}, nil
		}
		return fromCompletion(&cc), nil
	}
	var a assembler
	a.onText = onText
	if err := readEvents(body, a.add); err != nil {
		return answer{}, err
	}
	return a.done()
}

// readEvents reads Server-Sent Events and hands each payload to fn: the
// data of an event, or the value of an `error:` field. Lines are read
// whole whatever their length (the answer cap bounds them); comments and
// other fields are skipped.
func readEvents(r io.Reader, fn func(payload []byte) (stop bool, err error)) error {
	br := bufio.NewReaderSize(r, 16<<10)
	var data []byte
	dispatch := func() (bool, error) {
		if len(data) == 0 {
			return false, nil
		}
		stop, err := fn(data)
		data = data[:0]
		return stop, err
	}
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: gather it whole.
			long := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		eof := err != nil
		line = bytes.TrimRight(line, "\r\n")
		switch {
		case len(line) == 0:
			if stop, ferr := dispatch(); stop || ferr != nil {
				return ferr
			}
		case line[0] == ':': // a comment (keep-alive)
		default:
			name, value, _ := bytes.Cut(line, []byte(":"))
			value = bytes.TrimPrefix(value, []byte(" "))
			switch {
			case string(name) == "data":
				if len(data) > 0 {
					data = append(data, '\n')
				}
				data = append(data, value...)
			case string(name) == "error":
				if stop, ferr := fn(fmt.Appendf(nil, `{"error":%s}`, value)); stop || ferr != nil {
					return ferr
				}
			}
		}
		if eof {
			_, ferr := dispatch()
			return ferr
		}
	}
}

// Chunk shapes as servers send them; every field optional.
type (
	wireChunk struct {
		Choices []struct {
			Delta struct {
				Content   *string         `json:"content"`
				ToolCalls []wireCallDelta `json:"tool_calls"`
			} `json:"delta"`
			FinishReason *string `json:"finish_reason"`
		} `json:"choices"`
		Usage *struct {
			PromptTokens        int64 `json:"prompt_tokens"`
			CompletionTokens    int64 `json:"completion_tokens"`
			PromptTokensDetails *struct {
				CachedTokens int64 `json:"cached_tokens"`
			} `json:"prompt_tokens_details"`
		} `json:"usage"`
		Error json.RawMessage `json:"error"`
	}
	wireCallDelta struct {
		Index    *int   `json:"index"`
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	}
)

// assembler puts a stream's chunks together. It is lenient where real
// servers differ from OpenAI and openai-go's accumulator is not:
//   - chunk ids and choice indexes may change within one answer (Foundry
//     Local), and a keep-alive chunk with no choices may come first (omlx):
//     ids are ignored, and every choice is the answer's (we ask for one);
//   - "error": null rides on every chunk (Foundry Local);
//   - a tool call's name may come again in every delta (MiniMax via NVIDIA
//     NIM): it is set, never appended;
//   - tool-call deltas may lack "index" (early vLLM): a delta with a new id,
//     or with another name, starts the next call; the rest continue the
//     last one;
//   - usage may be cumulative on every chunk (vLLM 0.5.4): the last chunk
//     that reports usage is the turn's, nothing is summed.
type assembler struct {
	onText   func(string)
	text     strings.Builder
	calls    []*callParts
	byIndex  map[int]*callParts
	finish   string
	finished bool
	usage    Usage
	err      *streamError
	// empty is whether the stream ended on a chunk that carried nothing:
	// no text, no tool call, no finish_reason, no usage, no [DONE] after.
	empty bool
}

func (a *assembler) add(payload []byte) (bool, error) {
	if bytes.Equal(bytes.TrimSpace(payload), []byte("[DONE]")) {
		a.empty = false
		return true, nil
	}
	var ch wireChunk
	if err := json.Unmarshal(payload, &ch); err != nil {
		return false, fmt.Errorf("a streamed chunk is not JSON: %w", err)
	}
	if e := parseStreamError(ch.Error); e != nil {
		a.err = e
		return false, nil // the server may still send [DONE]; its error stands
	}
	a.empty = ch.Usage == nil && len(ch.Choices) > 0
	if ch.Usage != nil {
		a.usage = Usage{PromptTokens: ch.Usage.PromptTokens, CompletionTokens: ch.Usage.CompletionTokens}
		if ch.Usage.PromptTokensDetails != nil {
			a.usage.CachedTokens = ch.Usage.PromptTokensDetails.CachedTokens
		}
	}
	for _, choice := range ch.Choices {
		if d := choice.Delta.Content; d != nil && *d != "" {
			a.empty = false
			a.text.WriteString(*d)
			if a.onText != nil {
				a.onText(*d)
			}
		}
		for _, d := range choice.Delta.ToolCalls {
			a.empty = false
			a.addCall(d)
		}
		if choice.FinishReason != nil && *choice.FinishReason != "" {
			a.empty = false
			a.finish, a.finished = *choice.FinishReason, true
		}
	}
	return false, nil
}

// callParts is one tool call being put together.
type callParts struct {
	rawCall
	args strings.Builder
}

func (a *assembler) addCall(d wireCallDelta) {
	var call *callParts
	switch {
	case d.Index != nil:
		if a.byIndex == nil {
			a.byIndex = map[int]*callParts{}
		}
		call = a.byIndex[*d.Index]
		if call == nil {
			call = a.newCall()
			a.byIndex[*d.Index] = call
		}
	case len(a.calls) > 0:
		last := a.calls[len(a.calls)-1]
		if (d.ID != "" && last.id != "" && d.ID != last.id) ||
			(d.Function.Name != "" && last.name != "" && d.Function.Name != last.name) {
			call = a.newCall()
		} else {
			call = last
		}
	default:
		call = a.newCall()
	}
	if d.ID != "" && call.id == "" {
		call.id = d.ID
	}
	if d.Type != "" {
		call.typ = d.Type
	}
	if d.Function.Name != "" {
		call.name = d.Function.Name
	}
	raw := bytes.TrimSpace(d.Function.Arguments)
	var s string
	switch {
	case len(raw) == 0 || string(raw) == "null":
	case json.Unmarshal(raw, &s) == nil:
		call.args.WriteString(s)
	case raw[0] == '{':
		// Some servers send arguments as an object, whole.
		call.args.Reset()
		call.args.Write(raw)
	}
}

func (a *assembler) newCall() *callParts {
	c := &callParts{}
	a.calls = append(a.calls, c)
	return c
}

// done returns the answer, or why there is none: the server's own error,
// or a cut.
func (a *assembler) done() (answer, error) {
	if a.err != nil {
		return answer{}, a.err
	}
	if !a.finished && a.empty {
		return answer{}, errStreamAbandoned
	}
	if !a.finished {
		return answer{}, errStreamCut
	}
	ans := answer{content: a.text.String(), finish: a.finish, usage: a.usage, choices: 1}
	for _, c := range a.calls {
		rc := c.rawCall
		rc.args = c.args.String()
		ans.calls = append(ans.calls, rc)
	}
	return ans, nil
}

// parseStreamError reads an error a server sent inside a stream; nil for
// none, "error": null included (Foundry Local sends it on every chunk).
func parseStreamError(raw json.RawMessage) *streamError {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return &streamError{Message: s}
	}
	var obj struct {
		Message string          `json:"message"`
		Code    json.RawMessage `json:"code"`
		Type    string          `json:"type"`
	}
	if json.Unmarshal(raw, &obj) != nil {
		return &streamError{Message: string(raw)}
	}
	e := &streamError{Message: obj.Message}
	if e.Message == "" {
		e.Message = string(raw)
	}
	code := strings.Trim(string(bytes.TrimSpace(obj.Code)), `"`)
	if n, err := strconv.Atoi(code); err == nil && n >= 400 && n <= 599 {
		e.Status = n
	} else if code != "" && code != "null" {
		e.Code = code
	}
	return e
}
