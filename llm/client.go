package llm

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	redactor "github.com/lessongen/lessongen/internal/redact"
)

// DefaultBaseURL is OpenAI's API.
const DefaultBaseURL = "https://api.openai.com/v1"

// DefaultMaxRetries is used when Config.MaxRetries is 0.
const DefaultMaxRetries = 4

// Config configures a Client. The config layer resolves every value; nothing
// here is read from the environment.
type Config struct {
	// BaseURL of an OpenAI-compatible API, with its /v1 suffix. Default
	// DefaultBaseURL.
	BaseURL string
	// APIKey is sent as a bearer token; empty sends no Authorization header
	// (local servers).
	APIKey string
	// Model is the model name. Required.
	Model string
	// Temperature and Seed are sent only when set.
	Temperature *float64
	Seed        *int64
	// MaxTokens caps the answer length; 0 leaves it to the server.
	MaxTokens int64
	// TokenField names the field MaxTokens is sent in: TokenFieldAuto ("",
	// the default), TokenFieldMaxTokens or TokenFieldMaxCompletionTokens.
	TokenField string
	// NoParallelToolCalls leaves parallel_tool_calls out of requests with
	// tools, for a server that rejects the field; otherwise it is sent
	// true, since llama.cpp's server defaults it to false.
	NoParallelToolCalls bool
	// ToolsWithoutReasoning sends reasoning_effort "none" with tools, for
	// models that take tools on Chat Completions only so (GPT-6 Luna).
	ToolsWithoutReasoning bool
	// Warn, when set, is told (once per change) when the client adapts a
	// request to a server's refusal of an optional field, with the
	// setting that saves the extra request. Nil says nothing.
	Warn func(string)
	// IdleConns is the number of idle connections kept per host when New
	// makes the HTTP client (at least the run's concurrency, so requests
	// reuse connections instead of dialling anew); 0 means 16.
	IdleConns int
	// TurnTimeout bounds one Complete call, retries and rate-limit waits
	// included; 0 means no bound beyond the caller's context.
	TurnTimeout time.Duration
	// AttemptTimeout bounds one HTTP attempt, reading the answer included.
	// An attempt that runs out is abandoned and retried with backoff like
	// a 5xx, so a stalled connection costs one attempt, not the turn.
	// 0 means no bound beyond the turn's. A value at or above TurnTimeout
	// never fires before the turn does.
	AttemptTimeout time.Duration
	// MaxRetries is the number of retries after the first attempt: 0 means
	// DefaultMaxRetries, a negative value means none.
	MaxRetries int
	// Stream asks for the answer as Server-Sent Events, so text can be
	// shown while it arrives (Request.OnText). The assembled Response is
	// the same as without it.
	Stream bool
	// MaxAnswerBytes caps what is read of one answer body; an answer
	// that passes it is a failed attempt. 0 means DefaultMaxAnswerBytes.
	MaxAnswerBytes int64
	// ImageModel names the model GenerateImage asks for; "" leaves it
	// to the server.
	ImageModel string
	// ImageResponseFormat sends response_format: b64_json with image
	// requests, for DALL·E-style models that answer a URL without it.
	ImageResponseFormat bool
	// HTTPClient is optional.
	HTTPClient *http.Client
	// WrapTransport, when set, wraps the HTTP client's transport: a hook
	// for recording or replaying requests (internal/replay) under the
	// real client code.
	WrapTransport func(http.RoundTripper) http.RoundTripper
	// Limiter paces requests; pass the same one to every Client of a
	// provider. Nil means a private, unlimited one.
	Limiter *Limiter
	// Clock is for tests, so backoff runs without real waits. Nil means real
	// time. It also drives the Limiter that New makes when Limiter is nil.
	Clock Clock
}

