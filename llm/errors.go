package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"

	"github.com/openai/openai-go/v3"

	redactor "github.com/lessongen/lessongen/internal/redact"
)

// Sentinels callers test with errors.Is to tell the user which setting to fix.
var (
	// ErrAuth means the server refused the credentials (401 or 403): check the
	// API key.
	ErrAuth = errors.New("model server refused the credentials (check the API key)")
	// ErrNotFound means 404, which usually is a wrong model name or base URL.
	ErrNotFound = errors.New("model server answered not found (check the model name and base URL)")
	// ErrUnreachable means no connection could be made (refused, DNS): check
	// the base URL and that the server runs.
	ErrUnreachable = errors.New("model server unreachable (check the base URL and that the server is running)")
	// ErrBadResponse means the server answered 2xx with something that is not
	// a chat completion, which usually is a base URL pointing elsewhere.
	ErrBadResponse = errors.New("model server answered with something that is not a chat completion (check the base URL)")
	// ErrServerSetup means the server refuses the request as configured
	// (tool calling not enabled, strict schemas unknown): no retry helps,
	// and ProviderError.Fix says what to change.
	ErrServerSetup = errors.New("model server is not set up for this request")
)

// ProviderError is a failed model turn: an HTTP error status, a connection
// failure (StatusCode 0) or an unusable answer.
type ProviderError struct {
	// StatusCode is the HTTP status, or 0 when no response arrived.
	StatusCode int
	// Message is the server's own explanation (or the transport error), with
	// the API key redacted.
	Message string
	// Code is the provider's error code when it sent one.
	Code string
	// Retryable reports whether the failure is of a kind that is retried.
	Retryable bool
	// Attempts is the number of HTTP attempts made for the turn.
	Attempts int
	// Fix says what to change when the server named a setting it lacks.
	Fix string

	kind  error  // one of the sentinels above, or nil
	field string // the request field the server refused, if it named one
}

func (e *ProviderError) Error() string {
	var b strings.Builder
	b.WriteString("llm: ")
	switch {
	case e.StatusCode == 0:
		b.WriteString("no answer from model server")
	default:
		fmt.Fprintf(&b, "model server answered %d", e.StatusCode)
		if t := http.StatusText(e.StatusCode); t != "" {
			b.WriteString(" " + t)
		}
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if e.Code != "" {
		fmt.Fprintf(&b, " (code %s)", e.Code)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (after %d attempts)", e.Attempts)
	}
	if e.Fix != "" {
		b.WriteString("\nfix: " + e.Fix)
	}
	return b.String()
}

// Unwrap exposes the sentinel (ErrAuth, ErrNotFound, …) for errors.Is;
// attempts that ran out of time unwrap to context.DeadlineExceeded.
func (e *ProviderError) Unwrap() error { return e.kind }

// Systemic reports whether err is a failure every request to this provider
// would meet the same way: credentials refused, a model or route that does
// not exist, a server that cannot be reached or does not speak the API. The
// rest (a timeout, 5xx or 429 that outlasted its retries, a 400 for one
// prompt) concerns one request, and another may well succeed.
func Systemic(err error) bool {
	return errors.Is(err, ErrAuth) || errors.Is(err, ErrNotFound) ||
		errors.Is(err, ErrUnreachable) || errors.Is(err, ErrBadResponse) ||
		errors.Is(err, ErrServerSetup)
}

// maxMessageLen bounds how much of an error body ends up in a message, since
// some servers answer errors with whole HTML pages.
const maxMessageLen = 600

// classify turns a failed attempt into a ProviderError. res is the raw
// response when one arrived; openai-go leaves an error body readable on it.
func classify(err error, res *http.Response, attempt int, red *redactor.Redactor) *ProviderError {
	pe := &ProviderError{Attempts: attempt}
	byStatus := false // whether the status decides retry and kind
	var apiErr *openai.Error
	switch {
	case errors.As(err, &apiErr):
		pe.StatusCode = apiErr.StatusCode
		pe.Message = apiErr.Message
		pe.Code = apiErr.Code
		if pe.Message == "" {
			pe.Message = bodyMessage(readBody(res))
		}
		if pe.Message == "" {
			pe.Message = apiErr.RawJSON()
		}
		byStatus = true
	case res != nil && res.StatusCode >= 400:
		// Bodies like {"error":"some string"} or plain text, which openai-go
		// fails to decode; the status would be lost without this.
		pe.StatusCode = res.StatusCode
		pe.Message = bodyMessage(readBody(res))
		byStatus = true
	case res != nil && isTransport(err):
		// The body was cut off mid-answer: as transient as a refused dial.
		pe.StatusCode = res.StatusCode
		pe.Message = err.Error()
		pe.Retryable = true
	case res != nil:
		pe.StatusCode = res.StatusCode
		pe.kind = ErrBadResponse
		ct := res.Header.Get("Content-Type")
		if mt, _, _ := mime.ParseMediaType(ct); mt != "application/json" && !strings.HasSuffix(mt, "+json") {
			pe.Message = fmt.Sprintf("answer has content-type %q, want application/json", ct)
		} else {
			pe.Message = fmt.Sprintf("cannot decode answer: %v", err)
		}
	default:
		pe.Message = err.Error()
		pe.Retryable = true
		if isUnreachable(err) {
			pe.kind = ErrUnreachable
		}
	}
	if byStatus {
		pe.byStatus(res)
	}
	return pe.finish(red)
}

// byStatus decides retry and kind from the status, and the server's
// message when it names a setting to fix.
func (pe *ProviderError) byStatus(res *http.Response) {
	pe.Retryable = retryableStatus(res, pe.StatusCode)
	switch pe.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		pe.kind = ErrAuth
	case http.StatusNotFound:
		pe.kind = ErrNotFound
	}
	if fix, field := setupFix(pe.Message); fix != "" {
		pe.Fix, pe.Retryable, pe.kind, pe.field = fix, false, ErrServerSetup, field
	}
}

