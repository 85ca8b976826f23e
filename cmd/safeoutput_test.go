package cmd

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/internal/redact"
	"github.com/lessongen/lessongen/orchestrate"
	"github.com/lessongen/lessongen/session"
)

const hostile = "\x1b]0;pwned\x07\x1b[2J\u202etxet"

// The approval preview shows the model's text, in the file's diff or, with
// no diff, in the arguments and what would be committed, with control
// characters made visible.
func TestAskerPreviewIsEscaped(t *testing.T) {
	for _, diff := range []string{"--- lesson.yaml · lesson\n+++ lesson.yaml · lesson (with this change)\n@@ -1,1 +1,1 @@\n-title: Old\n+title: " + hostile + "\n", ""} {
		var errOut bytes.Buffer
		a := newTerminalAsker(&IOStreams{In: strings.NewReader("y\n"), ErrOut: &errOut})
		ok, err := a.Ask(context.Background(), bridge.Proposal{
			Node: "lesson", Tool: "set_title", Args: `{"title":"` + hostile + `"}`, Diff: diff,
			Preview: session.Result{Outputs: []any{map[string]string{"set": "title", "value": hostile}}, Warnings: []session.Warning{{Message: hostile}}},
		})
		if err != nil || !ok {
			t.Fatalf("Ask = %v, %v", ok, err)
		}
		out := errOut.String()
		if strings.ContainsAny(out, "\x1b\x07\u202e") {
			t.Errorf("raw control characters in the preview: %q", out)
		}
		if !strings.Contains(out, `\x1b]0;pwned\x07`) || !strings.Contains(out, `\u202e`) {
			t.Errorf("preview does not show them escaped: %q", out)
		}
		if shown := strings.Contains(out, "\n  -title: Old\n  +title: "); shown != (diff != "") {
			t.Errorf("diff shown = %v with diff %q: %q", shown, diff, out)
		}
		if args := strings.Contains(out, "would commit"); args == (diff != "") {
			t.Errorf("arguments shown = %v with diff %q: %q", args, diff, out)
		}
	}
}

// The summary quotes node errors (servers' and models' words) safely.
func TestSummaryIsEscaped(t *testing.T) {
	var buf bytes.Buffer
	printSummary(&buf, summarizeRun(orchestrate.Report{Nodes: []orchestrate.NodeResult{{Node: "lesson", Level: "lesson.node", Status: "failed", Error: "server said " + hostile}}}, nil, time.Second, nil))
	if strings.ContainsAny(buf.String(), "\x1b\x07\u202e") || !strings.Contains(buf.String(), `server said \x1b]0;pwned`) {
		t.Errorf("summary: %q", buf.String())
	}
}

// Progress, live or not, sees events only after redaction, and escapes
// what it prints.
func TestProgressIsRedactedAndEscaped(t *testing.T) {
	const key = "sk-live-0123456789abcdefWXYZ"
	red := redact.New(key, "")
	for _, tty := range []bool{false, true} {
		var buf bytes.Buffer
		streams, flush := redactedStreams(&IOStreams{ErrOut: &buf, ErrTTY: tty}, red)
		p := newProgress(streams)
		sink := event.Redacted(p.Sink, red.String)
		sink(event.Event{Kind: event.RunStart, Text: "l.yaml " + hostile})
		sink(event.Event{Kind: event.NodeStart, Node: "lesson", Level: "lesson.node"})
		sink(event.Event{Kind: event.NodeEnd, Node: "lesson", Level: "lesson.node", Status: "failed", Error: "401: key " + key + " " + hostile})
		p.Close()
		flush()
		out := buf.String()
		if strings.Contains(out, key) || strings.Contains(out, "WXYZ") {
			t.Errorf("tty=%v: key in progress: %q", tty, out)
		}
		if strings.Contains(out, "pwned\x07") || strings.Contains(out, "\u202e") {
			t.Errorf("tty=%v: raw control characters in progress: %q", tty, out)
		}
	}
}