// Client is a Model over an OpenAI-compatible Chat Completions API.
type Client struct {
	chat  openai.ChatCompletionService
	opts  []option.RequestOption // for the Batch API's services (Batcher)
	model string
	// red masks the key (and its masked forms: OpenAI answers "Incorrect
	// API key provided: sk-abc****wxyz") and the base URL's credentials in
	// all a server sends that the client keeps: messages, batch ids. It
	// is built as the command's own redactor is (cmd/redact.go), so an
	// error is safe for any caller.
	red        *redactor.Redactor
	temp       *float64
	seed       *int64
	maxTokens  int64
	completion bool // send max_completion_tokens rather than max_tokens
	parallel   bool // send parallel_tool_calls: true with tools
	// What the server refused, learnt during the run (Client.adapt),
	// shared by every subagent's turns.
	parallelOff atomic.Bool // drop parallel_tool_calls
	tokenFlip   atomic.Bool // send the answer cap in the other field
	noReasoning atomic.Bool // send reasoning_effort none with tools
	warn        func(string)
	stream      bool // ask for Server-Sent Events
	timeout     time.Duration
	attempt     time.Duration // per-attempt timeout; 0 = none
	maxRetries  int
	limiter     *Limiter
	clock       Clock
	tools       sync.Map // toolKey -> cachedTool
	images      imageService
}

var _ Model = (*Client)(nil)

// New returns a Client for cfg.
func New(cfg Config) (*Client, error) {
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, errors.New("llm: model is required")
	}
	base := cfg.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// url.Parse errors quote the input, which could hold credentials.
		return nil, fmt.Errorf("llm: base URL %q is not an http(s) URL", redactor.New(cfg.APIKey, base).String(base))
	}
	completion, err := completionField(cfg.TokenField, u.Hostname())
	if err != nil {
		return nil, err
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = newHTTPClient(cfg.IdleConns)
	}
	if cfg.WrapTransport != nil {
		wrapped := *hc
		base := hc.Transport
		if base == nil {
			base = http.DefaultTransport
		}
		wrapped.Transport = cfg.WrapTransport(base)
		hc = &wrapped
	}
	// The cap is outermost, so a recording holds what was read and a
	// replay meets the same cap.
	limit := cfg.MaxAnswerBytes
	if limit <= 0 {
		limit = DefaultMaxAnswerBytes
	}
	capped := *hc
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	capped.Transport = capTransport{next: next, limit: limit}
	hc = &capped
	clock := cfg.Clock
	if clock == nil {
		clock = realClock{}
	}
	lim := cfg.Limiter
	if lim == nil {
		lim = newLimiter(0, 1, clock)
	}
	maxRetries := cfg.MaxRetries
	switch {
	case maxRetries == 0:
		maxRetries = DefaultMaxRetries
	case maxRetries < 0:
		maxRetries = 0
	}
	// openai.NewClient folds OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_ORG_ID,
	// OPENAI_PROJECT_ID, OPENAI_CUSTOM_HEADERS … from the environment into
	// every request, and would send org, project and custom headers to
	// whatever base URL we name; there is no public switch to turn that off.
	// The service built from explicit options alone reads no environment.
	opts := []option.RequestOption{
		option.WithBaseURL(base),
		option.WithAPIKey(cfg.APIKey),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0), // we retry ourselves, through the shared limiter
	}
	c := &Client{
		warn:       cfg.Warn,
		chat:       openai.NewChatCompletionService(opts...),
		opts:       opts,
		model:      cfg.Model,
		red:        redactor.New(cfg.APIKey, base),
		temp:       cfg.Temperature,
		seed:       cfg.Seed,
		maxTokens:  cfg.MaxTokens,
		completion: completion,
		parallel:   !cfg.NoParallelToolCalls,
		stream:     cfg.Stream,
		timeout:    cfg.TurnTimeout,
		attempt:    max(cfg.AttemptTimeout, 0),
		maxRetries: maxRetries,
		limiter:    lim,
		clock:      clock,
		images:     newImageService(u, cfg.ImageModel, cfg.ImageResponseFormat, opts),
	}
	c.noReasoning.Store(cfg.ToolsWithoutReasoning)
	return c, nil
}

// errTurnTimeout is the cause of our own per-turn deadline, to tell it from
// a deadline the caller set.
type errTurnTimeout struct{}

