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
	emit  func(string)
	buf   strings.Builder
	total int
}

func newChunker(task Task, step int, emit event.Sink) *chunker {
	return &chunker{emit: func(s string) {
		emit(event.Event{Kind: event.TextChunk, Node: task.Node, Level: task.Level, Step: step, Text: s})
	}}
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
