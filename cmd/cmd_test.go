package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/internal/fakellm"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/llm"
)

func run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), args, &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	return out.String(), errOut.String(), code
}

// What `lessongen tools --json` prints is exactly the "tools" array the
// client sends to the server.
func TestToolsJSONIsWhatTheServerReceives(t *testing.T) {
	for _, form := range []struct {
		flag string
		f    bridge.Form
	}{{"", bridge.Strict}, {"--compatible", bridge.Compatible}} {
		args := []string{"tools", "--level", "whiteboard.node", "--json"}
		if form.flag != "" {
			args = append(args, form.flag)
		}
		printed, _, code := run(t, args...)
		if code != 0 {
			t.Fatalf("exit %d", code)
		}
		srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Content: "hi"}}}}})
		client, err := llm.New(llm.Config{BaseURL: srv.URL(), APIKey: fakellm.DummyAPIKey, Model: "m"})
		if err != nil {
			t.Fatal(err)
		}
		reg, err := Registry()
		if err != nil {
			t.Fatal(err)
		}
		br, err := bridge.New(reg)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := br.Catalog("whiteboard")
		level, _ := br.Level("whiteboard.node")
		var tools []llm.Tool
		for _, tool := range append(c.Tools(level, form.f), br.LocalTools(level, form.f, false)...) {
			tools = append(tools, llm.Tool{Name: tool.Name, Description: tool.Description, Parameters: tool.Parameters, Strict: tool.Strict})
		}
		if _, err := client.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}, Tools: tools}); err != nil {
			t.Fatal(err)
		}
		var sent struct {
			Tools []any `json:"tools"`
		}
		if err := json.Unmarshal(srv.Requests()[0].Body, &sent); err != nil {
			t.Fatal(err)
		}
		var want []any
		if err := json.Unmarshal([]byte(printed), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(sent.Tools, want) {
			a, _ := json.Marshal(sent.Tools)
			t.Errorf("%s: the server received\n%.400s\nbut tools --json printed\n%.400s", form.flag, a, printed)
		}
	}
}

func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, ExitOK},
		{errors.New("boom"), ExitFailure},
		{&usageError{errors.New("bad flag")}, ExitUsage},
		{yamlsrc.Problems{{File: "f", Line: 1, Col: 1, Message: "m"}}, ExitUsage},
		{fmt.Errorf("wrapped: %w", ErrPartial), ExitPartial},
		{fmt.Errorf("run: %w", ErrInterrupted), ExitInterrupted},
		{context.Canceled, ExitInterrupted},
		{&silentError{code: 3, err: ErrPartial}, 3},
		{fmt.Errorf("provider: %w", llm.ErrAuth), ExitFailure},
	} {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

func TestUsageErrorsExitTwo(t *testing.T) {
	_, stderr, code := run(t, "plan")
	if code != ExitUsage || !strings.Contains(stderr, "missing FILE\nusage: lessongen plan FILE") {
		t.Errorf("code %d stderr %q", code, stderr)
	}
	_, stderr, code = run(t, "validate", "--nope", "x.yaml")
	if code != ExitUsage || !strings.Contains(stderr, "unknown flag --nope") {
		t.Errorf("code %d stderr %q", code, stderr)
	}
	stdout, _, code := run(t, "--version")
	if code != 0 || stdout != "lessongen "+version()+"\n" {
		t.Errorf("version: %d %q", code, stdout)
	}
	stdout, _, _ = run(t, "--help")
	for _, want := range []string{"!pending", "Exit codes:", "130", "LESSONGEN_API_KEY", "validate", "generate"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("help lacks %q", want)
		}
	}
}

func TestPlainProgressLines(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&IOStreams{ErrOut: &buf})
	p.Sink(event.Event{Kind: event.RunStart, Text: "l.yaml: 2 subagents"})
	p.Sink(event.Event{Kind: event.NodeStart, Node: "lesson", Level: "lesson.metadata"})
	p.Sink(event.Event{Kind: event.Usage, Node: "lesson", Level: "lesson.metadata", Step: 1})
	p.Sink(event.Event{Kind: event.NodeEnd, Node: "lesson", Level: "lesson.metadata", Status: "pending", Step: 3, Error: "the step budget (3) ran out"})
	p.Close()
	want := "lessongen: l.yaml: 2 subagents\n[lesson lesson.metadata] started\n[lesson lesson.metadata] pending in 3 steps: the step budget (3) ran out\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestLiveProgressDrawsNodes(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&IOStreams{ErrOut: &buf, ErrTTY: true})
	p.Sink(event.Event{Kind: event.NodeStart, Node: "slides/a/whiteboard", Level: "whiteboard.node"})
	p.Sink(event.Event{Kind: event.ToolCall, Node: "slides/a/whiteboard", Level: "whiteboard.node", Step: 1, Tool: "add_text"})
	p.Sink(event.Event{Kind: event.NodeEnd, Node: "slides/a/whiteboard", Level: "whiteboard.node", Status: "done", Step: 2})
	p.Close()
	out := buf.String()
	if !strings.Contains(out, `slide "a" · whiteboard · node`) || !strings.Contains(out, "done") || !strings.Contains(out, "1/1 finished") {
		t.Errorf("live view: %q", out)
	}
	if strings.Contains(out, "\x1b[3") {
		t.Errorf("colour without Color: %q", out)
	}
}

// A question pauses the frame: the frame is erased, nothing is drawn while
// the question is on screen, and the frame comes back below the answer.
func TestLiveProgressPauses(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&IOStreams{ErrOut: &buf, ErrTTY: true, Color: true})
	p.Sink(event.Event{Kind: event.NodeStart, Node: "slides/a/whiteboard", Level: "whiteboard.node"})
	p.Resume() // draws
	p.Pause()
	erased := buf.Len()
	if !strings.HasSuffix(buf.String(), "\x1b[2A\r\x1b[J") {
		t.Fatalf("pause did not erase the frame: %q", buf.String())
	}
	p.Sink(event.Event{Kind: event.ToolCall, Node: "slides/a/whiteboard", Level: "whiteboard.node", Step: 1, Tool: "add_text"})
	time.Sleep(3 * frameInterval)
	if buf.Len() != erased {
		t.Fatalf("drawn while paused: %q", buf.String()[erased:])
	}
	p.Resume()
	p.Sink(event.Event{Kind: event.NodeEnd, Node: "slides/a/whiteboard", Level: "whiteboard.node", Status: "failed", Step: 2})
	p.Close()
	out := buf.String()[erased:]
	if !strings.Contains(out, "step 1 · add_text") || !strings.Contains(out, "\x1b[31m✗") {
		t.Errorf("after resume: %q", out)
	}
}

// The run-batch command printed for a round is one a shell runs as is,
// whatever the paths and model name hold.
func TestRunBatchCommand(t *testing.T) {
	got := runBatchCommand("rounds dir/round-1.in.jsonl", "it's/round-1.out.jsonl", "Qwen/Qwen3-8B")
	want := `vllm run-batch -i 'rounds dir/round-1.in.jsonl' -o 'it'\''s/round-1.out.jsonl' --model Qwen/Qwen3-8B --enable-auto-tool-choice --tool-call-parser PARSER`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