func (errTurnTimeout) Error() string { return "turn timeout" }

// errAttemptTimeout is the cause of our own per-attempt deadline.
type errAttemptTimeout struct{}

func (errAttemptTimeout) Error() string { return "attempt timeout" }

// Complete sends one turn, retrying transient failures.
func (c *Client) Complete(ctx context.Context, req Request) (Response, error) {
	params, err := c.params(req)
	if err != nil {
		return Response{}, err
	}
	parent := ctx
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, c.timeout, errTurnTimeout{})
		defer cancel()
	}

	attempts := 0
	adapted := false // one request changed to a refusal per turn
	var last *ProviderError
	// texted is whether the current attempt has handed out text, which a
	// retry makes void (Request.OnRestart).
	texted := false
	onText := req.OnText
	if onText != nil {
		onText = func(s string) { texted = true; req.OnText(s) }
	}
	for {
		epoch, err := c.limiter.admit(ctx)
		if err != nil {
			return Response{Requests: attempts}, c.stopped(parent, ctx, err, last)
		}
		attempts++
		if texted && req.OnRestart != nil {
			req.OnRestart()
		}
		texted = false
		ans, res, err := c.send(ctx, params, attempts, onText)
		if err == nil {
			if ans.choices == 0 {
				return Response{Requests: attempts}, &ProviderError{
					StatusCode: http.StatusOK, Message: "answer has no choices",
					Attempts: attempts, kind: ErrBadResponse,
				}
			}
			c.limiter.succeeded()
			return c.response(ans, req, attempts), nil
		}
		if ctx.Err() != nil {
			return Response{Requests: attempts}, c.stopped(parent, ctx, err, last)
		}
		last = err.(*ProviderError) // send returns one unless ctx ended
		if !adapted && c.adapt(last, params) {
			// The same turn again without what was refused: the refusal
			// is the same for every request, so the change stays.
			adapted = true
			if params, err = c.params(req); err != nil {
				return Response{Requests: attempts}, err
			}
			continue
		}
		delay, ok := retryDelay(res, attempts-1, c.clock.Now())
		limited := last.StatusCode == http.StatusTooManyRequests
		if limited {
			// Tell the shared limiter even when this caller gives up: every
			// other caller should hold back too. admit then waits it out.
			c.limiter.rateLimited(epoch, min(delay, maxRetryAfter))
		}
		if !last.Retryable || attempts > c.maxRetries || !ok {
			return Response{Requests: attempts}, last
		}
		// A wait that outlasts the deadline only delays the same failure.
		if dl, has := ctx.Deadline(); has && time.Until(dl) < delay {
			return Response{Requests: attempts}, last
		}
		if limited {
			continue
		}
		if err := c.clock.Sleep(ctx, delay); err != nil {
			return Response{Requests: attempts}, c.stopped(parent, ctx, err, last)
		}
	}
}

