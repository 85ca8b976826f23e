// Package llm talks to chat models: the Model interface the agent loop needs,
// and Client, an OpenAI-compatible implementation over Chat Completions with
// retries, a shared per-provider rate limiter and errors that name what to fix.
//
// The package knows nothing about lessons; it only moves messages and tools.
package llm

import (
	"context"
	"encoding/json"
)

// Role is the author of a message.
type Role string

// Roles of a chat conversation.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one entry of a conversation.
type Message struct {
	Role    Role
	Content string
	// ToolCalls is set on assistant messages only.
	ToolCalls []ToolCall
	// ToolCallID is set on tool messages only: the call this is the result of.
	ToolCallID string
	// Images are PNGs sent after Content as image parts of a user message
	// (--review-images: the board as drawn). History stores a marker, not
	// the image.
	Images [][]byte
}

// ToolCall is one function call requested by the model.
type ToolCall struct {
	ID   string
	Name string
	// Arguments is the raw JSON text as the model sent it; it may be empty or
	// malformed, and the caller decides what to do about that.
	Arguments string
}

// Tool is a function the model may call.
type Tool struct {
	Name        string
	Description string
	// Parameters is a JSON Schema object. Empty means "no parameters".
	Parameters json.RawMessage
	// Strict asks the provider to enforce the schema; only set it when the
	// schema is in the strict subset.
	Strict bool
}

// Request is one model turn: the conversation so far and the tools on offer.
type Request struct {
	Messages []Message
	Tools    []Tool
	// OnText, when set, receives the answer's text piece by piece as it
	// arrives, if the client streams (Config.Stream); otherwise it is not
	// called. A retried attempt sends its text again from the start.
	OnText func(string)
	// OnRestart, when set, is called before a retry whose failed attempt
	// had already handed text to OnText (a stream cut halfway): that text
	// is void, and the answer's text starts again.
	OnRestart func()
}

// Usage counts tokens for one turn. Servers that report no usage leave it zero.
type Usage struct {
	PromptTokens     int64
	CompletionTokens int64
	CachedTokens     int64
}

// Response is the model's answer to one turn.
type Response struct {
	// Message has role assistant. Content may be "" (servers may send null).
	// Every tool call has a non-empty ID, unique within the conversation.
	Message      Message
	FinishReason string
	Usage        Usage
	// Requests is the number of HTTP attempts made for this turn, retries
	// included.
	Requests int
}

// Sent is how many requests a turn cost: the attempts it reports, and at
// least one for an answer (a model that counts none still gave it). A
// failed turn counts what it reports, none when it was refused or
// cancelled before the first attempt.
func (r Response) Sent(err error) int {
	if err != nil {
		return r.Requests
	}
	return max(r.Requests, 1)
}

// Model is what the agent loop needs. Consumers may define narrower ones.
type Model interface {
	Complete(ctx context.Context, req Request) (Response, error)
}
