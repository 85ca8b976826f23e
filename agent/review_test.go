package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/llm"
)

// reviewTask is a task with a review that draws a fresh image each look.
func reviewTask(shots *int) Task {
	return Task{Node: "n", Level: "whiteboard.node", Prompt: "p", MaxSteps: 10,
		Review: func(context.Context) string { return "the board" },
		ReviewImage: func(context.Context) []byte {
			*shots++
			return fmt.Appendf(nil, "png %d", *shots)
		}}
}

// looks are the review messages of a request, in order.
func looks(req llm.Request) []llm.Message {
	var out []llm.Message
	for _, m := range req.Messages {
		if m.Role == llm.RoleUser && (strings.HasPrefix(m.Content, "Review what you made") || strings.HasPrefix(m.Content, "Look again")) {
			out = append(out, m)
		}
	}
	return out
}

// TestReviewLooksAgainAfterAChange: a change made in review is shown again,
// drawn afresh, while the model keeps changing things, and at most
// MaxLooks times; each request carries only the newest picture.
func TestReviewLooksAgainAfterAChange(t *testing.T) {
	write := func(id string) []llm.ToolCall { return []llm.ToolCall{call(id, "write", `"`+id+`"`)} }
	// The work, then a change in reply to every look.
	model := &scriptedModel{turns: [][]llm.ToolCall{write("a"), write("b"), write("c"), write("d"), write("e")}}
	tools := newFakeTools(1, 1)
	shots := 0
	res, err := Run(context.Background(), model, tools, reviewTask(&shots), nil)
	if err != nil || res.Stop != StopDone {
		t.Fatalf("%v %v", res.Stop, err)
	}
	if res.Looks != MaxLooks || shots != MaxLooks {
		t.Fatalf("%d looks and %d pictures, want %d each", res.Looks, shots, MaxLooks)
	}
	// The work, a reply to each look; the change made after the last look
	// ends the subagent without a request more.
	if len(model.seen) != 1+MaxLooks {
		t.Errorf("%d requests, want %d", len(model.seen), 1+MaxLooks)
	}
	for i, req := range model.seen[1:] {
		ls := looks(req)
		if len(ls) != i+1 {
			t.Fatalf("request %d holds %d looks, want %d", i+2, len(ls), i+1)
		}
		images := 0
		for _, m := range req.Messages {
			images += len(m.Images)
		}
		last := ls[len(ls)-1]
		if images != 1 || len(last.Images) != 1 || string(last.Images[0]) != fmt.Sprintf("png %d", i+1) {
			t.Errorf("request %d carries %d pictures, want the newest (png %d) alone", i+2, images, i+1)
		}
	}
	if final := looks(model.seen[len(model.seen)-1]); !strings.Contains(final[len(final)-1].Content, "last look") {
		t.Errorf("the last look does not say so: %q", final[len(final)-1].Content)
	}
}

// TestReviewLooksOnceWithoutAChange: a look answered with no change (a
// read, then text) is not shown again.
func TestReviewLooksOnceWithoutAChange(t *testing.T) {
	model := &scriptedModel{turns: [][]llm.ToolCall{{call("a", "write", `"a"`)}, {call("r", "read", `"r"`)}}}
	shots := 0
	res, err := Run(context.Background(), model, newFakeTools(1, 1), reviewTask(&shots), nil)
	if err != nil || res.Stop != StopDone {
		t.Fatalf("%v %v", res.Stop, err)
	}
	if res.Looks != 1 || shots != 1 || len(model.seen) != 3 {
		t.Errorf("%d looks, %d pictures, %d requests; want 1, 1, 3", res.Looks, shots, len(model.seen))
	}
}

// TestReviewLooksAgainOnce: one fix in review gets one more look; a reply
// with no tool calls to it ends the subagent.
func TestReviewLooksAgainOnce(t *testing.T) {
	model := &scriptedModel{turns: [][]llm.ToolCall{{call("a", "write", `"a"`)}, {call("b", "write", `"b"`)}}}
	shots := 0
	res, err := Run(context.Background(), model, newFakeTools(1, 1), reviewTask(&shots), nil)
	if err != nil || res.Stop != StopDone {
		t.Fatalf("%v %v", res.Stop, err)
	}
	if res.Looks != 2 || shots != 2 || len(model.seen) != 3 {
		t.Errorf("%d looks, %d pictures, %d requests; want 2, 2, 3", res.Looks, shots, len(model.seen))
	}
}
