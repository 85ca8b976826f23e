package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/tool"
)

// scriptedModel answers turn i (counted by assistant messages) with turns[i];
// past the end it answers with plain text.
type scriptedModel struct {
	mu    sync.Mutex
	turns [][]llm.ToolCall
	seen  []llm.Request
}

func (m *scriptedModel) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	req.Messages = slices.Clone(req.Messages) // as sent: later turns edit the conversation
	m.seen = append(m.seen, req)
	i := 0
	for _, msg := range req.Messages {
		if msg.Role == llm.RoleAssistant {
			i++
		}
	}
	resp := llm.Response{Requests: 1, Usage: llm.Usage{PromptTokens: 10, CompletionTokens: 2}}
	resp.Message.Role = llm.RoleAssistant
	if i < len(m.turns) {
		resp.Message.ToolCalls = m.turns[i]
	} else {
		resp.Message.Content = "done"
	}
	return resp, nil
}

// fakeTools records calls. Names starting with "read" are read-only; a
// read-only call waits at a barrier until `together` reads are in flight,
// so reads that were run one by one would never get past it.
type fakeTools struct {
	mu       sync.Mutex
	log      []string
	inFlight int
	maxReads int
	together int
	arrived  chan struct{}
	release  chan struct{}
	pending  int // items left; each "write" call fills one
	defects  int // defects left; each "fix" call fixes one
}

func newFakeTools(together, pending int) *fakeTools {
	return &fakeTools{together: together, pending: pending, arrived: make(chan struct{}, 100), release: make(chan struct{})}
}

func (f *fakeTools) Tools() []tool.Def { return []tool.Def{{Name: "read"}, {Name: "write"}} }
func (f *fakeTools) ReadOnly(name string) bool {
	return strings.HasPrefix(name, "read") || name == "note"
}

func (f *fakeTools) Capability(name string) session.Capability {
	if name == "note" {
		return tool.CapNote
	}
	return "cap." + session.Capability(name)
}

