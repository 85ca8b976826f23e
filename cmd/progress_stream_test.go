package cmd

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/event"
)

// Streamed text is printed above the live frame, one whole labelled line
// at a time: each line comes right after the frame is erased and is
// followed by a fresh frame, so it never lands inside one.
func TestLiveProgressStreamsTextAboveFrame(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&IOStreams{ErrOut: &buf, ErrTTY: true})
	n, l := "slides/a/whiteboard", "whiteboard.node"
	p.Sink(event.Event{Kind: event.NodeStart, Node: n, Level: l})
	p.Resume() // draws the frame
	for _, c := range []string{"Adding ", "a title ", "now.\nThen ", "an arrow."} {
		p.Sink(event.Event{Kind: event.TextChunk, Node: n, Level: l, Text: c})
	}
	p.Sink(event.Event{Kind: event.ModelText, Node: n, Level: l, Text: "Adding a title now.\nThen an arrow."})
	p.Sink(event.Event{Kind: event.NodeEnd, Node: n, Level: l, Status: "done", Step: 1})
	p.Close()
	out := buf.String()
	for _, line := range []string{`slide "a" · whiteboard · node: Adding a title now.`, `slide "a" · whiteboard · node: Then an arrow.`} {
		i := strings.Index(out, line+"\n")
		if i < 0 {
			t.Fatalf("missing %q in %q", line, out)
		}
		if !strings.HasSuffix(out[:i], "\x1b[2A\r\x1b[J") {
			t.Errorf("%q not printed right after the frame was erased: %q", line, out[:i])
		}
		if rest := out[i+len(line)+1:]; !strings.Contains(rest, "finished") {
			t.Errorf("no frame after %q", line)
		}
	}
	if strings.Count(out, "Then an arrow.") != 1 {
		t.Errorf("text printed twice: %q", out)
	}
}

// Other writers' lines go above the live frame whole, a partial line
// waiting for its end; without a terminal they pass straight through.
func TestProgressWriterPrintsAboveFrame(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&IOStreams{ErrOut: &buf, ErrTTY: true})
	p.Sink(event.Event{Kind: event.NodeStart, Node: "lesson", Level: "lesson.metadata"})
	p.Resume()
	w := p.Writer()
	_, _ = w.Write([]byte("warning: a\nwarn"))
	_, _ = w.Write([]byte("ing: b\n"))
	p.Close()
	out := buf.String()
	for _, line := range []string{"warning: a\n", "warning: b\n"} {
		i := strings.Index(out, line)
		if i < 0 || !strings.HasSuffix(out[:i], "\x1b[2A\r\x1b[J") {
			t.Errorf("%q not printed right after an erased frame: %q", line, out)
		}
	}

	buf.Reset()
	p = newProgress(&IOStreams{ErrOut: &buf})
	_, _ = p.Writer().Write([]byte("plain"))
	if buf.String() != "plain" {
		t.Errorf("without a terminal: %q", buf.String())
	}
}
