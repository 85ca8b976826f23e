package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// context is how many bytes around the first difference a miss shows.
const (
	contextBefore = 40
	contextAfter  = 60
)

// request is a canonical request split into the parts a diff names.
type request struct {
	fields   map[string]json.RawMessage
	messages []json.RawMessage
	tools    []json.RawMessage
}

func split(canon []byte) request {
	var r request
	_ = json.Unmarshal(canon, &r.fields)
	_ = json.Unmarshal(r.fields["messages"], &r.messages)
	_ = json.Unmarshal(r.fields["tools"], &r.tools)
	return r
}

// nearest describes how canon differs from the recorded request most like
// it: the one sharing the most leading messages, then the longest common
// start of the first message that differs.
func nearest(canon []byte, recorded []*entry) string {
	if len(recorded) == 0 {
		return "the recording holds no requests"
	}
	now := split(canon)
	var best request
	bestSame, bestPrefix := -1, -1
	for _, e := range recorded {
		rec := split(e.Request)
		same := commonMessages(now.messages, rec.messages)
		prefix := 0
		if same < len(now.messages) && same < len(rec.messages) {
			prefix = commonPrefix(now.messages[same], rec.messages[same])
		} else if same == len(now.messages) && same == len(rec.messages) {
			prefix = 1 << 30 // the messages agree: the tools or settings differ
		}
		if same > bestSame || (same == bestSame && prefix > bestPrefix) {
			best, bestSame, bestPrefix = rec, same, prefix
		}
	}
	return "nearest recorded request: " + describe(now, best)
}

func commonMessages(a, b []json.RawMessage) int {
	i := 0
	for i < len(a) && i < len(b) && bytes.Equal(a[i], b[i]) {
		i++
	}
	return i
}

func commonPrefix(a, b []byte) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// describe names the first difference between a request and a recorded
// one: which message (or tool, or setting), and which bytes.
func describe(now, rec request) string {
	i := commonMessages(now.messages, rec.messages)
	switch {
	case i < len(now.messages) && i < len(rec.messages):
		return fmt.Sprintf("message %d (%s) differs%s", i, role(now.messages[i]), bytesDiff(text(rec.messages[i]), text(now.messages[i])))
	case i < len(now.messages):
		return fmt.Sprintf("the recorded request ends after message %d; this one goes on with message %d (%s): %q", i-1, i, role(now.messages[i]), clip(text(now.messages[i]), 0))
	case i < len(rec.messages):
		return fmt.Sprintf("this request ends after message %d; the recorded one goes on with message %d (%s): %q", i-1, i, role(rec.messages[i]), clip(text(rec.messages[i]), 0))
	}
	if t := commonMessages(now.tools, rec.tools); t < len(now.tools) || t < len(rec.tools) {
		switch {
		case t < len(now.tools) && t < len(rec.tools):
			return fmt.Sprintf("the messages agree; tool %d (%s) differs%s", t, toolName(now.tools[t]), bytesDiff(rec.tools[t], now.tools[t]))
		case t < len(now.tools):
			return fmt.Sprintf("the messages agree; this request has %d tools, the recorded one %d (tool %d is %s)", len(now.tools), len(rec.tools), t, toolName(now.tools[t]))
		default:
			return fmt.Sprintf("the messages agree; this request has %d tools, the recorded one %d (tool %d is %s)", len(now.tools), len(rec.tools), t, toolName(rec.tools[t]))
		}
	}
	var diffs []string
	keys := make([]string, 0, len(now.fields)+len(rec.fields))
	for k := range now.fields {
		keys = append(keys, k)
	}
	for k := range rec.fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range slices.Compact(keys) {
		if k == "messages" || k == "tools" || bytes.Equal(now.fields[k], rec.fields[k]) {
			continue
		}
		diffs = append(diffs, fmt.Sprintf("%s: recorded %s, now %s", k, orAbsent(rec.fields[k]), orAbsent(now.fields[k])))
	}
	return "the messages and tools agree; settings differ: " + strings.Join(diffs, "; ")
}

// bytesDiff shows where two texts first differ, with some context.
func bytesDiff(rec, now []byte) string {
	at := commonPrefix(rec, now)
	return fmt.Sprintf(" at byte %d:\n  recorded: %q\n  now:      %q", at, clip(rec, at), clip(now, at))
}

// clip is the text around byte at, marked where cut.
func clip(b []byte, at int) string {
	from, to := max(0, at-contextBefore), min(len(b), at+contextAfter)
	s := string(b[from:to])
	if from > 0 {
		s = "…" + s
	}
	if to < len(b) {
		s += "…"
	}
	return s
}

// text is a message's content when it is a string (what a person wrote or
// a tool returned), else its whole canonical JSON.
func text(msg json.RawMessage) []byte {
	var m struct {
		Content   *string         `json:"content"`
		ToolCalls json.RawMessage `json:"tool_calls"`
	}
	if json.Unmarshal(msg, &m) == nil && m.Content != nil && len(m.ToolCalls) == 0 {
		return []byte(*m.Content)
	}
	return msg
}

func role(msg json.RawMessage) string {
	var m struct {
		Role string `json:"role"`
	}
	_ = json.Unmarshal(msg, &m)
	return m.Role
}

func toolName(tool json.RawMessage) string {
	var t struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	_ = json.Unmarshal(tool, &t)
	return t.Function.Name
}

func orAbsent(v json.RawMessage) string {
	if v == nil {
		return "absent"
	}
	return string(v)
}