func (f *fakeTools) Call(ctx context.Context, name, args string) (tool.Envelope, error) {
	f.mu.Lock()
	f.log = append(f.log, "start "+args)
	f.inFlight++
	if f.ReadOnly(name) && f.inFlight > f.maxReads {
		f.maxReads = f.inFlight
	}
	if !f.ReadOnly(name) && f.inFlight != 1 {
		f.log = append(f.log, "OVERLAP "+args)
	}
	f.mu.Unlock()
	if f.ReadOnly(name) && f.together > 1 {
		f.arrived <- struct{}{}
		select {
		case <-f.release:
		case <-ctx.Done():
			return tool.Envelope{}, ctx.Err()
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.inFlight--
	f.log = append(f.log, "end "+args)
	if name == "write" && f.pending > 0 {
		f.pending--
	}
	if name == "fix" && f.defects > 0 {
		f.defects--
	}
	if name == "fail" {
		return tool.Envelope{Error: &tool.Error{Kind: session.KindInvalidArgs, Message: "bad"}}, nil
	}
	return tool.Envelope{OK: true, Result: []any{args}}, nil
}

func (f *fakeTools) Defects() []session.Warning {
	f.mu.Lock()
	defer f.mu.Unlock()
	var ds []session.Warning
	for i := range f.defects {
		ds = append(ds, session.Warning{Path: fmt.Sprintf("elements[e%d]", i), Message: fmt.Sprintf("e%d overlaps x", i)})
	}
	return ds
}

func (f *fakeTools) Pending() []session.Pending {
	f.mu.Lock()
	defer f.mu.Unlock()
	var ps []session.Pending
	for i := range f.pending {
		ps = append(ps, session.Pending{Level: session.LevelNode, Path: fmt.Sprintf("item%d", i), Hint: "h"})
	}
	return ps
}

// releaseWhenArrived lets the barrier go once n reads are waiting at it.
func (f *fakeTools) releaseWhenArrived(ctx context.Context, n int) {
	for range n {
		select {
		case <-f.arrived:
		case <-ctx.Done():
			return
		}
	}
	close(f.release)
}

func call(id, name, args string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: name, Arguments: args}
}

func TestReadOnlyCallsRunTogetherMutationsAlone(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // a deadlock guard, not a timing check
	defer cancel()
	tools := newFakeTools(3, 2)
	go tools.releaseWhenArrived(ctx, 3)
	model := &scriptedModel{turns: [][]llm.ToolCall{{
		call("c1", "write", "w1"),
		call("c2", "read", "r1"), call("c3", "read", "r2"), call("c4", "read", "r3"),
		call("c5", "write", "w2"),
	}}}
	res, err := Run(ctx, model, tools, Task{Node: "n", Level: "whiteboard.node", Prompt: "p", MaxSteps: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tools.maxReads != 3 {
		t.Errorf("read-only calls in flight at once: %d, want 3", tools.maxReads)
	}
	log := strings.Join(tools.log, "|")
	if strings.Contains(log, "OVERLAP") {
		t.Errorf("a mutation ran alongside another call: %s", log)
	}
	// w1 ends before any read starts; w2 starts after every read ended.
	if !strings.HasPrefix(log, "start w1|end w1|") || !strings.HasSuffix(log, "start w2|end w2") {
		t.Errorf("mutations out of order: %s", log)
	}
	if res.Stop != StopDone || len(res.Pending) != 0 {
		t.Errorf("result %+v", res)
	}
}

func TestEveryCallGetsOneResultInOrder(t *testing.T) {
	tools := newFakeTools(1, 0)
	model := &scriptedModel{turns: [][]llm.ToolCall{{call("a", "write", "1"), call("b", "read", "2"), call("c", "write", "3")}}}
	res, err := Run(context.Background(), model, tools, Task{Prompt: "p", MaxSteps: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range res.Messages {
		if m.Role == llm.RoleTool {
			var env tool.Envelope
			if err := json.Unmarshal([]byte(m.Content), &env); err != nil {
				t.Fatalf("tool result is not an envelope: %v", err)
			}
			got = append(got, fmt.Sprintf("%s=%v steps_left=%d", m.ToolCallID, env.Result[0], *env.StepsLeft))
		}
	}
	want := "a=1 steps_left=2|b=2 steps_left=2|c=3 steps_left=2"
	if strings.Join(got, "|") != want {
		t.Errorf("tool results %v, want %s", got, want)
	}
}

func TestBudgetEndsAModelThatNeverStops(t *testing.T) {
	tools := newFakeTools(1, 5)
	forever := make([][]llm.ToolCall, 100)
	for i := range forever {
		forever[i] = []llm.ToolCall{call(fmt.Sprint(i), "read", "look")}
	}
	res, err := Run(context.Background(), &scriptedModel{turns: forever}, tools, Task{Prompt: "p", MaxSteps: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != StopBudget || res.Steps != 4 || res.Requests != 4 || len(res.Pending) != 5 {
		t.Errorf("result %+v", res)
	}
}

func TestRepairTurnNamesWhatIsMissing(t *testing.T) {
	tools := newFakeTools(1, 2)
	// Turn 0 fills one item and turn 1 stops early; the repair turn follows,
	// and turn 2 fills the other.
	model := &scriptedModel{turns: [][]llm.ToolCall{{call("a", "write", "1")}, nil, {call("b", "write", "2")}}}
	res, err := Run(context.Background(), model, tools, Task{Prompt: "p", MaxSteps: 6}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Repaired || res.Stop != StopDone || len(res.Pending) != 0 {
		t.Fatalf("result %+v", res)
	}
	var repair string
	for _, m := range model.seen[2].Messages {
		if m.Role == llm.RoleUser && strings.Contains(m.Content, "still pending") {
			repair = m.Content
		}
	}
	if !strings.Contains(repair, "- item0: \"h\"") || !strings.Contains(repair, "4 turns left") {
		t.Errorf("repair prompt %q", repair)
	}
}

// A subagent that stops with defects it introduced gets the repair turn,
// naming each; those it leaves are in the result.
func TestRepairTurnNamesDefects(t *testing.T) {
	for _, fixes := range []int{2, 1} {
		tools := newFakeTools(1, 0)
		tools.defects = 2
		var turn []llm.ToolCall
		for i := range fixes {
			turn = append(turn, call(fmt.Sprint(i), "fix", fmt.Sprint(i)))
		}
		model := &scriptedModel{turns: [][]llm.ToolCall{nil, turn}}
		res, err := Run(context.Background(), model, tools, Task{Prompt: "p", MaxSteps: 6}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Repaired || res.Stop != StopDone || len(res.Defects) != 2-fixes {
			t.Errorf("%d fixes: result %+v", fixes, res)
		}
		var repair string
		for _, m := range model.seen[1].Messages {
			if m.Role == llm.RoleUser && strings.Contains(m.Content, "defects") {
				repair = m.Content
			}
		}
		if !strings.Contains(repair, "- elements[e0]: e0 overlaps x\n- elements[e1]: e1 overlaps x") || !strings.Contains(repair, "Fix each now") || strings.Contains(repair, "pending") {
			t.Errorf("repair prompt %q", repair)
		}
	}
}

func TestOnlyOneRepairTurn(t *testing.T) {
	tools := newFakeTools(1, 1)
	model := &scriptedModel{} // never calls a tool
	res, err := Run(context.Background(), model, tools, Task{Prompt: "p", MaxSteps: 6}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Repaired || res.Steps != 2 || len(res.Pending) != 1 {
		t.Errorf("result %+v", res)
	}
}

type failingModel struct{ err error }

func (m failingModel) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	return llm.Response{}, m.err
}

func TestProviderErrorsAndCancellationEndTheSubagent(t *testing.T) {
	boom := errors.New("boom")
	_, err := Run(context.Background(), failingModel{boom}, newFakeTools(1, 1), Task{Prompt: "p", MaxSteps: 3}, nil)
	if !errors.Is(err, boom) {
		t.Errorf("got %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Run(ctx, &scriptedModel{}, newFakeTools(1, 1), Task{Prompt: "p", MaxSteps: 3}, nil)
	if !errors.Is(err, context.Canceled) || res.Stop != StopCanceled || res.Requests != 0 {
		t.Errorf("res %+v err %v", res, err)
	}
}

func TestEventsReportTheConversation(t *testing.T) {
	var mu sync.Mutex
	var kinds []event.Kind
	sink := func(e event.Event) {
		mu.Lock()
		defer mu.Unlock()
		kinds = append(kinds, e.Kind)
	}
	model := &scriptedModel{turns: [][]llm.ToolCall{{call("a", "write", "1")}}}
	if _, err := Run(context.Background(), model, newFakeTools(1, 1), Task{Prompt: "p", MaxSteps: 3}, sink); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(kinds)
	// The write left nothing pending: the subagent ends without a text turn.
	want := "[usage tool_call tool_result]"
	if got != want {
		t.Errorf("events %s, want %s", got, want)
	}
}

// A turn with more calls than MaxCallsPerTurn runs the first ones, in order,
// and answers each of the rest, by id, with a limit envelope.
func TestCallsPastTheTurnLimitAreNotRun(t *testing.T) {
	tools := newFakeTools(1, 0)
	var flood []llm.ToolCall
	for i := range MaxCallsPerTurn + 10 {
		name := "write"
		if i%3 == 0 {
			name = "read"
		}
		flood = append(flood, call(fmt.Sprintf("c%d", i), name, fmt.Sprint(i)))
	}
	model := &scriptedModel{turns: [][]llm.ToolCall{flood}}
	var results int
	emit := func(e event.Event) {
		if e.Kind == event.ToolResult {
			results++
		}
	}
	if _, err := Run(context.Background(), model, tools, Task{Prompt: "p", MaxSteps: 3}, emit); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(strings.Join(tools.log, "|"), "start "); got != MaxCallsPerTurn {
		t.Errorf("%d calls ran, want %d", got, MaxCallsPerTurn)
	}
	if results != len(flood) {
		t.Errorf("%d tool_result events for %d calls", results, len(flood))
	}
	var answers []llm.Message
	for _, m := range model.seen[1].Messages {
		if m.Role == llm.RoleTool {
			answers = append(answers, m)
		}
	}
	if len(answers) != len(flood) {
		t.Fatalf("%d tool messages for %d calls", len(answers), len(flood))
	}
	for i, m := range answers {
		if m.ToolCallID != flood[i].ID {
			t.Fatalf("message %d answers %s, want %s", i, m.ToolCallID, flood[i].ID)
		}
		var env tool.Envelope
		if err := json.Unmarshal([]byte(m.Content), &env); err != nil {
			t.Fatal(err)
		}
		limited := env.Error != nil && env.Error.Kind == session.KindLimit
		if limited != (i >= MaxCallsPerTurn) {
			t.Errorf("call %d: %s", i, m.Content)
		}
		if limited && env.Error.Message != fmt.Sprintf("not run: at most %d calls per turn; call again next turn", MaxCallsPerTurn) {
			t.Errorf("limit message: %q", env.Error.Message)
		}
	}
}

// A call whose arguments are too large to run is repeated in later requests
// with {} for arguments, so it is not sent again with every turn; the tool
// still saw the original and the event log a clipped copy.
func TestOversizedArgumentsLeaveTheHistory(t *testing.T) {
	tools := newFakeTools(1, 5) // still pending after the turn: a second request follows
	huge := `{"text":"` + strings.Repeat("x", tool.MaxArgsBytes) + `"}`
	model := &scriptedModel{turns: [][]llm.ToolCall{{call("big", "write", huge), call("small", "write", `{"a":1}`)}}}
	var logged []string
	emit := func(e event.Event) {
		if e.Kind == event.ToolCall {
			logged = append(logged, e.Args)
		}
	}
	if _, err := Run(context.Background(), model, tools, Task{Prompt: "p", MaxSteps: 3}, emit); err != nil {
		t.Fatal(err)
	}
	if tools.log[0] != "start "+huge {
		t.Error("the tool did not get the original arguments")
	}
	var calls []llm.ToolCall
	for _, m := range model.seen[1].Messages {
		calls = append(calls, m.ToolCalls...)
	}
	if len(calls) != 2 || calls[0].Arguments != "{}" || calls[1].Arguments != `{"a":1}` {
		t.Errorf("history calls %.80v", calls)
	}
	if len(logged) != 2 || len(logged[0]) > tool.MaxArgsBytes+100 || !strings.Contains(logged[0], "[truncated") {
		t.Errorf("event args: %d bytes", len(logged[0]))
	}
}

// A request over the size bounds is not sent: the subagent ends with an
// error naming the oversized message.
func TestOversizedRequestIsNotSent(t *testing.T) {
	for _, tc := range []struct {
		name  string
		calls []llm.ToolCall
		want  string
	}{
		{"one message", []llm.ToolCall{call("c1", "read", "small"), call("c2", "read", strings.Repeat("x", 1_500_000))},
			"request not sent: the tool result of call c2 (read) is 1.5 MB; limit 1.0 MB"},
		{"all together", []llm.ToolCall{call("c1", "read", strings.Repeat("x", 900_000)), call("c2", "read", strings.Repeat("x", 900_000)),
			call("c3", "read", strings.Repeat("x", 900_000)), call("c4", "read", strings.Repeat("x", 900_000)), call("c5", "read", strings.Repeat("x", 950_000))},
			"request not sent: the request (largest part: the tool result of call c5 (read), 950.0 KB) is 4.6 MB; limit 4.0 MB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := &scriptedModel{turns: [][]llm.ToolCall{tc.calls}}
			res, err := Run(context.Background(), model, newFakeTools(1, 0), Task{Prompt: "p", MaxSteps: 3}, nil)
			var tooLarge *RequestTooLargeError
			if !errors.As(err, &tooLarge) || err.Error() != tc.want {
				t.Fatalf("got %v, want %s", err, tc.want)
			}
			if len(model.seen) != 1 || res.Stop != StopFailed {
				t.Errorf("%d requests sent, stop %s", len(model.seen), res.Stop)
			}
		})
	}
}

// TestRequestCapOnTheWire (issue #39): the request cap holds for the
// body as sent, not for its text: text that JSON escapes (quotes, here)
// weighs up to six times as much on the wire. 2.4 MB of it, under the
// cap as text, is 4.8 MB as sent and is refused; the same text without
// the size of the body (a model that cannot say) goes out as before.
func TestRequestCapOnTheWire(t *testing.T) {
	client, err := llm.New(llm.Config{BaseURL: "http://127.0.0.1:1/v1", APIKey: "k", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	quoted := strings.Repeat(`"`, 600_000)
	prior := []llm.Message{{Role: llm.RoleSystem, Content: "p"}}
	for range 4 {
		prior = append(prior, llm.Message{Role: llm.RoleUser, Content: quoted})
	}
	for _, wire := range []bool{true, false} {
		model := &scriptedModel{}
		task := Task{Prompt: "p", MaxSteps: 3, Prior: prior, Continue: "go on"}
		if wire {
			task.RequestBytes = client.RequestBytes
		}
		_, err := Run(context.Background(), model, newFakeTools(1, 0), task, nil)
		var tooLarge *RequestTooLargeError
		switch {
		case wire && (!errors.As(err, &tooLarge) || len(model.seen) != 0 || tooLarge.Size <= MaxRequestBytes):
			t.Errorf("2.4 MB of quotes: %d requests sent, error %v; want none sent, refused for its size as sent", len(model.seen), err)
		case wire:
			t.Logf("%v", err)
		case !wire && (err != nil || len(model.seen) != 1):
			t.Errorf("without the body's size: %d requests, error %v; want it sent", len(model.seen), err)
		}
	}
}

type replyModel string

func (m replyModel) Complete(context.Context, llm.Request) (llm.Response, error) {
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: string(m)}}, nil
}

// A huge reply reaches the event log clipped.
func TestHugeReplyIsClippedInEvents(t *testing.T) {
	var text string
	emit := func(e event.Event) {
		if e.Kind == event.ModelText {
			text = e.Text
		}
	}
	if _, err := Run(context.Background(), replyModel(strings.Repeat("x", 3_000_000)), newFakeTools(1, 0), Task{Prompt: "p", MaxSteps: 2}, emit); err != nil {
		t.Fatal(err)
	}
	if len(text) > tool.MaxArgsBytes+100 || !strings.HasSuffix(text, "… [truncated, 3.0 MB]") {
		t.Errorf("model_text event of %d bytes", len(text))
	}
}

// A tool turn that leaves nothing pending and no defects ends the subagent:
// a model that makes every call in one turn costs one request. A turn that
// only reads, or one with a failed call, or one that leaves a defect, goes
// back to the model.
func TestATurnThatFinishesEndsTheSubagent(t *testing.T) {
	for _, tc := range []struct {
		name         string
		pending      int
		defects      int
		turns        [][]llm.ToolCall
		wantRequests int
		wantRepaired bool
		refinement   bool
	}{
		{"one turn fills all", 2, 0, [][]llm.ToolCall{{call("a", "write", "1"), call("b", "write", "2")}}, 1, false, false},
		{"reads only", 0, 0, [][]llm.ToolCall{{call("a", "read", "1")}}, 2, false, false},
		{"still pending", 2, 0, [][]llm.ToolCall{{call("a", "write", "1")}, {call("b", "write", "2")}}, 2, false, false},
		{"failed call", 1, 0, [][]llm.ToolCall{{call("a", "write", "1"), call("b", "fail", "2")}}, 2, false, false},
		// The defect survives the tool turn, the model stops: the repair
		// turn still runs and its fix ends the subagent at once.
		{"defect repaired", 1, 1, [][]llm.ToolCall{{call("a", "write", "1")}, nil, {call("b", "fix", "x")}}, 3, true, false},
		// A refinement's turn that answers with a note ends it, as its
		// prompt says; reads alone still go back to the model, and so
		// does a note in a generation (the pending list is the task).
		{"refinement, a note", 0, 0, [][]llm.ToolCall{{call("a", "note", "1"), call("b", "read", "2")}}, 1, false, true},
		{"refinement, reads only", 0, 0, [][]llm.ToolCall{{call("a", "read", "1")}}, 2, false, true},
		{"refinement, a refused note", 0, 0, [][]llm.ToolCall{{call("a", "note", "1"), call("b", "fail", "2")}}, 2, false, true},
		{"generation, a note", 1, 0, [][]llm.ToolCall{{call("a", "note", "1")}, {call("b", "write", "2")}}, 2, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tools := newFakeTools(1, tc.pending)
			tools.defects = tc.defects
			model := &scriptedModel{turns: tc.turns}
			res, err := Run(context.Background(), model, tools, Task{Prompt: "p", MaxSteps: 6, Refinement: tc.refinement}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Requests != tc.wantRequests || res.Repaired != tc.wantRepaired || res.Stop != StopDone {
				t.Errorf("requests %d repaired %v stop %s, want %d %v done", res.Requests, res.Repaired, res.Stop, tc.wantRequests, tc.wantRepaired)
			}
		})
	}
}

// A refused call is kept with its reason, bounded: a refinement that
// changed nothing says why in the person's words.
func TestRefusalsAreKept(t *testing.T) {
	var turn []llm.ToolCall
	for i := range MaxRefusalsKept + 3 {
		turn = append(turn, call(fmt.Sprint(i), "fail", "x"))
	}
	res, err := Run(context.Background(), &scriptedModel{turns: [][]llm.ToolCall{turn}}, newFakeTools(1, 0), Task{Prompt: "p", MaxSteps: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.RefusalCount != MaxRefusalsKept+3 || len(res.Refusals) != MaxRefusalsKept || res.Refusals[0] != (Refusal{Tool: "fail", Message: "bad"}) {
		t.Errorf("refusals %d %v", res.RefusalCount, res.Refusals)
	}
}
