package whiteboard_test

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/sessiontest"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

func TestIntentsReduce(t *testing.T) {
	const plain = "elements: []\n"
	// Generated elements used by the edit cases; ids count up across kinds.
	addGen := []session.Intent{
		whiteboard.AddText{Box: box(700, 100, 300, 80), Text: "generated"},      // text1
		whiteboard.AddShape{Box: box(700, 300, 200, 100), Shape: "rect"},        // shape2
		whiteboard.AddArrow{From: "text1", To: "shape2"},                        // arrow3
		whiteboard.AddShape{Box: box(100, 300, 100, 100), Shape: "ellipse"},     // shape4
		whiteboard.AddArrow{From: "title", To: "text1", Label: "what it shows"}, // arrow5
	}
	tests := []struct {
		name  string
		src   string
		setup []session.Intent
		in    session.Intent
		check func(t *testing.T, b *whiteboard.Board, res session.Result)
	}{
		{
			name: "SetHeading trims and sets",
			in:   whiteboard.SetHeading{Heading: "  Inside a leaf "},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				if v, ok := b.Heading.Get(); !ok || v != "Inside a leaf" {
					t.Errorf("heading = %q, %v", v, ok)
				}
				wantOutputs(t, res, whiteboard.Set{Field: "heading", Value: "Inside a leaf"})
			},
		},
		{
			name: "SetLayout fills the pending layout",
			in:   whiteboard.SetLayout{Layout: "diagram left, labels right"},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				if !b.Layout.Set || b.Layout.Pending {
					t.Errorf("layout = %+v", b.Layout)
				}
				for _, p := range b.Pending() {
					if p.Path == "layout" {
						t.Errorf("layout still listed as pending")
					}
				}
			},
		},
		{
			name:  "SetHeading again after generation",
			setup: []session.Intent{whiteboard.SetHeading{Heading: "First try"}},
			in:    whiteboard.SetHeading{Heading: "Second try"},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				if b.Heading.Value != "Second try" {
					t.Errorf("heading = %+v", b.Heading)
				}
			},
		},
		{
			name: "SetCanvas on the default canvas",
			src:  plain,
			in:   whiteboard.SetCanvas{Width: 800, Height: 600, Background: " #fdf6e3 "},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				want := whiteboard.Canvas{Width: 800, Height: 600, Background: "#fdf6e3"}
				if got := b.CanvasSize(); got != want {
					t.Errorf("canvas = %+v, want %+v", got, want)
				}
				wantOutputs(t, res, whiteboard.Set{Field: "canvas", Value: want})
			},
		},
		{
			name:  "SetCanvas keeps the background when none is given",
			src:   plain,
			setup: []session.Intent{whiteboard.SetBackground{Background: "white"}},
			in:    whiteboard.SetCanvas{Width: 1920, Height: 1080},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				want := whiteboard.Canvas{Width: 1920, Height: 1080, Background: "white"}
				if got := b.CanvasSize(); got != want {
					t.Errorf("canvas = %+v, want %+v", got, want)
				}
			},
		},
		{
			name: "SetBackground writes the default canvas size too",
			src:  "heading: H\n",
			in:   whiteboard.SetBackground{Background: "ivory"},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				c, ok := b.Canvas.Get()
				want := whiteboard.Canvas{Width: whiteboard.DefaultWidth, Height: whiteboard.DefaultHeight, Background: "ivory"}
				if !ok || c != want {
					t.Errorf("canvas = %+v (set %v), want %+v", c, ok, want)
				}
				if !strings.Contains(render(t, b), "canvas:\n  width: 1280\n  height: 720\n  background: ivory\n") {
					t.Errorf("saved canvas:\n%s", render(t, b))
				}
			},
		},
		{
			name: "AddText fills the only placeholder",
			in:   whiteboard.AddText{Box: box(700, 100, 400, 80), Text: " Chloroplasts make food ", Style: &whiteboard.Style{Bold: true, Align: "center"}},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				wantOutputs(t, res, whiteboard.Added{ID: "text1", Type: whiteboard.KindText, PendingID: "p1"})
				wantIDs(t, b, "title", "caption", "text1", "?p1")
				e := element(t, b, "text1")
				if e.Text.Value != "Chloroplasts make food" || e.X != 700 || e.Y != 100 || e.W != 400 || e.H != 80 || !e.Style.Bold {
					t.Errorf("added %+v", e)
				}
			},
		},
		{
			name: "AddText without placeholders goes at the end",
			src:  plain,
			in:   whiteboard.AddText{Box: box(0, 0, 10, 10), Text: "t"},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				wantOutputs(t, res, whiteboard.Added{ID: "text1", Type: whiteboard.KindText})
				wantIDs(t, b, "text1")
			},
		},
		{
			name: "AddShape with a label",
			in:   whiteboard.AddShape{Box: box(600, 200, 300, 300), Shape: "ellipse", Label: " cell "},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				wantOutputs(t, res, whiteboard.Added{ID: "shape1", Type: whiteboard.KindShape, PendingID: "p1"})
				e := element(t, b, "shape1")
				if e.Shape != "ellipse" || e.Label.Value != "cell" {
					t.Errorf("added %+v", e)
				}
			},
		},
		{
			name: "AddShape without a label leaves it absent",
			src:  plain,
			in:   whiteboard.AddShape{Box: box(0, 0, 10, 10), Shape: "line"},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				if strings.Contains(render(t, b), "label") {
					t.Errorf("empty label saved:\n%s", render(t, b))
				}
			},
		},
		{
			name: "AddArrow joins two elements and has no box",
			in:   whiteboard.AddArrow{From: "title", To: "caption", Label: "explains"},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				wantOutputs(t, res, whiteboard.Added{ID: "arrow1", Type: whiteboard.KindArrow, PendingID: "p1"})
				e := element(t, b, "arrow1")
				if e.From != "title" || e.To != "caption" || e.Label.Value != "explains" {
					t.Errorf("added %+v", e)
				}
				out := render(t, b)
				arrow := out[strings.Index(out, "id: arrow1"):]
				arrow = arrow[:strings.Index(arrow, "- ")]
				if strings.Contains(arrow, "x:") || strings.Contains(arrow, "w:") {
					t.Errorf("arrow saved with a box:\n%s", arrow)
				}
			},
		},
		{
			name: "AddEquation",
			in:   whiteboard.AddEquation{Box: box(100, 300, 600, 100), Latex: `6CO_2 + 6H_2O \to C_6H_{12}O_6 + 6O_2`},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				wantOutputs(t, res, whiteboard.Added{ID: "eq1", Type: whiteboard.KindEquation, PendingID: "p1"})
				if e := element(t, b, "eq1"); !strings.HasPrefix(e.Latex.Value, "6CO_2") {
					t.Errorf("latex = %q", e.Latex.Value)
				}
			},
		},
		{
			name: "AddImage",
			in:   whiteboard.AddImage{Box: box(100, 200, 400, 300), Description: "a leaf cross-section", Alt: "Cross-section of a leaf"},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				wantOutputs(t, res, whiteboard.Added{ID: "img1", Type: whiteboard.KindImage, PendingID: "p1"})
				e := element(t, b, "img1")
				if e.Description.Value != "a leaf cross-section" || e.Alt.Value != "Cross-section of a leaf" {
					t.Errorf("added %+v", e)
				}
			},
		},
		{
			name: "UpdateElement fills an authored element's pending text",
			in:   whiteboard.UpdateElement{ID: "caption", Text: ptr("Leaves turn light into sugar")},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				wantOutputs(t, res, whiteboard.Changed{ID: "caption", Fields: []string{"text"}})
				if e := element(t, b, "caption"); !e.Text.Set || e.Text.Value != "Leaves turn light into sugar" {
					t.Errorf("caption text = %+v", e.Text)
				}
				for _, p := range b.Pending() {
					if strings.HasPrefix(p.Path, "elements[caption]") {
						t.Errorf("caption still pending: %+v", p)
					}
				}
			},
		},
		{
			name:  "UpdateElement changes a generated element's text and style",
			setup: addGen[:1],
			in:    whiteboard.UpdateElement{ID: "text1", Text: ptr("changed"), Style: &whiteboard.Style{Color: "green"}},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				wantOutputs(t, res, whiteboard.Changed{ID: "text1", Fields: []string{"text", "style"}})
				if e := element(t, b, "text1"); e.Text.Value != "changed" || e.Style == nil || e.Style.Color != "green" {
					t.Errorf("text1 = %+v", e)
				}
			},
		},
		{
			name:  "UpdateElement relabels a generated arrow",
			setup: addGen[:3],
			in:    whiteboard.UpdateElement{ID: "arrow3", Label: ptr("becomes")},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				if e := element(t, b, "arrow3"); e.Label.Value != "becomes" {
					t.Errorf("arrow3 label = %+v", e.Label)
				}
			},
		},
		{
			name:  "MoveElement",
			setup: addGen[:1],
			in:    whiteboard.MoveElement{ID: "text1", X: 10, Y: 200},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				wantOutputs(t, res, whiteboard.Changed{ID: "text1", Fields: []string{"x", "y"}})
				if e := element(t, b, "text1"); e.X != 10 || e.Y != 200 || e.W != 300 || e.H != 80 {
					t.Errorf("text1 box = %g,%g %gx%g", e.X, e.Y, e.W, e.H)
				}
			},
		},
		{
			// One call places the box: moving alone would run it past the
			// canvas's edge (x 1100 + w 300) until a second call resized it.
			name:  "MoveElement with a size",
			setup: addGen[:1],
			in:    whiteboard.MoveElement{ID: "text1", X: 1100, Y: 200, W: ptr(150.0), H: ptr(60.0)},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				wantOutputs(t, res, whiteboard.Changed{ID: "text1", Fields: []string{"x", "y", "w", "h"}})
				if e := element(t, b, "text1"); e.X != 1100 || e.Y != 200 || e.W != 150 || e.H != 60 {
					t.Errorf("text1 box = %g,%g %gx%g", e.X, e.Y, e.W, e.H)
				}
			},
		},
		{
			name:  "ResizeElement",
			setup: addGen[:1],
			in:    whiteboard.ResizeElement{ID: "text1", W: 500, H: 120},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				wantOutputs(t, res, whiteboard.Changed{ID: "text1", Fields: []string{"w", "h"}})
				if e := element(t, b, "text1"); e.X != 700 || e.Y != 100 || e.W != 500 || e.H != 120 {
					t.Errorf("text1 box = %g,%g %gx%g", e.X, e.Y, e.W, e.H)
				}
			},
		},
		{
			name:  "DeleteElement cascades to arrows at either end",
			setup: addGen,
			in:    whiteboard.DeleteElement{ID: "text1"},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				// arrow3 starts at text1 and arrow5 ends there.
				wantOutputs(t, res, whiteboard.Deleted{IDs: []string{"text1", "arrow3", "arrow5"}})
				wantIDs(t, b, "title", "caption", "shape2", "shape4", "?p1")
				if _, ok := b.Element("text1"); ok {
					t.Error("text1 still indexed")
				}
			},
		},
		{
			name:  "DeleteElement of an arrow leaves its ends",
			setup: addGen[:3],
			in:    whiteboard.DeleteElement{ID: "arrow3"},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				wantOutputs(t, res, whiteboard.Deleted{IDs: []string{"arrow3"}})
				wantIDs(t, b, "title", "caption", "text1", "shape2", "?p1")
			},
		},
		{
			name: "SelectElements changes no saved content",
			in:   whiteboard.SelectElements{IDs: []string{"title", "caption"}},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				if len(res.Outputs) != 0 {
					t.Errorf("selection reported %v", res.Outputs)
				}
			},
		},
		{
			name:  "ClosePlaceholders removes filled placeholders",
			setup: addGen[:1],
			in:    whiteboard.ClosePlaceholders{},
			check: func(t *testing.T, b *whiteboard.Board, res session.Result) {
				wantOutputs(t, res, whiteboard.Closed{Placeholders: []string{"p1"}})
				wantIDs(t, b, "title", "caption", "text1")
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.src
			if src == "" {
				src = leafSrc
			}
			s, b := newSession(t, src)
			for _, in := range tt.setup {
				dispatch(t, s, in)
			}
			v := s.Version()
			res := apply(t, s, b, tt.in)
			if res.Version != v+1 {
				t.Errorf("result version %d, want %d", res.Version, v+1)
			}
			tt.check(t, b, res)
			roundTrips(t, b)
		})
	}
}

