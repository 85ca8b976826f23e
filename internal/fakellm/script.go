package fakellm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// Script says how the server answers. It is plain data so scenarios can
// keep it in a JSON file next to the test.
type Script struct {
	Rules []Rule `json:"rules"`
	// Latency is added to every answer (benchmarks).
	Latency Duration `json:"latency,omitempty"`
	// Models are listed by GET /v1/models; none answers 404 there.
	Models []string `json:"models,omitempty"`
	// ShutdownDates gives listed models a shutdown_date (YYYY-MM-DD), as
	// OpenAI's GET /v1/models does for models it will shut down.
	ShutdownDates map[string]string `json:"shutdown_dates,omitempty"`
	// Quirks imitate how real servers refuse requests.
	Quirks Quirks `json:"quirks,omitempty"`
	// Stream shapes streamed answers. A request with "stream": true is
	// always answered with Server-Sent Events, as OpenAI does.
	Stream StreamOptions `json:"stream,omitempty"`
	// Created, when set, is the "created" time of every answer instead of
	// now, and answer ids come from the request instead of the order
	// requests arrive in, so a recording of a run is the same each time it
	// is made.
	Created int64 `json:"created,omitempty"`
	// Images, when set, serves the images API (see ImagesOptions).
	Images *ImagesOptions `json:"images,omitempty"`
	// NoBatch answers 404 on the Batch API's routes (/v1/files,
	// /v1/batches), as llama.cpp, Ollama and vLLM's OpenAI server do.
	NoBatch bool `json:"no_batch,omitempty"`
	// Batch makes the Batch API misbehave (see BatchFaults).
	Batch BatchFaults `json:"batch,omitempty"`
	// Comment is for people reading the script; the server ignores it.
	Comment string `json:"comment,omitempty"`
}

// StreamOptions shape Server-Sent Event answers.
type StreamOptions struct {
	// Chunk splits text and every tool call's arguments into pieces of at
	// most this many bytes (never inside a UTF-8 character), one chunk
	// each; 0 sends each whole.
	Chunk int `json:"chunk,omitempty"`
	// CutOnce ends the first streamed answer of the server halfway: the
	// body ends cleanly, but without a finish_reason and without
	// [DONE], as when a proxy drops a stream.
	CutOnce bool `json:"cut_once,omitempty"`

	// How real servers stream, each unlike OpenAI (a client must read
	// them all; see /work/shared/notes/servers.md).

	// NullError adds "error": null to every chunk, as Foundry Local does.
	NullError bool `json:"null_error,omitempty"`
	// ChangingIDs gives every chunk an id (and choice index) of its own
	// ("chat.id.1", "chat.id.2", …), as Foundry Local does.
	ChangingIDs bool `json:"changing_ids,omitempty"`
	// KeepAliveFirst sends a chunk with no choices and an id of its own
	// before the answer, as omlx does.
	KeepAliveFirst bool `json:"keep_alive_first,omitempty"`
	// ResendName repeats a tool call's function name in every delta of
	// it, as MiniMax models behind NVIDIA NIM do.
	ResendName bool `json:"resend_name,omitempty"`
	// NoIndex leaves "index" out of tool-call deltas, as early vLLM did.
	NoIndex bool `json:"no_index,omitempty"`
	// CumulativeUsage puts the usage so far on every chunk, as vLLM 0.5.4
	// does with include_usage (continuous_usage_stats).
	CumulativeUsage bool `json:"cumulative_usage,omitempty"`
}

// Styles of Turn.StreamError: how a server reports an error after it has
// started a 200 stream.
const (
	// StreamErrorVLLM: a data event {"error": {...,"code": STATUS}}, then
	// [DONE] (vLLM; newer llama.cpp builds send such a data event too).
	StreamErrorVLLM = "vllm"
	// StreamErrorLlamaCpp: a non-standard SSE field `error: {...}`, then
	// [DONE] (llama.cpp builds through 2025).
	StreamErrorLlamaCpp = "llama.cpp"
	// StreamErrorOllama: a chunk with an empty delta and no
	// finish_reason, then the end of the stream, without [DONE] and
	// without the error's text (Ollama's OpenAI layer; see streamError).
	// The status and message are not sent.
	StreamErrorOllama = "ollama"
)

