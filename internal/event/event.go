// Package event is the one typed stream a run reports through: node start
// and end, model text, tool calls and results, usage. It feeds the terminal
// progress view and the JSON Lines log alike.
package event

import (
	"encoding/json"
	"io"
	"sync"
	"time"
)

// Kind says what happened.
type Kind string

const (
	RunStart  Kind = "run_start"
	NodeStart Kind = "node_start"
	ModelText Kind = "model_text"
	// TextChunk is a piece of model text as it arrives (--stream). Pieces
	// end at whitespace, so a secret is never split across two events and
	// each passes the redactor whole; the turn's whole text follows as
	// ModelText.
	TextChunk  Kind = "text_chunk"
	ToolCall   Kind = "tool_call"
	ToolResult Kind = "tool_result"
	Usage      Kind = "usage"
	NodeEnd    Kind = "node_end"
	Checkpoint Kind = "checkpoint"
	RunEnd     Kind = "run_end"

	// Note is a note a subagent left for the author (note_for_author):
	// Text, and About when it names what the note is about.
	Note Kind = "note"

	// AuthorQuestion is a subagent's question to the author (ask_author),
	// in Text, sent before anyone is asked. AuthorAnswer follows it: Status
	// StatusAnswered with the answer in Text, or StatusUnanswered with the
	// reason in Error (a batch run has nobody to ask; an empty answer
	// leaves the choice to the subagent).
	AuthorQuestion Kind = "author_question"
	AuthorAnswer   Kind = "author_answer"

	// Warning is something the person should know although the run goes
	// on (a saved conversation set aside), in Text; stderr shows it even
	// with --quiet.
	Warning Kind = "warning"
)

// Outcomes of a question to the author, in AuthorAnswer events.
const (
	StatusAnswered   = "answered"
	StatusUnanswered = "unanswered"
)

// Node outcomes, in NodeEnd events.
const (
	StatusDone    = "done"
	StatusPending = "pending"
	// StatusDefects: everything is filled, but the subagent left defects
	// it introduced (e.g. overlaps), also after its repair turn.
	StatusDefects = "defects"
	StatusFailed  = "failed"
	// StatusUnfinished: a refinement whose instruction changed nothing
	// (every change refused, or only notes): not done.
	StatusUnfinished  = "unfinished"
	StatusInterrupted = "interrupted"
)

// Tokens counts model usage.
type Tokens struct {
	Prompt     int64 `json:"prompt"`
	Completion int64 `json:"completion"`
	Cached     int64 `json:"cached"`
}

// Add sums two counts.
func (t Tokens) Add(o Tokens) Tokens {
	return Tokens{t.Prompt + o.Prompt, t.Completion + o.Completion, t.Cached + o.Cached}
}

// Event is one thing that happened during a run.
type Event struct {
	Time  time.Time `json:"time"`
	Kind  Kind      `json:"kind"`
	Node  string    `json:"node,omitempty"`
	Level string    `json:"level,omitempty"`
	Step  int       `json:"step,omitempty"`
	// Text is model text, or a human-readable summary.
	Text   string          `json:"text,omitempty"`
	Tool   string          `json:"tool,omitempty"`
	CallID string          `json:"call_id,omitempty"`
	Args   string          `json:"args,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	OK     *bool           `json:"ok,omitempty"`
	Tokens *Tokens         `json:"tokens,omitempty"`
	Status string          `json:"status,omitempty"`
	Error  string          `json:"error,omitempty"`
	// Files written by a checkpoint.
	Files []string `json:"files,omitempty"`
	// About is what a note is about.
	About string `json:"about,omitempty"`
	// Restart, on a TextChunk, says the step's text so far was cut off
	// (a stream dropped halfway) and is void: the retried answer's text
	// follows from its start.
	Restart bool `json:"restart,omitempty"`
}

// Sink receives events. It must be safe for concurrent use: subagents run
// in parallel.
type Sink func(Event)

// Discard drops every event.
func Discard(Event) {}

// Tee sends each event to every sink.
func Tee(sinks ...Sink) Sink {
	return func(e Event) {
		for _, s := range sinks {
			s(e)
		}
	}
}

// JSONLines writes one JSON object per line to w, stamping the time.
func JSONLines(w io.Writer, now func() time.Time) Sink {
	var mu sync.Mutex
	enc := json.NewEncoder(w)
	return func(e Event) {
		if e.Time.IsZero() {
			e.Time = now()
		}
		mu.Lock()
		defer mu.Unlock()
		_ = enc.Encode(e)
	}
}

// Redacted passes each event to sink with every text field filtered
// through clean (e.g. a redactor), so what a model or server wrote — its
// text, tool names, call ids, arguments, errors — reaches no listener with
// a secret in it.
func Redacted(sink Sink, clean func(string) string) Sink {
	return func(e Event) {
		for _, f := range []*string{&e.Node, &e.Level, &e.Text, &e.Tool, &e.CallID, &e.Args, &e.Status, &e.Error} {
			*f = clean(*f)
		}
		if len(e.Result) > 0 {
			e.Result = json.RawMessage(clean(string(e.Result)))
		}
		if len(e.Files) > 0 {
			files := make([]string, len(e.Files))
			for i, f := range e.Files {
				files[i] = clean(f)
			}
			e.Files = files
		}
		sink(e)
	}
}
