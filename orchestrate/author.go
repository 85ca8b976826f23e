package orchestrate

import (
	"context"

	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/tool"
)

// askedAuthor puts every ask_author question and its outcome into the
// event stream, with the node that asked; author is nil in a batch run,
// where nobody answers.
type askedAuthor struct {
	author      tool.Author
	emit        event.Sink
	node, level string
}

func (a askedAuthor) AskAuthor(ctx context.Context, node, question string) (string, error) {
	a.emit(event.Event{Kind: event.AuthorQuestion, Node: a.node, Level: a.level, Text: question})
	ans, err := "", tool.ErrNoAuthor
	if a.author != nil {
		ans, err = a.author.AskAuthor(ctx, node, question)
	}
	e := event.Event{Kind: event.AuthorAnswer, Node: a.node, Level: a.level, Status: event.StatusAnswered, Text: ans}
	if err != nil {
		e.Status, e.Error = event.StatusUnanswered, err.Error()
	}
	a.emit(e)
	return ans, err
}