// Quirks are refusals of real OpenAI-compatible servers, checked before any
// rule, with the servers' own status and error text (see
// /work/shared/notes/servers.md).
type Quirks struct {
	// OllamaArgs refuses, as Ollama does, a request whose history holds a
	// tool call with arguments that are not a JSON object (empty included).
	OllamaArgs bool `json:"ollama_args,omitempty"`
	// NoJinja refuses every request with tools, as llama-server started
	// without --jinja does.
	NoJinja bool `json:"no_jinja,omitempty"`
	// NoAutoToolChoice refuses every request with tools, as vLLM started
	// without --enable-auto-tool-choice does.
	NoAutoToolChoice bool `json:"no_auto_tool_choice,omitempty"`
	// RejectStrict refuses tools with a strict field, as older vLLM does.
	RejectStrict bool `json:"reject_strict,omitempty"`
	// AzureParallelToolCalls refuses a request that sends
	// parallel_tool_calls, as Azure OpenAI does for models without it.
	AzureParallelToolCalls bool `json:"azure_parallel_tool_calls,omitempty"`
	// OpenAIReasoning refuses parallel_tool_calls and max_tokens as
	// OpenAI's reasoning models do (o3, o4-mini): 400 "Unsupported
	// parameter: 'FIELD' is not supported with this model."
	OpenAIReasoning bool `json:"openai_reasoning,omitempty"`
	// ToolsNeedNoReasoning refuses tools unless reasoning_effort is
	// "none", as OpenAI's Chat Completions does for GPT-5.4 and later.
	ToolsNeedNoReasoning bool `json:"tools_need_no_reasoning,omitempty"`
	// AzureUnknownParameter refuses parallel_tool_calls and
	// stream_options as newer Azure OpenAI API versions do: 400 "Unknown
	// parameter: 'FIELD'."
	AzureUnknownParameter bool `json:"azure_unknown_parameter,omitempty"`
	// AzureStreamOptions refuses a request that sends stream_options, as
	// Azure OpenAI API versions before 2024-09 do.
	AzureStreamOptions bool `json:"azure_stream_options,omitempty"`
	// OllamaNoTools refuses every request with tools, as Ollama does for
	// a model whose template has no tool support.
	OllamaNoTools bool `json:"ollama_no_tools,omitempty"`
	// LlamaCppNoToolStream refuses a streamed request with tools with a
	// 500, as llama-server builds before streamed tool calls did.
	LlamaCppNoToolStream bool `json:"llamacpp_no_tool_stream,omitempty"`
	// ContextTokens, when set, refuses a request whose prompt counts more
	// tokens (about 4 bytes each, as usage counts them) with llama.cpp's
	// 400 "the request exceeds the available context size".
	ContextTokens int `json:"context_tokens,omitempty"`
	// LlamaCppNoImages refuses a request with an image part, as
	// llama-server started without a multimodal projector (--mmproj)
	// does: 500 "image input is not supported - hint: ...".
	LlamaCppNoImages bool `json:"llamacpp_no_images,omitempty"`
	// NoUsage leaves usage out of answers.
	NoUsage bool `json:"no_usage,omitempty"`
}

// Rule answers the conversations it matches, turn by turn.
type Rule struct {
	// Match: the rule applies when every string here occurs in the request's
	// system message or first user message (the task prompt). Empty matches
	// all.
	Match []string `json:"match,omitempty"`
	// Turns[i] answers the i-th model turn of a conversation, where i is the
	// number of assistant messages already in the request. Past the end, the
	// last turn repeats if Repeat is true, else the server answers a plain
	// text "done" message with no tool calls.
	Turns  []Turn `json:"turns"`
	Repeat bool   `json:"repeat,omitempty"`
}

// Turn is one scripted answer, optionally preceded by failures.
type Turn struct {
	Content   string     `json:"content,omitempty"`
	ToolCalls []FakeCall `json:"tool_calls,omitempty"`

	// Failure modes, applied before the normal answer.

	// Status answers with this HTTP status (e.g. 429, 500) and ErrorBody.
	Status int `json:"status,omitempty"`
	// ErrorBody is the raw body sent with Status; default
	// {"error":{"message":"...","type":"server_error"}}.
	ErrorBody string `json:"error_body,omitempty"`
	// RetryAfter is the Retry-After header sent with Status.
	RetryAfter string `json:"retry_after,omitempty"`
	// Times is how often the failure (Status or Hang) happens for this turn
	// of a conversation before the normal answer: 0 or 1 = once, -1 =
	// forever.
	Times int `json:"times,omitempty"`
	// Hang never answers, until the client gives up or the server closes.
	Hang bool `json:"hang,omitempty"`
	// Hold keeps the answer back until the test releases the server
	// (Server.Release, `fakellm release`), then answers normally: a run
	// paused mid-way, for a test to act (edit a file, start a second run).
	Hold bool `json:"hold,omitempty"`

	// StreamError, with Status, sends the scripted failure inside a 200
	// stream, after half the answer, in a server's style (StreamErrorVLLM,
	// StreamErrorLlamaCpp, StreamErrorOllama) instead of as an HTTP
	// status; ErrorBody is then the error's message. A request that does
	// not stream gets the HTTP status.
	StreamError string `json:"stream_error,omitempty"`
	// BatchRaised, with Status, makes the offline runner (RunBatch) write
	// the failure as vLLM's run_batch writes a request that raised: status
	// 400 and the message as a string "error". Over HTTP it changes
	// nothing.
	BatchRaised bool `json:"batch_raised,omitempty"`

	// Quirks of compatible servers, applied to the normal answer.

	// NullContent sends "content": null.
	NullContent bool `json:"null_content,omitempty"`
	// OmitIDs sends tool calls without "id".
	OmitIDs bool `json:"omit_ids,omitempty"`

	// Runaway answers, for the client's cap on what it reads.

	// Endless answers 200 with a body that never ends, as a runaway
	// server or proxy does: text chunks forever when streamed, else a
	// JSON answer whose content string never closes. It ends when the
	// client hangs up or the server closes.
	Endless bool `json:"endless,omitempty"`
	// HugeBytes pads the answer's text to this many bytes: one complete
	// JSON answer, or as many text chunks when streamed. It is written as
	// it is sent, so the server holds none of it.
	HugeBytes int `json:"huge_bytes,omitempty"`
}

