package bridge

import (
	"reflect"
	"strings"

	"github.com/lessongen/lessongen/internal/clip"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/tool"
)

// NoteTool is the read-only tool, offered at every level, that leaves a
// note for the person: an inconsistency in what they wrote, a doubt, a
// choice made without asking. It never changes the lesson; notes reach the
// run summary, the events and `render`.
var NoteTool = ToolName(reflect.TypeOf(NoteForAuthor{}))

// NoteForAuthor leaves a note for the lesson's author.
type NoteForAuthor struct {
	Text  string `json:"text" jsonschema:"the note, one or two sentences"`
	About string `json:"about,omitempty" jsonschema:"a field or an item id; omit for the whole node"`
}

func (NoteForAuthor) Spec() session.Spec {
	return session.Spec{Capability: tool.CapNote, ReadOnly: true,
		Doc: "Leave the author a note: a doubt, something of theirs that looks wrong, or a choice you made."}
}

func (n NoteForAuthor) Run(tc tool.Context) ([]any, *tool.Error) {
	text := strings.TrimSpace(n.Text)
	if text == "" {
		return nil, callErr(session.KindInvalidArgs, "text", "write the note in a sentence or two", "the note is empty")
	}
	if tc.Notes != nil {
		tc.Notes(tool.Note{Node: tc.Node, Level: tc.Level, Text: clip.Text(text), About: clip.Text(strings.TrimSpace(n.About))})
	}
	return []any{"noted for the author; the lesson is unchanged"}, nil
}
