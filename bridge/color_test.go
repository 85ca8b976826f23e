package bridge

import (
	"context"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/session"
)

// A colour is checked against the one pattern the whiteboard declares, in
// either schema form, and the refusal says where and what is allowed.
func TestColourPatternAtDispatch(t *testing.T) {
	for _, form := range []Form{Strict, Compatible} {
		sess := newBoard(t)
		ts, _ := testBridge(t).NewToolset(levelFor(t, "whiteboard", session.LevelNode), "board", sess, form, ApproveAuto, nil)
		for _, args := range []string{
			`{"x":10,"y":20,"w":300,"h":40,"text":"Hi","style":{"color":"\u001b]0;pwned\u0007"}}`,
			`{"x":10,"y":20,"w":300,"h":40,"text":"Hi","style":{"color":"blurple"}}`,
		} {
			env, err := ts.Call(context.Background(), "add_text", args)
			if err != nil {
				t.Fatal(err)
			}
			if env.OK || env.Error.Kind != session.KindInvalidArgs || env.Error.Path != "style.color" || !strings.Contains(env.Error.Hint, "CSS colour") {
				t.Errorf("form %d, %s: got %+v", form, args, env.Error)
			}
		}
		if sess.Version() != 0 {
			t.Errorf("form %d: a bad colour was committed", form)
		}
		env, _ := ts.Call(context.Background(), "add_text", `{"x":10,"y":20,"w":300,"h":40,"text":"Hi","style":{"color":"#1b5e20","fill":"rgb(1, 2, 3)"}}`)
		if !env.OK {
			t.Errorf("form %d: a good colour refused: %+v", form, env.Error)
		}
	}
}

func TestColourPatternInSchema(t *testing.T) {
	c, _ := testBridge(t).Catalog("whiteboard")
	for _, form := range []Form{Strict, Compatible} {
		for _, tool := range c.Tools(levelFor(t, "whiteboard", session.LevelNode), form) {
			if tool.Name != "add_shape" {
				continue
			}
			s := string(tool.Parameters)
			hasPattern := strings.Contains(s, `"pattern"`)
			if hasPattern != (form == Compatible) {
				t.Errorf("form %d: pattern present = %v", form, hasPattern)
			}
			if !strings.Contains(s, `"description":"CSS colour"`) {
				t.Errorf("form %d: the description does not say what a colour is: %s", form, s)
			}
		}
	}
}