// FakeCall is a tool call the fake model makes.
type FakeCall struct {
	// ID defaults to a generated one unless the turn has OmitIDs.
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	// Arguments is sent verbatim as the arguments string; it may be any
	// text, including broken JSON. Each "{{digest}}" in it is replaced by
	// a short hash of the request's messages: a model that answers the
	// same conversation the same way and a different one differently, so
	// a test sees in the output whether a prompt changed.
	Arguments string `json:"arguments,omitempty"`
	// Args is the same as a JSON value, easier to write in scripts; it is
	// sent compacted, as Arguments.
	Args json.RawMessage `json:"args,omitempty"`
	// Repeat makes the call this many times in a row (0 or 1: once), for
	// floods of calls; the copies get generated ids, so it takes no ID.
	Repeat int `json:"repeat,omitempty"`
}

// Duration is a time.Duration that reads and writes as a Go duration
// string ("50ms").
type Duration time.Duration

// MarshalJSON implements json.Marshaler.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON implements json.Unmarshaler.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration must be a string like \"50ms\": %w", err)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// ParseScript reads a Script from JSON. Unknown fields are an error, so a
// typo in a scenario fails loudly instead of silently doing nothing.
func ParseScript(data []byte) (Script, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Script
	if err := dec.Decode(&s); err != nil {
		return Script{}, fmt.Errorf("fakellm: parse script: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Script{}, errors.New("fakellm: parse script: trailing data after the script object")
	}
	for i := range s.Rules {
		for j := range s.Rules[i].Turns {
			for k := range s.Rules[i].Turns[j].ToolCalls {
				c := &s.Rules[i].Turns[j].ToolCalls[k]
				if len(c.Args) == 0 {
					continue
				}
				if c.Arguments != "" {
					return Script{}, fmt.Errorf("fakellm: rule %d turn %d call %d: give args or arguments, not both", i, j, k)
				}
				var b bytes.Buffer
				if err := json.Compact(&b, c.Args); err != nil {
					return Script{}, fmt.Errorf("fakellm: rule %d turn %d call %d: %w", i, j, k, err)
				}
				c.Arguments, c.Args = b.String(), nil
			}
		}
	}
	if err := s.validate(); err != nil {
		return Script{}, err
	}
	for i := range s.Rules {
		for j := range s.Rules[i].Turns {
			t := &s.Rules[i].Turns[j]
			var calls []FakeCall
			for _, c := range t.ToolCalls {
				for range max(c.Repeat, 1) {
					calls = append(calls, FakeCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
				}
			}
			t.ToolCalls = calls
		}
	}
	return s, nil
}

func (s Script) validate() error {
	if s.Images != nil && s.Images.Delay < 0 {
		return errors.New("fakellm: images delay must not be negative")
	}
	if s.Latency < 0 {
		return errors.New("fakellm: latency must not be negative")
	}
	for i, r := range s.Rules {
		for j, t := range r.Turns {
			where := fmt.Sprintf("fakellm: rule %d turn %d", i, j)
			switch {
			case t.Status != 0 && (t.Status < 400 || t.Status > 599):
				return fmt.Errorf("%s: status %d is not an error status", where, t.Status)
			case t.Status != 0 && t.Hang:
				return fmt.Errorf("%s: status and hang are exclusive", where)
			case t.Hold && t.Hang:
				return fmt.Errorf("%s: hold and hang are exclusive", where)
			case t.BatchRaised && t.Status == 0:
				return fmt.Errorf("%s: batch_raised needs a status", where)
			case t.StreamError != "" && t.Status == 0:
				return fmt.Errorf("%s: stream_error needs a status", where)
			case t.StreamError != "" && t.StreamError != StreamErrorVLLM && t.StreamError != StreamErrorLlamaCpp && t.StreamError != StreamErrorOllama:
				return fmt.Errorf("%s: stream_error %q is not one of vllm, llama.cpp, ollama", where, t.StreamError)
			case t.Times < -1:
				return fmt.Errorf("%s: times must be -1 (forever) or more", where)
			}
			for k, c := range t.ToolCalls {
				if c.Name == "" {
					return fmt.Errorf("%s: tool call %d has no name", where, k)
				}
				if c.Repeat < 0 || c.Repeat > 1 && c.ID != "" {
					return fmt.Errorf("%s: tool call %d: repeat must be 0 or more, and a repeated call takes no id", where, k)
				}
			}
		}
	}
	return nil
}
