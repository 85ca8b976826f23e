package orchestrate

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/internal/fakellm"
)

// TestEveryOfferedSetterCostsNoTurn: a whiteboard, quiz or activity
// subagent is offered every setter of its level (the subagents share one
// prompt prefix). A model that calls them all in one turn, where the
// author wrote some of those values, is refused those calls, keeps the
// author's values, and still needs one request per subagent.
func TestEveryOfferedSetterCostsNoTurn(t *testing.T) {
	srv := fakellm.Start(t, allLevelsScript())
	doc := loadSrc(t, prefixLesson("whiteboard", "quiz", "activity"))
	opts := options(t, benchModel(t, srv), 1)
	var mu sync.Mutex
	refused := map[string]int{}
	opts.Events = func(e event.Event) {
		if e.Kind == event.ToolResult && !*e.OK {
			mu.Lock()
			defer mu.Unlock()
			if !strings.Contains(string(e.Result), "nothing it fills was pending") {
				t.Errorf("%s %s: %s", e.Node, e.Tool, e.Result)
			}
			refused[e.Tool]++
		}
	}
	report, err := Run(context.Background(), doc, Scope{}, opts)
	if err != nil || len(report.Incomplete()) > 0 {
		t.Fatalf("run: %v %+v", err, report.Incomplete())
	}
	if report.Requests != len(report.Nodes) {
		t.Errorf("%d requests for %d subagents, want one each", report.Requests, len(report.Nodes))
	}
	// The author's values on the odd slides, and what no slide had
	// pending, were refused.
	for _, name := range []string{"set_heading", "set_canvas", "set_background", "set_kind", "set_instructions", "set_model_answer"} {
		if refused[name] == 0 {
			t.Errorf("no call of %s was refused; refused: %v", name, refused)
		}
	}
	data, err := doc.LessonBytes()
	if err != nil {
		t.Fatal(err)
	}
	if out := string(data); !strings.Contains(out, "heading: Board 1,") || !strings.Contains(out, "instructions: Explain it to your partner.,") {
		t.Errorf("the author's values changed:\n%s", out)
	}
}
