package whiteboard_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

func TestTodoBoardEncodesAsPendingScalar(t *testing.T) {
	b := whiteboard.Todo("a labelled chloroplast")
	n, ok := b.EncodeNode()
	if !ok {
		t.Fatal("a pending board encodes as absent")
	}
	if hint, pending := yamlsrc.Pending(n); !pending || hint != "a labelled chloroplast" {
		t.Errorf("encoded as %+v, want a !pending scalar with the hint", n)
	}
	if got := render(t, b); got != "!pending \"a labelled chloroplast\"\n" {
		t.Errorf("saved as %q", got)
	}
	if b.Hint() != "a labelled chloroplast" {
		t.Errorf("hint = %q", b.Hint())
	}
	want := []session.Pending{
		{Level: session.LevelMetadata, Path: "heading"},
		{Level: session.LevelMetadata, Path: "layout"},
		{Level: session.LevelNode, Path: "elements", Hint: "a labelled chloroplast", ID: "p1"},
	}
	if got := b.Pending(); !reflect.DeepEqual(got, want) {
		t.Errorf("pending = %+v\nwant %+v", got, want)
	}
}

func TestTodoBoardWithoutHint(t *testing.T) {
	b := whiteboard.Todo("")
	if got := render(t, b); got != "!pending\n" {
		t.Errorf("saved as %q, want a bare !pending", got)
	}
}

func TestFirstAddTurnsPendingListIntoPlaceholder(t *testing.T) {
	b := whiteboard.Todo("a chloroplast")
	s := session.New("board", b)
	res := apply(t, s, b, whiteboard.AddText{Box: box(10, 10, 200, 50), Text: "Chloroplast"})
	wantOutputs(t, res, whiteboard.Added{ID: "text1", Type: whiteboard.KindText, PendingID: "p1"})
	wantIDs(t, b, "text1", "?p1")
	out := render(t, b)
	// The hint stays saved after the new element until the node is closed,
	// so an interrupted run can continue.
	if !strings.Contains(out, "elements:\n  - id: text1\n") || !strings.Contains(out, "  - !pending \"a chloroplast\"\n") {
		t.Errorf("saved:\n%s", out)
	}
	// Heading and layout are still pending; the filled placeholder is not.
	var paths []string
	for _, p := range b.Pending() {
		paths = append(paths, p.Path)
	}
	if strings.Join(paths, " ") != "heading layout" {
		t.Errorf("pending paths = %v, want heading and layout only", paths)
	}

	// Undo takes the board back to the single pending marker.
	dispatch(t, s, session.Undo{})
	if got := render(t, b); got != "!pending \"a chloroplast\"\n" {
		t.Errorf("after undo saved as %q", got)
	}
	dispatch(t, s, session.Redo{})
	apply(t, s, b, whiteboard.ClosePlaceholders{})
	wantIDs(t, b, "text1")
}

func TestPendingElementsKeyInAWrittenBoard(t *testing.T) {
	s, b := newSession(t, "heading: H\nelements: !pending \"three columns\"\n")
	if p := b.Pending(); len(p) != 1 || !reflect.DeepEqual(p[0], session.Pending{Level: session.LevelNode, Path: "elements", Hint: "three columns", ID: "p1"}) {
		t.Errorf("pending = %+v", p)
	}
	apply(t, s, b, whiteboard.AddShape{Box: box(0, 0, 100, 100), Shape: "rect", Placing: whiteboard.Placing{PendingID: "p1"}})
	apply(t, s, b, whiteboard.AddShape{Box: box(200, 0, 100, 100), Shape: "rect"})
	wantIDs(t, b, "shape1", "shape2", "?p1")
	if len(session.Owed(b.Pending())) != 0 {
		t.Errorf("pending = %+v, want nothing owed once the placeholder has content", b.Pending())
	}
	// "three columns" counts three: listed, with what it holds, until then.
	if p := b.Pending(); len(p) != 1 || !reflect.DeepEqual(p[0].Generated, []string{"shape1", "shape2"}) {
		t.Errorf("pending = %+v, want the placeholder with its two shapes", p)
	}
	apply(t, s, b, whiteboard.AddShape{Box: box(400, 0, 100, 100), Shape: "rect", Placing: whiteboard.Placing{PendingID: "p1"}})
	if p := b.Pending(); len(p) != 0 {
		t.Errorf("pending = %+v, want nothing after three", p)
	}
}