// roundTrips checks that the saved board decodes again, without errors, to
// the same saved form.
func roundTrips(t *testing.T, b *whiteboard.Board) {
	t.Helper()
	out := render(t, b)
	again, _ := decode(t, out)
	if got := render(t, again); got != out {
		t.Errorf("saved board does not round-trip:\n--- saved\n%s--- reloaded\n%s", out, got)
	}
}

func wantOutputs(t *testing.T, res session.Result, want ...any) {
	t.Helper()
	if !reflect.DeepEqual(res.Outputs, want) {
		t.Errorf("outputs = %#v, want %#v", res.Outputs, want)
	}
}

func wantIDs(t *testing.T, b *whiteboard.Board, want ...string) {
	t.Helper()
	if got := ids(b); !slices.Equal(got, want) {
		t.Errorf("elements = %v, want %v", got, want)
	}
}

type foreign struct{}

func (foreign) Spec() session.Spec { return session.Spec{} }

func TestIntentsReject(t *testing.T) {
	// After setup the board holds authored title and caption, generated
	// text1, shape2 and arrow3, and the open placeholder p1.
	setup := []session.Intent{
		whiteboard.AddText{Box: box(700, 100, 300, 80), Text: "generated"},
		whiteboard.AddShape{Box: box(700, 300, 200, 100), Shape: "rect"},
		whiteboard.AddArrow{From: "text1", To: "shape2"},
	}
	const allIDs = "existing ids: arrow3, caption, shape2, text1, title"
	tests := []struct {
		name string
		in   session.Intent
		kind session.ErrorKind
		path string
		hint string // a substring of the hint
	}{
		{"empty heading", whiteboard.SetHeading{Heading: "  "}, session.KindInvalidArgs, "heading", "non-empty"},
		{"empty layout", whiteboard.SetLayout{}, session.KindInvalidArgs, "layout", "non-empty"},
		{"canvas too narrow", whiteboard.SetCanvas{Width: 50, Height: 720}, session.KindInvalidArgs, "width", "between 100 and 10000"},
		{"canvas too tall", whiteboard.SetCanvas{Width: 1280, Height: 10001}, session.KindInvalidArgs, "width", "between 100 and 10000"},
		{"empty background", whiteboard.SetBackground{Background: " "}, session.KindInvalidArgs, "background", "non-empty"},
		{"x past the right edge", whiteboard.AddText{Box: box(1281, 0, 10, 10), Text: "t"}, session.KindInvalidArgs, "x", "x must be between 0 and 1280; the canvas is 1280 wide"},
		{"negative x", whiteboard.AddText{Box: box(-1, 0, 10, 10), Text: "t"}, session.KindInvalidArgs, "x", "the canvas is 1280 wide"},
		{"y past the bottom", whiteboard.AddShape{Box: box(0, 721, 10, 10), Shape: "rect"}, session.KindInvalidArgs, "y", "y must be between 0 and 720; the canvas is 720 high"},
		{"zero width", whiteboard.AddEquation{Box: box(0, 0, 0, 10), Latex: "x"}, session.KindInvalidArgs, "w", "w must be between 1"},
		{"huge height", whiteboard.AddImage{Box: box(0, 0, 10, 10001), Description: "d", Alt: "a"}, session.KindInvalidArgs, "h", "h must be between 1"},
		{"NaN x", whiteboard.AddText{Box: box(math.NaN(), 0, 10, 10), Text: "t"}, session.KindInvalidArgs, "x", "the canvas is 1280 wide"},
		{"NaN height", whiteboard.AddText{Box: box(0, 0, 10, math.NaN()), Text: "t"}, session.KindInvalidArgs, "h", "h must be between 1"},
		{"NaN font size", whiteboard.AddText{Box: box(0, 0, 10, 10), Text: "t", Style: &whiteboard.Style{FontSize: math.NaN()}}, session.KindInvalidArgs, "style.font_size", "between 6 and 200"},
		{"move to NaN", whiteboard.MoveElement{ID: "text1", X: 1, Y: math.NaN()}, session.KindInvalidArgs, "y", "the canvas is 720 high"},
		{"empty text", whiteboard.AddText{Box: box(0, 0, 10, 10), Text: " "}, session.KindInvalidArgs, "text", "non-empty"},
		{"bad alignment", whiteboard.AddText{Box: box(0, 0, 10, 10), Text: "t", Style: &whiteboard.Style{Align: "justify"}}, session.KindInvalidArgs, "style.align", "left, center or right"},
		{"font too big", whiteboard.AddShape{Box: box(0, 0, 10, 10), Shape: "rect", Style: &whiteboard.Style{FontSize: 300}}, session.KindInvalidArgs, "style.font_size", "between 6 and 200"},
		{"unknown placeholder", whiteboard.AddText{Box: box(0, 0, 10, 10), Text: "t", Placing: whiteboard.Placing{PendingID: "p7"}}, session.KindNotFound, "pending_id", "open placeholders: p1"},
		{"unknown shape", whiteboard.AddShape{Box: box(0, 0, 10, 10), Shape: "star"}, session.KindInvalidArgs, "shape", "rect, ellipse or line"},
		{"arrow from nothing", whiteboard.AddArrow{From: "ghost", To: "title"}, session.KindNotFound, "from", allIDs},
		{"arrow to nothing", whiteboard.AddArrow{From: "title", To: "ghost"}, session.KindNotFound, "to", allIDs},
		{"arrow to itself", whiteboard.AddArrow{From: "title", To: "title"}, session.KindInvalidArgs, "to", "two different elements"},
		{"empty latex", whiteboard.AddEquation{Box: box(0, 0, 10, 10)}, session.KindInvalidArgs, "latex", "non-empty"},
		{"image without description", whiteboard.AddImage{Box: box(0, 0, 10, 10), Alt: "a"}, session.KindInvalidArgs, "description", "non-empty"},
		{"image without alt", whiteboard.AddImage{Box: box(0, 0, 10, 10), Description: "d"}, session.KindInvalidArgs, "alt", "non-empty"},
		{"update unknown", whiteboard.UpdateElement{ID: "ghost", Text: ptr("x")}, session.KindNotFound, "id", allIDs},
		{"update authored text", whiteboard.UpdateElement{ID: "title", Text: ptr("x")}, session.KindPrecondition, "text", "only the author's pending fields"},
		{"update authored style", whiteboard.UpdateElement{ID: "caption", Style: &whiteboard.Style{Bold: true}}, session.KindPrecondition, "style", "keep their style"},
		{"update a field the kind lacks", whiteboard.UpdateElement{ID: "text1", Latex: ptr("x")}, session.KindInvalidArgs, "latex", `"text1" is a text element`},
		{"update nothing", whiteboard.UpdateElement{ID: "text1"}, session.KindInvalidArgs, "", "set at least one"},
		{"update to empty", whiteboard.UpdateElement{ID: "text1", Text: ptr("")}, session.KindInvalidArgs, "text", "non-empty"},
		{"update with bad style", whiteboard.UpdateElement{ID: "text1", Style: &whiteboard.Style{Align: "up"}}, session.KindInvalidArgs, "style.align", "left, center or right"},
		// The first field would apply; the second is refused, so neither does.
		{"update half valid", whiteboard.UpdateElement{ID: "caption", Text: ptr("ok"), Style: &whiteboard.Style{Bold: true}}, session.KindPrecondition, "style", "keep their style"},
		{"update half wrong kind", whiteboard.UpdateElement{ID: "text1", Text: ptr("ok"), Alt: ptr("x")}, session.KindInvalidArgs, "alt", "is a text element"},
		{"move authored", whiteboard.MoveElement{ID: "title", X: 1, Y: 1}, session.KindPrecondition, "id", "the author's elements stay as written"},
		{"move an arrow", whiteboard.MoveElement{ID: "arrow3", X: 1, Y: 1}, session.KindPrecondition, "id", "move those instead"},
		{"move off the canvas", whiteboard.MoveElement{ID: "text1", X: 2000, Y: 1}, session.KindInvalidArgs, "x", "the canvas is 1280 wide"},
		{"move with a size of nothing", whiteboard.MoveElement{ID: "text1", X: 1, Y: 1, W: ptr(0.0)}, session.KindInvalidArgs, "w", "w must be between 1"},
		{"move unknown", whiteboard.MoveElement{ID: "ghost"}, session.KindNotFound, "id", allIDs},
		{"resize authored", whiteboard.ResizeElement{ID: "caption", W: 10, H: 10}, session.KindPrecondition, "id", "the author's elements"},
		{"resize an arrow", whiteboard.ResizeElement{ID: "arrow3", W: 10, H: 10}, session.KindPrecondition, "id", "no size of its own"},
		{"resize to nothing", whiteboard.ResizeElement{ID: "text1", W: 0, H: 10}, session.KindInvalidArgs, "w", "w must be between 1"},
		{"delete unknown", whiteboard.DeleteElement{ID: "ghost"}, session.KindNotFound, "id", allIDs},
		{"delete authored", whiteboard.DeleteElement{ID: "title"}, session.KindPrecondition, "id", "the author's elements"},
		{"select unknown", whiteboard.SelectElements{IDs: []string{"title", "ghost"}}, session.KindNotFound, "ids", allIDs},
		{"foreign intent", foreign{}, session.KindInvalidArgs, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, b := newSession(t, leafSrc)
			for _, in := range setup {
				dispatch(t, s, in)
			}
			sessiontest.Rejected(t, s, tt.in, tt.kind, tt.path, tt.hint, observe(t, b))
			// The last commit is still the one undo takes back.
			dispatch(t, s, session.Undo{})
			if _, ok := b.Element("arrow3"); ok {
				t.Errorf("undo after a rejection did not undo the last real change")
			}
		})
	}
}

