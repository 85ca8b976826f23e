package bridge

import (
	"errors"
	"fmt"

	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/tool"
)

// Local tools act outside the document: on the author's sources and on
// the author. They are declared as intents are (a type, its Spec with the
// capability and read-only-ness, its arguments as fields), so the schema
// and argument checks come from the same place; Run carries them out with
// the one tool.Context.
type localTool interface {
	session.Intent
	Run(tc tool.Context) ([]any, *tool.Error)
}

// localTools lists them, in the order they are offered.
var localTools = []session.Intent{NoteForAuthor{}, DescribeSlide{}, ListSources{}, ReadSource{}, SearchSources{}, ListImages{}, AskAuthor{}}

// DescribeSlide shows one slide whole: what the outline leaves out.
type DescribeSlide struct {
	ID string `json:"id" jsonschema:"the slide's id, or its 1-based position in the outline"`
}

func (DescribeSlide) Spec() session.Spec {
	return session.Spec{Capability: tool.CapSlides, ReadOnly: true,
		Doc: "Describe one slide whole: its fields and speaker notes, its whiteboard (brief, heading, layout and every element) and its quiz (kind, instructions, questions). Read it before writing notes for a slide you did not add."}
}

func (d DescribeSlide) Run(tc tool.Context) ([]any, *tool.Error) {
	if tc.Slide == nil {
		return nil, callErr(session.KindPermission, "", "the outline in your prompt is what this level sees", "no slides to describe here")
	}
	text, err := tc.Slide(d.ID)
	if err != nil {
		return nil, callErr(session.KindNotFound, "id", "give a slide id from the outline, or its 1-based position", "%s", err.Error())
	}
	return []any{text}, nil
}

// ListSources lists the author's source files.
type ListSources struct{}

func (ListSources) Spec() session.Spec {
	return session.Spec{Capability: tool.CapSources, ReadOnly: true,
		Doc: "List the author's source files (path and size in bytes). Write from them where they cover the topic."}
}

// ReadSource reads a source file or a line range of it.
type ReadSource struct {
	Path      string `json:"path" jsonschema:"a path as list_sources gives it"`
	StartLine int    `json:"start_line,omitempty" jsonschema:"first line to read, from 1; default 1" minimum:"1"`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"last line to read; default: to the end" minimum:"1"`
}

func (ReadSource) Spec() session.Spec {
	return session.Spec{Capability: tool.CapSources, ReadOnly: true,
		Doc: fmt.Sprintf("Read a source file, each line numbered, at most %d lines or %d bytes per call. Cite what you use as path:line or path:start-end in the sources list of what you write.", sources.MaxReadLines, sources.MaxReadBytes)}
}

// SearchSources searches the sources for a word or regular expression.
type SearchSources struct {
	Query      string `json:"query" jsonschema:"a word or a regular expression; case is ignored"`
	MaxResults int    `json:"max_results,omitempty" jsonschema:"most lines to return; default 20, at most 50" minimum:"1"`
}

func (SearchSources) Spec() session.Spec {
	return session.Spec{Capability: tool.CapSources, ReadOnly: true,
		Doc: "Search the author's sources; each match comes back as path:line: text."}
}

// AskAuthor asks the author a question.
type AskAuthor struct {
	Question string `json:"question" jsonschema:"one short question"`
}

func (AskAuthor) Spec() session.Spec {
	return session.Spec{Capability: tool.CapAuthor, ReadOnly: true,
		Doc: "Ask the author when a choice is theirs. In a batch run nobody answers: choose and say so in a note."}
}

// MaxQuestionBytes bounds a question shown to the author.
const MaxQuestionBytes = 500

func noSources() *tool.Error {
	return callErr(session.KindPermission, "", "write from what you know; the author gave no --sources", "this run has no sources")
}

func fromSources(e *sources.Error) *tool.Error {
	return &tool.Error{Kind: e.Kind, Message: e.Message, Hint: e.Hint}
}

func (ListSources) Run(tc tool.Context) ([]any, *tool.Error) {
	if tc.Sources == nil {
		return nil, noSources()
	}
	l := tc.Sources.List()
	out := []any{l.Files}
	if note := l.Note(); note != "" {
		out = append(out, note)
	}
	return out, nil
}

func (r ReadSource) Run(tc tool.Context) ([]any, *tool.Error) {
	if tc.Sources == nil {
		return nil, noSources()
	}
	text, e := tc.Sources.Read(r.Path, r.StartLine, r.EndLine)
	if e != nil {
		return nil, fromSources(e)
	}
	if tc.Read != nil {
		tc.Read(r.Path, text)
	}
	return []any{text}, nil
}

func (s SearchSources) Run(tc tool.Context) ([]any, *tool.Error) {
	if tc.Sources == nil {
		return nil, noSources()
	}
	hits, more, e := tc.Sources.Search(s.Query, s.MaxResults)
	if e != nil {
		return nil, fromSources(e)
	}
	out := []any{hits}
	if len(hits) == 0 {
		out = []any{"no matches"}
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("%d more matches not shown; narrow the query", more))
	}
	return out, nil
}

// NoAnswer is what ask_author returns when nobody can answer.
const NoAnswer = "nobody is available to answer (a batch run). Choose what is reasonable, and say in the slide's notes what you assumed."

func (a AskAuthor) Run(tc tool.Context) ([]any, *tool.Error) {
	if len(a.Question) > MaxQuestionBytes {
		return nil, callErr(session.KindInvalidArgs, "question", "ask one short question", "the question is %d bytes; at most %d", len(a.Question), MaxQuestionBytes)
	}
	if tc.Author == nil {
		return []any{NoAnswer}, nil
	}
	ans, err := tc.Author.AskAuthor(tc.Ctx, tc.Node, a.Question)
	if errors.Is(err, tool.ErrNoAuthor) {
		return []any{NoAnswer}, nil
	}
	if err != nil {
		return nil, &tool.Error{Kind: session.KindPrecondition, Message: "the question was not answered: " + err.Error()}
	}
	return []any{"the author answered: " + ans}, nil
}