// send makes one attempt under its own deadline, if one is set. Unless
// ctx itself ended, a failure comes back as a *ProviderError, classified
// before the attempt's context is released (an error body is read then).
// The answer is read inside chat.New, so a body that stalls halfway is cut
// by the same deadline as a server that never answers.
func (c *Client) send(ctx context.Context, params openai.ChatCompletionNewParams, attempt int, onText func(string)) (answer, *http.Response, error) {
	actx := ctx
	if c.attempt > 0 {
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeoutCause(ctx, c.attempt, errAttemptTimeout{})
		defer cancel()
	}
	var res *http.Response
	var ans answer
	var err error
	if c.stream {
		ans, err = c.streamed(actx, params, &res, onText)
	} else {
		var cc *openai.ChatCompletion
		cc, err = c.chat.New(actx, params, option.WithResponseInto(&res))
		if err == nil {
			ans = fromCompletion(cc)
		}
	}
	var tooLarge *AnswerTooLargeError
	var serr *streamError
	switch {
	case err == nil:
		return ans, res, nil
	case ctx.Err() != nil:
		return ans, res, err // the turn ended, not just this attempt
	case errors.As(err, &tooLarge) && res != nil:
		// A failed attempt like a cut one: the next answer may be sane.
		return ans, res, &ProviderError{
			StatusCode: res.StatusCode, Message: tooLarge.Error(), Retryable: true, Attempts: attempt,
			Fix: "raise --max-answer-bytes (LESSONGEN_MAX_ANSWER_BYTES, max_answer_bytes in the config file) if the server's answers are really this large",
		}
	case errors.As(err, &serr):
		// The server's own error, classified like an HTTP error of its code.
		return ans, res, streamFailure(serr, attempt, c.red)
	case errors.Is(err, errStreamCut):
		// Cut like a dropped connection: transient, retried.
		return ans, res, &ProviderError{StatusCode: res.StatusCode, Message: err.Error(), Retryable: true, Attempts: attempt}
	case errors.Is(context.Cause(actx), errAttemptTimeout{}):
		return ans, res, &ProviderError{
			Message:   fmt.Sprintf("no complete answer within the attempt timeout of %s", c.attempt),
			Retryable: true, Attempts: attempt, kind: context.DeadlineExceeded,
		}
	}
	return ans, res, classify(err, res, attempt, c.red)
}

// stopped explains why a turn ended on its context: the caller's
// cancellation, or our turn timeout.
func (c *Client) stopped(parent, ctx context.Context, err error, last *ProviderError) error {
	if perr := parent.Err(); perr != nil {
		return fmt.Errorf("llm: %w", perr)
	}
	if errors.Is(context.Cause(ctx), errTurnTimeout{}) {
		if last != nil {
			return fmt.Errorf("llm: server did not answer within the turn timeout of %s: %w (last error: %w)",
				c.timeout, context.DeadlineExceeded, last)
		}
		return fmt.Errorf("llm: server did not answer within the turn timeout of %s: %w",
			c.timeout, context.DeadlineExceeded)
	}
	return fmt.Errorf("llm: %w", err)
}

// adapt changes the client's requests to a refusal of an optional field
// the request carried, and warns with the setting that saves the refused
// request next time; false when the refusal is not one to adapt to.
// parallel_tool_calls is a hint the server's default stands in for; the
// answer cap moves to the field the model names; tools without
// reasoning are what such a model's page asks for. stream_options and
// strict are not adapted to: without them a run loses its usage or its
// schemas, which the user should choose (the error's fix says how).
func (c *Client) adapt(pe *ProviderError, sent openai.ChatCompletionNewParams) bool {
	// Another subagent's turn may have learnt the same refusal first:
	// this turn is still sent again, and only the first one warns.
	var msg string
	switch {
	case pe.field == fieldParallel && sent.ParallelToolCalls.Valid():
		if !c.parallelOff.Swap(true) {
			msg = fmt.Sprintf("model %q on this server refuses parallel_tool_calls: sending requests without it; to save the refused request, set --parallel-tool-calls=false (parallel_tool_calls: false in the config file)", c.model)
		}
	case pe.field == fieldMaxTokens && sent.MaxTokens.Valid(), pe.field == fieldCompletionToken && sent.MaxCompletionTokens.Valid():
		other := TokenFieldMaxCompletionTokens
		if pe.field == fieldCompletionToken {
			other = TokenFieldMaxTokens
		}
		if want := c.completion != (other == TokenFieldMaxCompletionTokens); c.tokenFlip.Swap(want) != want {
			msg = fmt.Sprintf("model %q on this server refuses %s: sending the answer cap as %s; to save the refused request, set --token-field %s", c.model, pe.field, other, other)
		}
	case pe.field == fieldReasoning && len(sent.Tools) > 0 && sent.ReasoningEffort == "":
		if !c.noReasoning.Swap(true) {
			msg = fmt.Sprintf("model %q takes tools through Chat Completions only with reasoning_effort none: sending it with tools", c.model)
		}
	default:
		return false
	}
	if msg != "" && c.warn != nil {
		c.warn(msg)
	}
	return true
}