func TestEmptyBoardNotFoundHint(t *testing.T) {
	s, _ := newSession(t, "heading: H\n")
	_, err := s.Dispatch(context.Background(), whiteboard.DeleteElement{ID: "x"})
	if e, ok := session.AsError(err); !ok || e.Hint != "the whiteboard has no elements yet" {
		t.Errorf("err = %v", err)
	}
	_, err = s.Dispatch(context.Background(), whiteboard.AddText{Box: box(0, 0, 1, 1), Text: "t", Placing: whiteboard.Placing{PendingID: "p1"}})
	if e, ok := session.AsError(err); !ok || e.Kind != session.KindNotFound || !strings.Contains(e.Hint, "no placeholders") {
		t.Errorf("err = %v", err)
	}
}

// The hint a model reads names the range the check applies, the one the
// schema declares (it once said "between 1 and 1280" while checking 10000).
func TestSizeHintNamesTheCheckedRange(t *testing.T) {
	s, _ := newSession(t, "heading: H\n")
	_, err := s.Dispatch(context.Background(), whiteboard.AddText{Box: box(10, 10, 20000, 40), Text: "wide"})
	e, ok := session.AsError(err)
	if !ok || e.Path != "w" || e.Hint != "w must be between 1 and 10000" {
		t.Fatalf("got %v", err)
	}
}