func TestAddsLandBeforeTheirPlaceholder(t *testing.T) {
	src := `elements:
  - {id: top, type: text, text: Top, x: 0, y: 0, w: 100, h: 40}
  - !pending "left column"
  - {id: mid, type: text, text: Mid, x: 0, y: 100, w: 100, h: 40}
  - !pending "right column"
  - {id: end, type: text, text: End, x: 0, y: 200, w: 100, h: 40}
`
	s, b := newSession(t, src)
	wantIDs(t, b, "top", "?p1", "mid", "?p2", "end")
	pendingIDs := func() []string {
		var out []string
		for _, p := range b.Pending() {
			out = append(out, p.ID+"="+p.Hint)
		}
		return out
	}
	if got := pendingIDs(); strings.Join(got, ";") != "p1=left column;p2=right column" {
		t.Errorf("pending = %v", got)
	}

	res := apply(t, s, b, whiteboard.AddText{Box: box(300, 0, 100, 40), Text: "R", Placing: whiteboard.Placing{PendingID: "p2"}})
	wantOutputs(t, res, whiteboard.Added{ID: "text1", Type: whiteboard.KindText, PendingID: "p2"})
	apply(t, s, b, whiteboard.AddText{Box: box(300, 100, 100, 40), Text: "L", Placing: whiteboard.Placing{PendingID: "p1"}})
	// With two placeholders open, an add without pending_id cannot guess: it
	// goes at the end.
	res = apply(t, s, b, whiteboard.AddText{Box: box(300, 200, 100, 40), Text: "E"})
	wantOutputs(t, res, whiteboard.Added{ID: "text3", Type: whiteboard.KindText})
	wantIDs(t, b, "top", "text2", "?p1", "mid", "text1", "?p2", "end", "text3")
	if got := pendingIDs(); len(got) != 0 {
		t.Errorf("filled placeholders still pending: %v", got)
	}

	res = apply(t, s, b, whiteboard.ClosePlaceholders{})
	wantOutputs(t, res, whiteboard.Closed{Placeholders: []string{"p1", "p2"}})
	wantIDs(t, b, "top", "text2", "mid", "text1", "end", "text3")
}

// An arrow with a free end names no element at that end: it does not keep
// the placeholders open as an arrow to a missing element does.
func TestCloseWithFreeEndedArrows(t *testing.T) {
	s, b := newSession(t, "elements:\n  - !pending \"a part to name\"\n")
	apply(t, s, b, whiteboard.AddShape{Box: box(80, 240, 280, 90), Shape: "rect", Label: "A: ?", Placing: whiteboard.Placing{ID: "label-a"}})
	apply(t, s, b, whiteboard.AddArrow{From: "label-a", ToPoint: &whiteboard.Point{X: 540, Y: 300}})
	apply(t, s, b, whiteboard.AddArrow{FromPoint: &whiteboard.Point{X: 600, Y: 60}, To: "label-a"})
	res := apply(t, s, b, whiteboard.ClosePlaceholders{})
	wantOutputs(t, res, whiteboard.Closed{Placeholders: []string{"p1"}})
	if p := b.Pending(); len(p) != 0 {
		t.Errorf("still pending after close: %+v", p)
	}
}

func TestCloseKeepsUnfilledPlaceholders(t *testing.T) {
	src := "elements:\n  - !pending \"a\"\n  - !pending \"b\"\n"
	s, b := newSession(t, src)
	apply(t, s, b, whiteboard.AddText{Box: box(0, 0, 10, 10), Text: "t", Placing: whiteboard.Placing{PendingID: "p2"}})
	res := apply(t, s, b, whiteboard.ClosePlaceholders{})
	wantOutputs(t, res, whiteboard.Closed{Placeholders: []string{"p2"}})
	wantIDs(t, b, "?p1", "text1")
	if p := b.Pending(); len(p) != 1 || p[0].ID != "p1" || p[0].Hint != "a" {
		t.Errorf("pending = %+v, want the unfilled p1", p)
	}
}

