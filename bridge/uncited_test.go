package bridge

import (
	"context"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/session"
)

// TestNoSourcesNoCitationParameter: a run without --sources offers no
// "sources" parameter (a citation could only be refused), in either form
// and with the canvas's bounds applied; a run with sources offers it; and
// a model that cites anyway is told why.
func TestNoSourcesNoCitationParameter(t *testing.T) {
	for _, form := range []Form{Strict, Compatible} {
		for _, withSources := range []bool{false, true} {
			ts, err := testBridge(t).NewToolset(levelFor(t, "whiteboard", session.LevelNode), "board", newBoard(t), form, ApproveAuto, nil)
			if err != nil {
				t.Fatal(err)
			}
			if withSources {
				sb, err := sources.Open([]string{t.TempDir()})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(sb.Close)
				ts.Sources = sb
			}
			cites := 0
			for _, d := range ts.Tools() {
				if strings.Contains(string(d.Parameters), `"sources"`) {
					cites++
				}
			}
			if withSources && cites == 0 || !withSources && cites > 0 {
				t.Errorf("form %d, sources %v: %d tools offer a sources parameter", form, withSources, cites)
			}
			if withSources {
				continue
			}
			env, err := ts.Call(context.Background(), "add_text", `{"x":40,"y":140,"w":300,"h":40,"text":"T","sources":["notes.md:1"]}`)
			if err != nil || env.OK || env.Error == nil || !strings.Contains(env.Error.Message, "no sources") {
				t.Errorf("form %d: a citation without sources: %+v %v", form, env.Error, err)
			}
		}
	}
}