func TestRejectionsOnALargerCanvasNameItsSize(t *testing.T) {
	s, _ := newSession(t, "canvas: {width: 1920, height: 1080}\n")
	_, err := s.Dispatch(context.Background(), whiteboard.AddText{Box: box(1500, 1100, 10, 10), Text: "t"})
	if e, ok := session.AsError(err); !ok || e.Path != "y" || e.Hint != "y must be between 0 and 1080; the canvas is 1080 high" {
		t.Errorf("err = %v", err)
	}
}

func TestUnprotectedBoardEditsAuthoredElements(t *testing.T) {
	s, b := newSession(t, leafSrc)
	b.Protect = false
	apply(t, s, b, whiteboard.MoveElement{ID: "title", X: 10, Y: 10})
	apply(t, s, b, whiteboard.UpdateElement{ID: "title", Text: ptr("A green leaf"), Style: &whiteboard.Style{Bold: true}})
	apply(t, s, b, whiteboard.DeleteElement{ID: "caption"})
	wantIDs(t, b, "title", "?p1")
	if e := element(t, b, "title"); e.X != 10 || e.Text.Value != "A green leaf" {
		t.Errorf("title = %+v", e)
	}
}

// An author's arrow may point at an element that generation is expected to
// add; once added, that element cannot be deleted from under the arrow.
func TestAuthoredArrowKeepsItsEnds(t *testing.T) {
	src := `elements:
  - {id: title, type: text, text: Leaf, x: 0, y: 0, w: 100, h: 40}
  - {id: link, type: arrow, from: title, to: text1}
  - !pending "the thing the arrow points at"
`
	s, b := newSession(t, src)
	res := dispatch(t, s, whiteboard.AddText{Box: box(400, 0, 100, 40), Text: "target"})
	wantOutputs(t, res, whiteboard.Added{ID: "text1", Type: whiteboard.KindText, PendingID: "p1"})
	if len(res.Warnings) != 0 {
		t.Errorf("the arrow's end exists now, yet: %v", res.Warnings)
	}
	_, err := s.Dispatch(context.Background(), whiteboard.DeleteElement{ID: "text1"})
	if e, ok := session.AsError(err); !ok || e.Kind != session.KindPrecondition || !strings.Contains(e.Hint, "link") {
		t.Fatalf("err = %v, want a precondition naming the author's arrow", err)
	}
	wantIDs(t, b, "title", "link", "text1", "?p1")
}

