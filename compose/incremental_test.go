package compose_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

// incrementalSrc has slides with inline whiteboards, pending and not,
// comments between slides and a key after the list.
func incrementalSrc(n int) string {
	var b strings.Builder
	b.WriteString("# a lesson\nversion: 1\nmetadata:\n  title: Cells   # working title\n  objectives:\nslides:\n")
	for i := range n {
		fmt.Fprintf(&b, "  # slide %d\n  - id: s%d\n    title: Slide %d\n    notes: !pending\n", i, i, i)
		if i%2 == 0 {
			fmt.Fprintf(&b, "    whiteboard: !pending \"board %d\"   # to do\n\n", i)
		} else {
			fmt.Fprintf(&b, "    whiteboard:\n      heading: Board %d\n      elements:\n        - {id: a, type: text, text: A, x: 40, y: 140, w: 300, h: 40}\n        - !pending \"one more\"\n\n", i)
		}
	}
	return b.String()
}

// A save renders only what changed since the last, but the bytes must be
// those a first save of the same document gives: rendering after every
// change and rendering once at the end agree, for changes to children and
// to the lesson itself.
func TestRenderAfterEachChangeIsRenderOnce(t *testing.T) {
	ctx := context.Background()
	const n = 12
	src := incrementalSrc(n)
	type change func(d *compose.Document) error
	text := func(slide string, y int) change {
		return func(d *compose.Document) error {
			_, err := d.Session().DispatchChild(ctx, board(slide), whiteboard.AddText{Box: whiteboard.Box{X: 40, Y: float64(y), W: 300, H: 40}, Text: "Line\nand a second " + slide})
			return err
		}
	}
	heading := func(slide string) change {
		return func(d *compose.Document) error {
			_, err := d.Session().DispatchChild(ctx, board(slide), whiteboard.SetHeading{Heading: "New " + slide})
			return err
		}
	}
	notes := func(slide string) change {
		return func(d *compose.Document) error {
			_, err := d.Session().Dispatch(ctx, lesson.UpdateSlide{ID: slide, Notes: ptr("Notes for " + slide)})
			return err
		}
	}
	changes := []change{
		heading("s0"), text("s0", 200), text("s3", 300), heading("s10"), notes("s5"),
		text("s4", 200), heading("s4"), text("s3", 400), notes("s0"), heading("s8"),
	}
	each := load(t, src)
	for k := range changes {
		if err := changes[k](each); err != nil {
			t.Fatalf("change %d: %v", k, err)
		}
		got, err := each.LessonBytes()
		if err != nil {
			t.Fatalf("render after change %d: %v", k, err)
		}
		once := load(t, src)
		for _, c := range changes[:k+1] {
			if err := c(once); err != nil {
				t.Fatal(err)
			}
		}
		want, err := once.LessonBytes()
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("after change %d, rendering after each change gave\n%s\n--- rendering once gave\n%s", k, got, want)
		}
	}
	// The result reads back as the document holds it.
	data, _ := each.LessonBytes()
	if !strings.Contains(string(data), "      heading: New s0\n") || !strings.Contains(string(data), "  - id: s3\n") {
		t.Errorf("changes missing:\n%s", data)
	}
	if _, err := each.Render(""); err != nil {
		t.Fatal(err)
	}
	again := reload(t, each)
	child, err := again.Child("s4", "whiteboard")
	if err != nil {
		t.Fatal(err)
	}
	child.View(func(st session.State) {
		if h := st.(*whiteboard.Board).Heading.Value; h != "New s4" {
			t.Errorf("reloaded heading %q", h)
		}
	})
}
