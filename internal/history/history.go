// Package history persists subagents' conversations, so a later run can
// continue them: one append-only JSON Lines file per lesson (Log), every
// line naming its node and level. The format is described in
// docs/history.md; FormatVersion names it. The earlier layout, one file
// per node and level (format 1), is still read (legacy.go).
package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/lessongen/lessongen/llm"
)

// FormatVersion is written in every conversation's header; a
// conversation with another version is not loaded.
const FormatVersion = 2

// Summary bounds: a tool result over MaxResultBytes is stored as its first
// lines (at most SummaryLines, within MaxResultBytes) and a marker, so the
// state directory stays small and reviewable.
const (
	MaxResultBytes = 4096
	SummaryLines   = 20
)

// SummaryMarker starts the line appended to a summarised result; a model
// reading the history later sees that the rest was left out.
const SummaryMarker = "[lessongen: result summarised"

// Interrupted is the synthetic result given on load to a call saved
// without its result (a crash, a kill, Ctrl-C before it committed).
const Interrupted = `{"ok":false,"error":{"kind":"interrupted","message":"not known whether this call ran: the run stopped before its result was saved; check the current state before repeating it"}}`

// Header starts a conversation: in the log, the line that begins (or
// begins again) the conversation of its node and level.
type Header struct {
	Format int    `json:"format"`
	Node   string `json:"node"`
	Level  string `json:"level"`
	// ContentHash is the node's content when the conversation started;
	// Load's caller compares it with the node now.
	ContentHash string `json:"content_hash"`
	// Generated lists the item ids this conversation's runs created, so a
	// refinement may change them although they read back as authored.
	Generated []string `json:"generated,omitempty"`
}

// Record is every further line of a conversation: one message (in the
// log, with the node and level it belongs to: entry).
type Record struct {
	Role       llm.Role   `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Summarised bool       `json:"summarised,omitempty"`
	// Generated adds item ids to the header's list (appends never rewrite
	// the header).
	Generated []string `json:"generated,omitempty"`
	// ContentHash, when set, replaces the header's: the node's content as
	// the run that wrote it left it.
	ContentHash string `json:"content_hash,omitempty"`
}

type toolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Summarise returns content as stored: unchanged when small, else its
// first lines and a marker with the counts.
func Summarise(content string) (string, bool) {
	if len(content) <= MaxResultBytes {
		return content, false
	}
	lines := strings.SplitAfter(content, "\n")
	var b strings.Builder
	kept := 0
	for _, l := range lines {
		if kept == SummaryLines || b.Len()+len(l) > MaxResultBytes-200 {
			break
		}
		b.WriteString(l)
		kept++
	}
	if kept == 0 { // one long line: keep its start
		b.WriteString(content[:MaxResultBytes-200])
	}
	if !strings.HasSuffix(b.String(), "\n") {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%s: first %d of %d lines kept, %d bytes in all]", SummaryMarker, kept, len(lines), len(content))
	return b.String(), true
}

// ImageMarker stands in a stored message for an image of n bytes that
// was sent with it (--review-images).
func ImageMarker(n int) string { return fmt.Sprintf("\n\n[image: board as drawn, %d bytes]", n) }

// ErrNone is returned by Load when there is no history for the node.
var ErrNone = errors.New("history: none saved")

// Conversation is a loaded history.
type Conversation struct {
	Header   Header
	Messages []llm.Message
	// Committed holds the ids of calls whose results were saved: a
	// resumed run must not apply them again.
	Committed map[string]bool
	// Interrupted lists calls saved without a result; each got the
	// synthetic Interrupted result in Messages.
	Interrupted []string
}

// CorruptError means a history file exists but cannot be read as one (an
// empty file a full disk left, a bad line, another format version). The
// run sets it aside (SetAside) and starts the node afresh.
type CorruptError struct {
	Path string // the file
	Line int    // 0 when no line is to blame
	Err  error
}

func (e *CorruptError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// numbered is one line of a stored conversation and its line number.
type numbered struct {
	no   int
	data []byte
}

// build replays a conversation's records after its header. Every call
// without a result gets the Interrupted result, placed where the result
// belongs, so Messages is always a well-formed Chat Completions history;
// a record that cannot be one is a *CorruptError naming its line.
func build(path string, h Header, lines []numbered) (Conversation, error) {
	c := Conversation{Header: h, Committed: map[string]bool{}}
	bad := func(line int, format string, args ...any) (Conversation, error) {
		return Conversation{}, &CorruptError{Path: path, Line: line, Err: fmt.Errorf(format, args...)}
	}
	var open []string // calls of the last assistant turn still without a result
	closeOpen := func() {
		for _, id := range open {
			c.Messages = append(c.Messages, llm.Message{Role: llm.RoleTool, ToolCallID: id, Content: Interrupted})
			c.Interrupted = append(c.Interrupted, id)
		}
		open = nil
	}
	for _, l := range lines {
		var r Record
		if err := json.Unmarshal(l.data, &r); err != nil {
			return bad(l.no, "history record: %w", err)
		}
		if r.ContentHash != "" {
			c.Header.ContentHash = r.ContentHash
		}
		if len(r.Generated) > 0 {
			c.Header.Generated = append(c.Header.Generated, r.Generated...)
		}
		switch r.Role {
		case "":
			continue
		case llm.RoleTool:
			i := indexOf(open, r.ToolCallID)
			if i < 0 {
				return bad(l.no, "result for call %q, which no open assistant turn made", r.ToolCallID)
			}
			open = append(open[:i], open[i+1:]...)
			c.Committed[r.ToolCallID] = true
		default:
			closeOpen()
		}
		m := llm.Message{Role: r.Role, Content: r.Content, ToolCallID: r.ToolCallID}
		for _, tc := range r.ToolCalls {
			m.ToolCalls = append(m.ToolCalls, llm.ToolCall{ID: tc.ID, Name: tc.Name, Arguments: tc.Arguments})
			open = append(open, tc.ID)
		}
		c.Messages = append(c.Messages, m)
	}
	closeOpen()
	return c, nil
}

// record is what Append stores of m.
func record(m llm.Message) Record {
	r := Record{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID}
	for _, img := range m.Images {
		// An image is not kept: a marker says it was sent.
		r.Content += ImageMarker(len(img))
	}
	if m.Role == llm.RoleTool {
		r.Content, r.Summarised = Summarise(m.Content)
	}
	for _, c := range m.ToolCalls {
		r.ToolCalls = append(r.ToolCalls, toolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	return r
}

// lines splits data into numbered lines, from line first on. An
// unterminated last line is the write a kill cut short: it is left out.
func lines(data []byte, first int) []numbered {
	var out []numbered
	for no := first; len(data) > 0; no++ {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		out = append(out, numbered{no, data[:i]})
		data = data[i+1:]
	}
	return out
}

// safeName refuses a node or level that could not be a file name of the
// earlier layout (which still names them so) or that would cut a path.
func safeName(node, level string) error {
	for _, part := range append(strings.Split(node, "/"), level) {
		if part == "" || part == "." || part == ".." || strings.ContainsAny(part, `\/`+"\x00") {
			return fmt.Errorf("history: node %q level %q is not a safe file name", node, level)
		}
	}
	return nil
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}