func TestReadOnlyIntentsReport(t *testing.T) {
	s, b := newSession(t, leafSrc)
	res := dispatch(t, s, whiteboard.DescribeWhiteboard{})
	wantOutputs(t, res, b.Review())
	res = dispatch(t, s, whiteboard.ListPending{})
	wantOutputs(t, res, b.Pending())
	if s.Version() != 0 {
		t.Errorf("read-only intents committed: version %d", s.Version())
	}
}

// Every intent in the closed set is one the board knows how to apply: a zero
// value may be refused as invalid, never as foreign.
func TestEveryIntentIsHandled(t *testing.T) {
	for _, in := range whiteboard.Intents() {
		sp := in.Spec()
		if sp.Doc == "" || sp.Capability == "" {
			t.Errorf("%T: spec lacks a doc or capability: %+v", in, sp)
		}
		switch in.(type) {
		case session.Undo, session.Redo:
			continue
		}
		s, _ := newSession(t, leafSrc)
		_, err := s.Dispatch(context.Background(), in)
		if err != nil && strings.Contains(err.Error(), "cannot apply") {
			t.Errorf("%T: %v", in, err)
		}
	}
}

func TestTypedNilStyleIsIgnored(t *testing.T) {
	s, b := newSession(t, leafSrc)
	apply(t, s, b, whiteboard.AddText{Box: box(0, 200, 10, 10), Text: "t", Style: nil})
	if e := element(t, b, "text1"); e.Style != nil {
		t.Errorf("style = %+v", e.Style)
	}
}

