package whiteboard_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

func TestColorCheck(t *testing.T) {
	for _, ok := range []string{"#fff", "#FFFA", "#1b5e20", "#1b5e20cc", "darkgreen", "DarkGreen", "white", "transparent",
		"rgb(10, 20, 30)", "rgba(10,20,30,0.5)", "rgb(10%, 20%, 30%)"} {
		if err := whiteboard.Color(ok).Check(); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "#ff", "#ggg", "#1234567", "blurple", "dark green", "red;", "\x1b[31m", "red\x1b]0;x\x07",
		"url(http://x)", "rgb(1,2)", "var(--c)", "javascript:alert(1)", "#fff\u202e"} {
		if err := whiteboard.Color(bad).Check(); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// A colour that is not one is a positioned load error, at the colour's own
// key, with what is allowed.
func TestDecodeRefusesBadColours(t *testing.T) {
	src := "canvas: {width: 1280, height: 720, background: \"\\e[2J\"}\n" +
		"elements:\n" +
		"  - id: a\n" +
		"    type: text\n" +
		"    text: hi\n" +
		"    x: 0\n    y: 0\n    w: 10\n    h: 10\n" +
		"    style:\n" +
		"      bold: true\n" +
		"      color: \"red\\a\"\n" +
		"  - {id: b, type: shape, shape: rect, x: 0, y: 0, w: 10, h: 10, style: {fill: blurple}}\n"
	ps := decodeProblems(t, src)
	want := []struct {
		line, col int
		msg       string
	}{
		{1, 36, `whiteboard.canvas.background: "\x1b[2J" is not a CSS colour`},
		{12, 7, `style.color: "red\a" is not a CSS colour: #rgb, #rrggbb`},
		{13, 73, `style.fill: "blurple" is not a CSS colour name`},
	}
	for _, w := range want {
		found := false
		for _, p := range ps {
			if p.Line == w.line && p.Col == w.col && strings.Contains(p.Message, w.msg) && !p.Warning {
				found = true
			}
		}
		if !found {
			t.Errorf("no error at %d:%d containing %q", w.line, w.col, w.msg)
		}
	}
	if t.Failed() {
		t.Logf("problems:\n%v", ps)
	}
}

// Every intent that takes a colour rejects one that is not, before
// anything changes.
func TestDispatchRefusesBadColours(t *testing.T) {
	s, _ := newSession(t, leafSrc)
	dispatch(t, s, whiteboard.AddText{Box: box(600, 100, 100, 40), Text: "mine", Style: &whiteboard.Style{Color: "#1b5e20"}})
	bad := whiteboard.Color("\x1b]0;pwned\x07")
	for _, in := range []session.Intent{
		whiteboard.AddText{Box: box(40, 100, 100, 40), Text: "x", Style: &whiteboard.Style{Color: bad}},
		whiteboard.AddShape{Box: box(40, 100, 100, 40), Shape: "rect", Style: &whiteboard.Style{Fill: "blurple"}},
		whiteboard.UpdateElement{ID: "text1", Text: ptr("x"), Style: &whiteboard.Style{Color: bad}},
		whiteboard.SetBackground{Background: bad},
		whiteboard.SetCanvas{Width: 1280, Height: 720, Background: "red green"},
	} {
		v := s.Version()
		_, err := s.Dispatch(context.Background(), in)
		e, ok := session.AsError(err)
		if !ok || e.Kind != session.KindInvalidArgs || !strings.Contains(e.Hint, "CSS colour") {
			t.Errorf("%T: got %v", in, err)
		}
		if s.Version() != v {
			t.Errorf("%T: a refused colour changed the board", in)
		}
	}
}