// A board given whole as pending that receives only metadata is saved as a
// mapping with the rest still pending, hint kept on the elements.
func TestTodoBoardPartlyFilled(t *testing.T) {
	b := whiteboard.Todo("the water cycle")
	s := session.New("board", b)
	apply(t, s, b, whiteboard.SetHeading{Heading: "The water cycle"})
	want := "heading: The water cycle\nlayout: !pending\nelements: !pending \"the water cycle\"\n"
	if got := render(t, b); got != want {
		t.Errorf("saved:\n%s\nwant:\n%s", got, want)
	}
	roundTrips(t, b)
}

func TestDeletingAGeneratedElementReopensItsPlaceholder(t *testing.T) {
	s := session.New("board", whiteboard.Todo("a diagram"))
	var b *whiteboard.Board
	s.View(func(st session.State) { b = st.(*whiteboard.Board) })
	added := dispatch(t, s, whiteboard.AddText{Box: box(10, 10, 100, 40), Text: "x"}).Outputs[0].(whiteboard.Added)
	if len(b.Pending()) != 2 { // heading and layout; the elements placeholder is filled
		t.Fatalf("pending %+v", b.Pending())
	}
	dispatch(t, s, whiteboard.DeleteElement{ID: added.ID})
	var ids []string
	for _, p := range b.Pending() {
		ids = append(ids, p.ID)
	}
	if !slices.Contains(ids, added.PendingID) {
		t.Errorf("after deleting its only element, %s should be pending again: %+v", added.PendingID, b.Pending())
	}
}

// A run stopped after filling part of a placeholder leaves generated_for on
// what it added; the next run sees those elements listed with the
// placeholder, keeps them, and closing the placeholder drops the key.
func TestStoppedFillIsNotRepeated(t *testing.T) {
	b := whiteboard.Todo("a chloroplast")
	s := session.New("board", b)
	apply(t, s, b, whiteboard.AddText{Box: box(10, 10, 200, 50), Text: "Chloroplast"})
	saved := render(t, b)
	if !strings.Contains(saved, "generated_for: a chloroplast\n") {
		t.Fatalf("saved without generated_for:\n%s", saved)
	}

	// The rerun loads what was saved.
	s, b = newSession(t, saved)
	var ph []session.Pending
	for _, p := range b.Pending() {
		if p.ID != "" {
			ph = append(ph, p)
		}
	}
	if len(ph) != 1 || !reflect.DeepEqual(ph[0].Generated, []string{"text1"}) || ph[0].Hint != "a chloroplast" {
		t.Fatalf("pending placeholders = %+v, want p1 listing text1 as generated", ph)
	}
	// What the stopped run added stays as it is.
	if _, err := s.Dispatch(context.Background(), whiteboard.DeleteElement{ID: "text1"}); err == nil {
		t.Error("the rerun deleted what the stopped run generated")
	}
	apply(t, s, b, whiteboard.AddShape{Box: box(300, 10, 100, 100), Shape: "rect", Placing: whiteboard.Placing{PendingID: "p1"}})
	apply(t, s, b, whiteboard.ClosePlaceholders{})
	wantIDs(t, b, "text1", "shape1")
	if out := render(t, b); strings.Contains(out, "generated_for") || strings.Contains(out, "!pending \"a chloroplast\"") {
		t.Errorf("closed placeholder still recorded:\n%s", out)
	}

	// A rerun that finds nothing lacking closes the placeholder too.
	s, b = newSession(t, saved)
	apply(t, s, b, whiteboard.ClosePlaceholders{})
	wantIDs(t, b, "text1")
	if out := render(t, b); strings.Contains(out, "generated_for") {
		t.Errorf("closed placeholder still recorded:\n%s", out)
	}
}

