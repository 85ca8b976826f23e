package orchestrate

import (
	"context"
	"reflect"
	"testing"

	"github.com/lessongen/lessongen/llm"
)

// The estimate sizes each subagent's first request as the run sends it:
// the same system message and the same user turn (the kickoff and the
// node's part), compared with what a run of the same lesson sent.
func TestEstimateSizesTheRequestARunSends(t *testing.T) {
	src := prefixLesson("whiteboard", "quiz")
	var sized []llm.Request
	opts := options(t, nil, 1)
	if _, err := EstimateCost(loadSrc(t, src), Scope{}, opts, func(r llm.Request) (int, error) {
		sized = append(sized, r)
		return 1, nil
	}); err != nil {
		t.Fatal(err)
	}
	model := &firstRequests{first: map[string]llm.Request{}}
	if _, err := Run(context.Background(), loadSrc(t, src), Scope{}, options(t, model, 1)); err != nil {
		t.Fatal(err)
	}
	if len(sized) == 0 {
		t.Fatal("nothing sized")
	}
	compared := 0
	for _, est := range sized {
		m := nodeRE.FindStringSubmatch(taskText(est))
		if m == nil {
			t.Fatalf("a sized request names no node:\n%+v", est.Messages)
		}
		sent, ok := model.first[m[2]]
		if !ok || m[1] != nodeRE.FindStringSubmatch(taskText(sent))[1] {
			continue // the run's first request of that level was another node's
		}
		compared++
		if !reflect.DeepEqual(est.Messages, sent.Messages) {
			t.Errorf("%s %s: the estimate sized\n%+v\nthe run sent\n%+v", m[1], m[2], est.Messages, sent.Messages)
		}
	}
	if compared < 2 {
		t.Errorf("compared %d requests, want one of each level run", compared)
	}
}
