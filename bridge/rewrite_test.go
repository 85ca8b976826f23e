package bridge

import (
	"context"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

// authoredBoard is a board with one element the author wrote.
func authoredBoard(t *testing.T) *session.Session {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("heading: Poles\nelements:\n  - {id: title, type: text, x: 40, y: 130, w: 400, h: 40, text: Which is bigger}\n"), &n); err != nil {
		t.Fatal(err)
	}
	r := &yamlsrc.Reporter{}
	b := whiteboard.Decode(n.Content[0], r, "board")
	return session.New("board", b)
}

// TestRewriteAsksForTheAuthorsContent: with Rewrite, a change only the
// author's protection refuses is shown (marked as the author's) and
// applied if approved, refused if declined; other changes are not asked
// about under --approve auto; without Rewrite nothing is asked and the
// author's element stays.
func TestRewriteAsksForTheAuthorsContent(t *testing.T) {
	ctx := context.Background()
	for _, answer := range []bool{true, false} {
		sess := authoredBoard(t)
		asker := &fakeAsker{answer: answer}
		ts, err := testBridge(t).NewToolset(levelFor(t, "whiteboard", session.LevelNode), "board", sess, Strict, ApproveAuto, asker)
		if err != nil {
			t.Fatal(err)
		}
		ts.Refine, ts.Rewrite = true, true
		env, err := ts.Call(ctx, "add_text", `{"x":40,"y":300,"w":300,"h":40,"text":"new"}`)
		if err != nil || !env.OK || len(asker.asked) != 0 {
			t.Fatalf("a change to nothing of the author's: env %+v, asked %d", env, len(asker.asked))
		}
		env, err = ts.Call(ctx, "move_element", `{"id":"title","x":600,"y":130}`)
		if err != nil {
			t.Fatal(err)
		}
		if len(asker.asked) != 1 || !asker.asked[0].Authored || asker.asked[0].Tool != "move_element" {
			t.Fatalf("answer %v: asked %+v", answer, asker.asked)
		}
		var x float64
		sess.View(func(st session.State) {
			e, _ := st.(*whiteboard.Board).Element("title")
			x = e.X
		})
		if answer && (!env.OK || x != 600) || !answer && (env.OK || x != 40 || env.Error.Kind != session.KindPermission) {
			t.Errorf("answer %v: env %+v, title at x=%g", answer, env, x)
		}
		// The protection is back on after the question.
		sess.View(func(st session.State) {
			if !st.(*whiteboard.Board).Protect {
				t.Error("the author's content was left unprotected")
			}
		})
	}

	sess := authoredBoard(t)
	asker := &fakeAsker{answer: true}
	ts, _ := testBridge(t).NewToolset(levelFor(t, "whiteboard", session.LevelNode), "board", sess, Strict, ApproveAuto, asker)
	ts.Refine = true
	env, _ := ts.Call(ctx, "move_element", `{"id":"title","x":600,"y":130}`)
	if env.OK || len(asker.asked) != 0 {
		t.Errorf("without Rewrite the author's element moved or was asked about: %+v", env)
	}
}
