package cmd

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
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

// A stream cut halfway and retried: the partial line is dropped and a
// marker says the answer starts again, so its text is not read twice.
func TestLiveProgressRestartedText(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&IOStreams{ErrOut: &buf, ErrTTY: true})
	n, l := "lesson", "lesson.metadata"
	p.Sink(event.Event{Kind: event.NodeStart, Node: n, Level: l})
	p.Resume()
	p.Sink(event.Event{Kind: event.TextChunk, Node: n, Level: l, Text: "First line.\nHalf a "})
	p.Sink(event.Event{Kind: event.TextChunk, Node: n, Level: l, Restart: true})
	p.Sink(event.Event{Kind: event.TextChunk, Node: n, Level: l, Text: "First line.\nSecond line."})
	p.Sink(event.Event{Kind: event.ModelText, Node: n, Level: l})
	p.Close()
	out := buf.String()
	if strings.Contains(out, "Half a") {
		t.Errorf("the cut partial line was shown: %q", out)
	}
	marker := strings.Index(out, "(the answer was cut off; it starts again)")
	second := strings.Index(out, "Second line.")
	if marker < 0 || second < marker || strings.Count(out, "First line.") != 2 {
		t.Errorf("want the first attempt's line, the marker, then the retried text: %q", out)
	}
}

// A frame taller than the terminal would scroll its top off the screen,
// where cursor-up cannot reach it, and be reprinted below itself at every
// redraw: it is cut to the working rows and the latest finished ones.
func TestLiveFrameFitsTheTerminal(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&IOStreams{ErrOut: &buf, ErrTTY: true, ErrHeight: func() int { return 6 }})
	for i := range 12 {
		node := fmt.Sprintf("slides/s%d/whiteboard", i)
		p.Sink(event.Event{Kind: event.NodeStart, Node: node, Level: "whiteboard.node"})
		if i != 2 && i != 7 {
			p.Sink(event.Event{Kind: event.NodeEnd, Node: node, Level: "whiteboard.node", Status: "done", Step: 1})
		}
		p.Resume() // draws
	}
	p.Close()
	out := buf.String()
	for _, m := range regexp.MustCompile(`\x1b\[(\d+)A`).FindAllStringSubmatch(out, -1) {
		if n, _ := strconv.Atoi(m[1]); n > 5 {
			t.Fatalf("erased %d lines on a 6-line terminal", n)
		}
	}
	frames := strings.Split(out, "\x1b[J")
	last := frames[len(frames)-1]
	if lines := strings.Count(last, "\n"); lines > 5 {
		t.Errorf("the last frame has %d lines on a 6-line terminal:\n%s", lines, last)
	}
	for _, want := range []string{`slide "s2"`, `slide "s7"`, `slide "s11"`, "10/12 finished (8 finished rows not shown)"} {
		if !strings.Contains(last, want) {
			t.Errorf("the last frame lacks %q:\n%s", want, last)
		}
	}
}
