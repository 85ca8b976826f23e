package agent

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/tool"
)

// chunker turns streamed text into TextChunk events. It emits only up to
// the last whitespace it has seen, so a word — and a secret, which has no
// spaces — always reaches the redacting sink whole, never split across two
// events. Like ModelText, a turn's chunks stop at tool.MaxArgsBytes.
type chunker struct {
	emit      func(string)
	restarted func()
	buf       strings.Builder
	total     int
}

func newChunker(task Task, step int, emit event.Sink) *chunker {
	return &chunker{
		emit: func(s string) {
			emit(event.Event{Kind: event.TextChunk, Node: task.Node, Level: task.Level, Step: step, Text: s})
		},
		restarted: func() {
			emit(event.Event{Kind: event.TextChunk, Node: task.Node, Level: task.Level, Step: step, Restart: true})
		},
	}
}

// restart voids the turn's text so far: the stream was cut and the
// answer is retried from its start. The pieces already sent stay sent;
// the event says to drop them.
func (c *chunker) restart() {
	c.buf.Reset()
	c.total = 0
	c.restarted()
}

// add takes a piece as it arrives.
func (c *chunker) add(s string) {
	c.buf.WriteString(s)
	text := c.buf.String()
	cut := strings.LastIndexFunc(text, unicode.IsSpace)
	if cut < 0 {
		return
	}
	_, size := utf8.DecodeRuneInString(text[cut:])
	c.send(text[:cut+size])
	c.buf.Reset()
	c.buf.WriteString(text[cut+size:])
}

// flush sends what is left at the end of the turn.
func (c *chunker) flush() {
	if c.buf.Len() > 0 {
		c.send(c.buf.String())
		c.buf.Reset()
	}
}

func (c *chunker) send(s string) {
	if c.total >= tool.MaxArgsBytes {
		return
	}
	c.total += len(s)
	c.emit(s)
}