// finish redacts and bounds what the server wrote.
func (pe *ProviderError) finish(red *redactor.Redactor) *ProviderError {
	pe.Message = truncate(red.String(strings.TrimSpace(pe.Message)), maxMessageLen)
	pe.Code = red.String(pe.Code)
	return pe
}

// streamFailure is an error the server sent inside a 200 stream, taken as
// an HTTP error of the status its code names. One that names none (Ollama
// sends "code": null) counts as a 500: the server failed mid-answer.
func streamFailure(e *streamError, attempt int, red *redactor.Redactor) *ProviderError {
	pe := &ProviderError{StatusCode: e.Status, Message: e.Message, Code: e.Code, Attempts: attempt}
	if pe.StatusCode == 0 {
		pe.StatusCode = http.StatusInternalServerError
	}
	pe.byStatus(nil)
	return pe.finish(red)
}

// setupFixes are the refusals a server makes when it is not set up for
// what a tool-calling request needs, each with what to change. The texts
// are the servers' own: llama.cpp's server answers 500 "tools param
// requires --jinja flag" and, in builds before streamed tool calls, 500
// "Cannot use tools with stream"; vLLM 400 "\"auto\" tool choice requires
// --enable-auto-tool-choice and --tool-call-parser to be set"; Ollama 400
// "MODEL does not support tools".
var setupFixes = []struct{ marker, fix string }{
	{"requires --jinja", "llama.cpp: start llama-server with --jinja (and a model whose chat template supports tools)"},
	{"--enable-auto-tool-choice", "vLLM: start the server with --enable-auto-tool-choice --tool-call-parser NAME (the parser for your model, e.g. hermes, llama3_json, mistral)"},
	{"cannot use tools with stream", "llama.cpp: this llama-server cannot stream tool calls: run without --stream, or update llama.cpp"},
	{"does not support tools", "this model does not support tool calling on this server (Ollama: its template has no tools): choose one that does with --model"},
	// llama.cpp's server without a multimodal projector answers images
	// with "image input is not supported - hint: ... provide the mmproj".
	{"image input is not supported", "llama.cpp: this llama-server takes no images: start it with --mmproj FILE (the model's projector), or run without --review-images"},
}

// imageRefusalMarkers are words of a server's refusal of image input:
// llama.cpp's "image input is not supported", OpenAI's "Invalid content
// type. image_url is only supported by certain models", vLLM's "... is
// not a multimodal model".
var imageRefusalMarkers = []string{"image", "vision", "multimodal", "content type"}

// ImageRefused reports whether err is a server refusing a request's image
// parts: a 4xx or 5xx (not 429) whose message speaks of images. Callers
// ask only about requests that carried images.
func ImageRefused(err error) bool {
	var pe *ProviderError
	if !errors.As(err, &pe) || pe.StatusCode < 400 || pe.StatusCode == http.StatusTooManyRequests {
		return false
	}
	low := strings.ToLower(pe.Message)
	for _, m := range imageRefusalMarkers {
		if strings.Contains(low, m) {
			return true
		}
	}
	return false
}