// What the author wrote in a board's metadata stays as written while the
// board is protected; what generation set may be set again.
func TestAuthoredMetadataIsKept(t *testing.T) {
	const src = "canvas: {width: 1280, height: 720}\nheading: Parts of a leaf\nlayout: diagram left\n"
	for _, in := range []session.Intent{
		whiteboard.SetHeading{Heading: "x"},
		whiteboard.SetLayout{Layout: "x"},
		whiteboard.SetCanvas{Width: 800, Height: 600},
		whiteboard.SetBackground{Background: "white"},
	} {
		s, b := newSession(t, src)
		before := look(t, b)
		_, err := s.Dispatch(context.Background(), in)
		if e, ok := session.AsError(err); !ok || e.Kind != session.KindPrecondition {
			t.Errorf("%T on authored metadata: %v, want a precondition", in, err)
		}
		look(t, b).diff(t, "after a refusal", before)

		b.Protect = false
		apply(t, s, b, in)
	}
}

func TestApplyBinding(t *testing.T) {
	s, b := newSession(t, "heading: !pending\nlayout: written\n")
	res := apply(t, s, b, whiteboard.ApplyBinding{Property: "heading", Value: "Bound"})
	wantOutputs(t, res, whiteboard.Set{Field: "heading", Value: "Bound"})
	if b.Heading.Value != "Bound" {
		t.Errorf("heading = %+v", b.Heading)
	}
	// A set property is left alone, silently.
	res = dispatch(t, s, whiteboard.ApplyBinding{Property: "layout", Value: "bound"})
	if len(res.Outputs) != 0 || b.Layout.Value != "written" {
		t.Errorf("a binding overwrote a written layout: %+v", b.Layout)
	}
	// A bound value counts as given: generation does not overwrite it.
	if _, err := s.Dispatch(context.Background(), whiteboard.SetHeading{Heading: "Generated"}); err == nil {
		t.Error("generation overwrote a bound heading")
	}
	_, err := s.Dispatch(context.Background(), whiteboard.ApplyBinding{Property: "colour", Value: "red"})
	if e, ok := session.AsError(err); !ok || e.Kind != session.KindInvalidArgs || e.Path != "property" {
		t.Errorf("unknown property: %v", err)
	}
}