// params builds the wire request from our own types; per the openai-go
// notes we never round-trip a response through ToParam.
func (c *Client) params(req Request) (openai.ChatCompletionNewParams, error) {
	p := openai.ChatCompletionNewParams{Model: shared.ChatModel(c.model)}
	for i, m := range req.Messages {
		mp, err := messageParam(m)
		if err != nil {
			return p, fmt.Errorf("llm: message %d: %w", i, err)
		}
		p.Messages = append(p.Messages, mp)
	}
	for _, t := range req.Tools {
		tp, err := c.toolParam(t)
		if err != nil {
			return p, fmt.Errorf("llm: tool %q: %w", t.Name, err)
		}
		p.Tools = append(p.Tools, tp)
	}
	if len(p.Tools) > 0 && c.parallel && !c.parallelOff.Load() {
		p.ParallelToolCalls = openai.Bool(true)
	}
	if len(p.Tools) > 0 && c.noReasoning.Load() {
		p.ReasoningEffort = shared.ReasoningEffortNone
	}
	if c.temp != nil {
		p.Temperature = openai.Float(*c.temp)
	}
	if c.seed != nil {
		p.Seed = openai.Int(*c.seed)
	}
	if c.maxTokens > 0 {
		// OpenAI deprecated max_tokens for max_completion_tokens, but Ollama
		// and other compatible servers document only max_tokens.
		if c.completion != c.tokenFlip.Load() {
			p.MaxCompletionTokens = openai.Int(c.maxTokens)
		} else {
			p.MaxTokens = openai.Int(c.maxTokens)
		}
	}
	return p, nil
}

func messageParam(m Message) (openai.ChatCompletionMessageParamUnion, error) {
	switch m.Role {
	case RoleSystem:
		return openai.SystemMessage(m.Content), nil
	case RoleUser:
		if len(m.Images) == 0 {
			return openai.UserMessage(m.Content), nil
		}
		parts := []openai.ChatCompletionContentPartUnionParam{openai.TextContentPart(m.Content)}
		for _, img := range m.Images {
			parts = append(parts, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{
				URL: "data:image/png;base64," + base64.StdEncoding.EncodeToString(img)}))
		}
		return openai.UserMessage(parts), nil
	case RoleTool:
		if m.ToolCallID == "" {
			return openai.ChatCompletionMessageParamUnion{}, errors.New("tool message without a tool call id")
		}
		return openai.ToolMessage(m.Content, m.ToolCallID), nil
	case RoleAssistant:
		var a openai.ChatCompletionAssistantMessageParam
		// With tool calls, content may be absent; without, send it even when
		// empty, since some servers reject an assistant message with neither.
		if m.Content != "" || len(m.ToolCalls) == 0 {
			a.Content.OfString = openai.String(m.Content)
		}
		for _, tc := range m.ToolCalls {
			if tc.ID == "" {
				return openai.ChatCompletionMessageParamUnion{}, fmt.Errorf("tool call %q without an id", tc.Name)
			}
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID: tc.ID,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
						Name:      tc.Name,
						Arguments: historyArguments(tc.Arguments),
					},
				},
			})
		}
		return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}, nil
	default:
		return openai.ChatCompletionMessageParamUnion{}, fmt.Errorf("unknown role %q", m.Role)
	}
}

// toolKey identifies a tool definition without hashing its schema: the
// bridge hands every request the same schema bytes for a tool, so where
// they live names them.
type toolKey struct {
	name, desc string
	params     *byte
	n          int
	strict     bool
}

// toolParam is the wire form of t, built once per client (that is, per
// run) rather than on every turn of every subagent.
func (c *Client) toolParam(t Tool) (openai.ChatCompletionToolUnionParam, error) {
	key := toolKey{name: t.Name, desc: t.Description, n: len(t.Parameters), strict: t.Strict}
	if len(t.Parameters) > 0 {
		key.params = &t.Parameters[0]
	}
	// The bytes are compared too (a memcmp, far cheaper than decoding),
	// so a caller that reuses a buffer cannot get a stale schema.
	if v, ok := c.tools.Load(key); ok && bytes.Equal(v.(cachedTool).params, t.Parameters) {
		return v.(cachedTool).param, nil
	}
	tp, err := toolParam(t)
	if err == nil {
		c.tools.Store(key, cachedTool{params: bytes.Clone(t.Parameters), param: tp})
	}
	return tp, err
}