// unknownFieldMarkers are how servers refuse a request field, naming the
// field in the message: OpenAI's "Unsupported parameter: 'FIELD' is not
// supported with this model." (reasoning models), newer Azure OpenAI's
// "Unknown parameter: 'FIELD'.", older Azure's "Unrecognized request
// argument supplied: FIELD", pydantic's "Extra inputs are not permitted"
// (older vLLM, the field in the error's loc before the words).
var unknownFieldMarkers = []string{
	"unsupported parameter", "unknown parameter",
	"unrecognized request argument supplied", "extra inputs are not permitted",
}

// Fields a server may refuse, each with what to change. The client
// adapts to the first three once by itself (Client.adapt); the rest
// change what a run gets (usage while streaming, schemas enforced), so
// they stay the user's choice.
const (
	fieldParallel        = "parallel_tool_calls"
	fieldMaxTokens       = "max_tokens"
	fieldCompletionToken = "max_completion_tokens"
	fieldReasoning       = "reasoning_effort"
)

var fieldFixes = []struct{ field, fix string }{
	{fieldParallel, "this server or model refuses parallel_tool_calls: use --parallel-tool-calls=false (parallel_tool_calls: false in the config file)"},
	{fieldCompletionToken, "this server refuses max_completion_tokens: use --token-field max_tokens"},
	{fieldMaxTokens, "this model refuses max_tokens: use --token-field max_completion_tokens"},
	{"stream_options", "this server rejects stream_options, which --stream sends: run without --stream"},
	{"strict", "this server rejects strict schemas: use --tool-schema compatible"},
}

// reasoningToolsMarker is OpenAI's refusal of tools beside reasoning on
// Chat Completions (GPT-5.4 and later): "Function tools with
// reasoning_effort are not supported for MODEL in /v1/chat/completions.
// To use function tools, use /v1/responses or set reasoning_effort to
// 'none'."
const reasoningToolsMarker = "function tools with reasoning_effort are not supported"

const reasoningToolsFix = "this model calls tools through Chat Completions only with reasoning_effort none, which it refused: choose a model that does (e.g. gpt-6-luna) with --model"

// setupFix returns the fix for a server setup refusal in msg and the
// request field it refused ("" when it names none), or "".
func setupFix(msg string) (fix, field string) {
	low := strings.ToLower(msg)
	if strings.Contains(low, reasoningToolsMarker) {
		return reasoningToolsFix, fieldReasoning
	}
	for _, m := range unknownFieldMarkers {
		at := strings.Index(low, m)
		if at < 0 {
			continue
		}
		// The field named first after the words, else anywhere (pydantic
		// names it before them).
		for _, text := range []string{low[at:], low} {
			best, bestAt := -1, len(text)
			for i, f := range fieldFixes {
				if j := strings.Index(text, f.field); j >= 0 && j < bestAt {
					best, bestAt = i, j
				}
			}
			if best >= 0 {
				return fieldFixes[best].fix, fieldFixes[best].field
			}
		}
		return "", ""
	}
	for _, f := range setupFixes {
		if strings.Contains(low, strings.ToLower(f.marker)) {
			return f.fix, ""
		}
	}
	return "", ""
}

// retryableStatus follows the OpenAI SDKs: 408, 409, 429 and 5xx are
// transient, and an x-should-retry header overrides.
func retryableStatus(res *http.Response, status int) bool {
	if res != nil {
		switch res.Header.Get("X-Should-Retry") {
		case "true":
			return true
		case "false":
			return false
		}
	}
	return status == http.StatusRequestTimeout || status == http.StatusConflict ||
		status == http.StatusTooManyRequests || status >= 500
}

func isTransport(err error) bool {
	var netErr net.Error
	return errors.As(err, &netErr) || errors.Is(err, io.ErrUnexpectedEOF)
}

func isUnreachable(err error) bool {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return true
	}
	var opErr *net.OpError
	return errors.As(err, &opErr) && opErr.Op == "dial"
}

func readBody(res *http.Response) []byte {
	if res == nil || res.Body == nil {
		return nil
	}
	b, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	_ = res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(b))
	return b
}

// bodyMessage extracts a human message from an error body in any of the
// shapes compatible servers use, falling back to the raw text.
func bodyMessage(body []byte) string {
	body = bytes.TrimSpace(body)
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &v) != nil {
		return string(body)
	}
	var s string
	if json.Unmarshal(v.Error, &s) == nil && s != "" {
		return s
	}
	var obj struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(v.Error, &obj) == nil && obj.Message != "" {
		return obj.Message
	}
	if v.Message != "" {
		return v.Message
	}
	if json.Unmarshal(v.Detail, &s) == nil && s != "" {
		return s
	}
	return string(body)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	// Cut on a rune boundary.
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