// On a crowded board a not-found hint names some ids, not all.
func TestNotFoundHintIsBounded(t *testing.T) {
	var src strings.Builder
	src.WriteString("elements:\n")
	for i := range 40 {
		fmt.Fprintf(&src, "  - {id: e%02d, type: text, text: T, x: %d, y: 0, w: 10, h: 10}\n", i, i*20)
	}
	s, _ := newSession(t, src.String())
	_, err := s.Dispatch(context.Background(), whiteboard.MoveElement{ID: "nope", X: 1, Y: 1})
	e, ok := session.AsError(err)
	if !ok || !strings.HasPrefix(e.Hint, "existing ids: e00, e01,") || !strings.HasSuffix(e.Hint, "e29, …") {
		t.Errorf("got %v", err)
	}
}

// A bound property is the binding's, not the file's: it is saved as the
// file had it, and a later binding (a changed lesson title) replaces it.
func TestBindingsAreNotFrozen(t *testing.T) {
	s, b := newSession(t, "layout: one column\nelements: []\n")
	dispatch(t, s, whiteboard.ApplyBinding{Property: "heading", Value: "Leaves — Why green?"})
	if b.Heading.Value != "Leaves — Why green?" {
		t.Fatalf("heading = %q, want the bound value", b.Heading.Value)
	}
	if out := render(t, b); strings.Contains(out, "heading") {
		t.Errorf("the bound heading was frozen into the file:\n%s", out)
	}
	dispatch(t, s, whiteboard.ApplyBinding{Property: "heading", Value: "Plants — Why green?"})
	if b.Heading.Value != "Plants — Why green?" {
		t.Errorf("heading = %q after the title changed, want the new value", b.Heading.Value)
	}
	// A model still cannot overwrite it.
	if _, err := s.Dispatch(context.Background(), whiteboard.SetHeading{Heading: "mine"}); err == nil {
		t.Error("a model overwrote a bound heading")
	}
	// The author's own heading wins over a binding, and is saved.
	s, b = newSession(t, "heading: Mine\nelements: []\n")
	dispatch(t, s, whiteboard.ApplyBinding{Property: "heading", Value: "bound"})
	if out := render(t, b); b.Heading.Value != "Mine" || !strings.Contains(out, "heading: Mine") {
		t.Errorf("author's heading lost: %q\n%s", b.Heading.Value, out)
	}
}

// A model cannot shrink a canvas below what its elements need, nor change
// one the author sized.
func TestCanvasPreconditions(t *testing.T) {
	s, _ := newSession(t, "canvas: !pending\nelements:\n  - {id: a, type: text, text: A, x: 600, y: 300, w: 200, h: 40}\n")
	_, err := s.Dispatch(context.Background(), whiteboard.SetCanvas{Width: 174, Height: 145})
	if e, ok := session.AsError(err); !ok || e.Kind != session.KindPrecondition || !strings.Contains(e.Hint, "at least 800x340") {
		t.Errorf("shrinking below the elements: err = %v, want a precondition naming 800x340", err)
	}
	dispatch(t, s, whiteboard.SetCanvas{Width: 800, Height: 340})
	s, _ = newSession(t, "canvas: {width: 1024, height: 768}\nelements: []\n")
	_, err = s.Dispatch(context.Background(), whiteboard.SetCanvas{Width: 1280, Height: 720})
	if e, ok := session.AsError(err); !ok || e.Kind != session.KindPrecondition {
		t.Errorf("changing the author's canvas: err = %v, want a precondition", err)
	}
}