type cachedTool struct {
	params []byte
	param  openai.ChatCompletionToolUnionParam
}

func toolParam(t Tool) (openai.ChatCompletionToolUnionParam, error) {
	fd := shared.FunctionDefinitionParam{Name: t.Name}
	if t.Description != "" {
		fd.Description = openai.String(t.Description)
	}
	if t.Strict {
		fd.Strict = openai.Bool(true)
	}
	params := bytes.TrimSpace(t.Parameters)
	if len(params) == 0 {
		// Some servers reject a function without parameters.
		params = []byte(`{"type":"object","properties":{}}`)
	}
	// Keep each value's raw JSON so numbers and nested order survive as
	// written; only the top-level keys get re-ordered.
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(params, &fields); err != nil {
		return openai.ChatCompletionToolUnionParam{}, fmt.Errorf("parameters are not a JSON object: %w", err)
	}
	fd.Parameters = make(shared.FunctionParameters, len(fields))
	for k, v := range fields {
		fd.Parameters[k] = v
	}
	return openai.ChatCompletionFunctionTool(fd), nil
}

// answer is one model answer as read from the wire, streamed or not,
// before it becomes a Response.
type answer struct {
	content string
	finish  string
	calls   []rawCall
	usage   Usage
	choices int // 0: the server sent no choice
}

// rawCall is a tool call as the server sent it.
type rawCall struct{ id, typ, name, args string }

// fromCompletion reads the first choice of a whole answer, tolerating
// what compatible servers do: content null, tool calls without id or
// type, arguments as an object, no usage.
func fromCompletion(cc *openai.ChatCompletion) answer {
	a := answer{
		choices: len(cc.Choices),
		usage: Usage{
			PromptTokens:     cc.Usage.PromptTokens,
			CompletionTokens: cc.Usage.CompletionTokens,
			CachedTokens:     cc.Usage.PromptTokensDetails.CachedTokens,
		},
	}
	if len(cc.Choices) == 0 {
		return a
	}
	choice := cc.Choices[0]
	a.content, a.finish = choice.Message.Content, choice.FinishReason
	for _, tc := range choice.Message.ToolCalls {
		call := rawCall{id: tc.ID, typ: tc.Type, name: tc.Function.Name, args: tc.Function.Arguments}
		if tc.Type == "custom" {
			call.name, call.args = tc.Custom.Name, tc.Custom.Input
		}
		if call.args == "" {
			// Some servers send arguments as a JSON object, not a string.
			if raw := strings.TrimSpace(tc.Function.JSON.Arguments.Raw()); strings.HasPrefix(raw, "{") {
				call.args = raw
			}
		}
		a.calls = append(a.calls, call)
	}
	return a
}

// response makes the Response of an answer, giving every tool call an id.
func (c *Client) response(a answer, req Request, attempts int) Response {
	msg := Message{Role: RoleAssistant, Content: a.content}

	// Synthesized ids count on from the calls already in the conversation,
	// so they are stable for a given history and unique across its turns.
	prior := 0
	for _, m := range req.Messages {
		prior += len(m.ToolCalls)
	}
	seen := make(map[string]bool, len(a.calls))
	for i, rc := range a.calls {
		call := ToolCall{ID: rc.id, Name: rc.name, Arguments: rc.args}
		if call.ID == "" || seen[call.ID] {
			call.ID = "call_" + strconv.Itoa(prior+i)
		}
		seen[call.ID] = true
		msg.ToolCalls = append(msg.ToolCalls, call)
	}
	return Response{
		Message:      msg,
		FinishReason: a.finish,
		Usage:        a.usage,
		Requests:     attempts,
	}
}