// An author's generated_for naming no open placeholder is kept as written
// and ties nothing.
func TestGeneratedForWithoutPlaceholderIsKept(t *testing.T) {
	src := "elements:\n  - id: a\n    type: text\n    x: 0\n    y: 0\n    w: 100\n    h: 40\n    text: A\n    generated_for: gone\n  - !pending other\n"
	s, b := newSession(t, src)
	for _, p := range b.Pending() {
		if len(p.Generated) != 0 {
			t.Errorf("pending %+v lists generated elements", p)
		}
	}
	apply(t, s, b, whiteboard.AddShape{Box: box(300, 10, 100, 100), Shape: "rect"})
	apply(t, s, b, whiteboard.ClosePlaceholders{})
	if out := render(t, b); !strings.Contains(out, "generated_for: gone") {
		t.Errorf("author's key lost:\n%s", out)
	}
}

// A saved board always loads. An author's arrow may name an element a
// placeholder is to add; if the run fills the placeholder without it, the
// placeholder stays open (the arrow stays a defect) instead of closing into
// a file whose dangling arrow is a load error.
func TestCloseKeepsFileLoadableWithDanglingArrow(t *testing.T) {
	src := "elements:\n  - {id: a, type: text, text: A, x: 0, y: 0, w: 100, h: 40}\n  - {id: x, type: arrow, from: a, to: later}\n  - !pending more\n"
	s, b := newSession(t, src)
	apply(t, s, b, whiteboard.AddText{Box: box(300, 300, 100, 40), Text: "B"})
	apply(t, s, b, whiteboard.ClosePlaceholders{})
	out := render(t, b)
	if !strings.Contains(out, "!pending \"more\"") {
		t.Errorf("placeholder closed under a dangling arrow:\n%s", out)
	}
	if err := decodeProblems(t, out).Err(); err != nil {
		t.Errorf("saved board does not load: %v\n%s", err, out)
	}
	if len(b.Defects()) == 0 {
		t.Error("the dangling arrow is not reported as a defect")
	}
}

// Deleting a generated element deletes the generated arrows that point at
// it, so the saved file still loads.
func TestDeleteTakesGeneratedArrowsAlong(t *testing.T) {
	s, b := newSession(t, "elements:\n  - {id: a, type: text, text: A, x: 0, y: 0, w: 100, h: 40}\n")
	apply(t, s, b, whiteboard.AddText{Box: box(300, 300, 100, 40), Text: "B"})
	apply(t, s, b, whiteboard.AddArrow{From: "a", To: "text1"})
	apply(t, s, b, whiteboard.DeleteElement{ID: "text1"})
	wantIDs(t, b, "a")
	if err := decodeProblems(t, render(t, b)).Err(); err != nil {
		t.Errorf("saved board does not load: %v", err)
	}
}

// The heading is drawn in its band at the top of the canvas; an element
// drawn into that band is a defect, and a board without a heading keeps the
// band for content.
func TestHeadingBandInsideCanvas(t *testing.T) {
	src := "heading: Water\nelements:\n  - {id: a, type: text, text: A, x: 40, y: 60, w: 300, h: 40}\n  - {id: b, type: text, text: B, x: 40, y: 120, w: 300, h: 40}\n"
	b, warnings := decode(t, src)
	if len(warnings) != 1 || !strings.Contains(warnings[0].Message, "a overlaps the heading band (y 40–104); move it to y 120 or below") {
		t.Errorf("warnings = %v, want one for a in the heading band", warnings)
	}
	body := whiteboard.Render(b, nil).Body
	svg := body[strings.Index(body, "<svg"):]
	if !strings.Contains(svg, `class="wb-heading"`) || !strings.Contains(svg, ">Water<") {
		t.Errorf("heading not drawn inside the canvas:\n%s", body)
	}
	if _, warnings := decode(t, strings.Replace(src, "heading: Water\n", "", 1)); len(warnings) != 0 {
		t.Errorf("without a heading: warnings %v", warnings)
	}
}
