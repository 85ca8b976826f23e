package bridge

import (
	"encoding/json"
	"strings"

	"github.com/lessongen/lessongen/internal/clip"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/tool"
)

// NoteTool is the read-only tool, offered at every level, that leaves a
// note for the person: an inconsistency in what they wrote, a doubt, a
// choice made without asking. It never changes the lesson; notes reach the
// run summary, the events and `render`.
const NoteTool = "note_for_author"

// Note is one note a subagent left for the author.
type Note struct {
	Node  string `json:"node"`
	Level string `json:"level"`
	// About names what the note is about (a field, an element), if given.
	About string `json:"about,omitempty"`
	Text  string `json:"text"`
}

const noteDoc = "Leave a note for the lesson's author: something they wrote that looks wrong or inconsistent, a doubt, or a choice you made without asking. It changes nothing in the lesson. Read-only."

// Schemas of note_for_author in the two forms. Written out, not derived:
// the tool is not an intent of any modality.
const (
	noteStrict = `{"type":"object","properties":{"text":{"type":"string","description":"the note, one or two sentences"},"about":{"type":["string","null"],"description":"what it is about, e.g. a field or an element id; pass null for the node as a whole"}},"required":["text","about"],"additionalProperties":false}`
	notePlain  = `{"type":"object","properties":{"text":{"type":"string","description":"the note, one or two sentences","minLength":1},"about":{"type":"string","description":"what it is about, e.g. a field or an element id; omit for the node as a whole"}},"required":["text"],"additionalProperties":false}`
)

func noteDef(form Form) tool.Def {
	if form == Strict {
		return tool.Def{Name: NoteTool, Description: noteDoc, Parameters: json.RawMessage(noteStrict), Strict: true}
	}
	return tool.Def{Name: NoteTool, Description: noteDoc, Parameters: json.RawMessage(notePlain)}
}

// note records a note_for_author call.
func (t *Toolset) note(args string) tool.Envelope {
	var in struct {
		Text  string  `json:"text"`
		About *string `json:"about"`
	}
	dec := json.NewDecoder(strings.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return t.fail(callErr(session.KindInvalidArgs, "", `pass {"text": "…", "about": null}`, "note_for_author: %v", err))
	}
	text := strings.TrimSpace(in.Text)
	if text == "" {
		return t.fail(callErr(session.KindInvalidArgs, "text", "write the note in a sentence or two", "the note is empty"))
	}
	n := Note{Node: t.Node, Level: t.Level.Name, Text: clip.Text(text)}
	if in.About != nil {
		n.About = clip.Text(strings.TrimSpace(*in.About))
	}
	if t.Notes != nil {
		t.Notes(n)
	}
	env := tool.Envelope{OK: true, Result: []any{"noted for the author; the lesson is unchanged"}}
	t.setPending(&env)
	return env
}
