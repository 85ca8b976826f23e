package bridge

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/session"
)

// A clean result says so ("warnings": []); a refusal has no such list.
func TestEnvelopeAlwaysSaysWarnings(t *testing.T) {
	ts, _ := testBridge(t).NewToolset(levelFor(t, "whiteboard", session.LevelNode), "board", newBoard(t), Strict, ApproveAuto, nil)
	ctx := context.Background()
	env, _ := ts.Call(ctx, "add_text", `{"x":40,"y":300,"w":300,"h":60,"text":"clean","style":null,"id":"a","pending_id":null}`)
	if data, _ := json.Marshal(env); !env.OK || !strings.Contains(string(data), `"warnings":[]`) {
		t.Errorf("clean add: %s", data)
	}
	env, _ = ts.Call(ctx, "add_text", `{"x":40,"y":450,"w":300,"h":60,"text":"clash","style":null,"id":"a","pending_id":null}`)
	if data, _ := json.Marshal(env); env.OK || strings.Contains(string(data), `"warnings"`) || !strings.Contains(string(data), `"a-2\" is free`) {
		t.Errorf("clashing add: %s", data)
	}
}
