package whiteboard_test

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/sessiontest"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

// An equation at a bound is translated; one past it is drawn as written,
// with a warning at its line that names the bound.
func TestEquationBounds(t *testing.T) {
	long := func(n int) string { return strings.Repeat("a", n) }
	for _, c := range []struct {
		name, latex string
		past        string // a substring of the warning, "" for none
	}{
		{"deepest nesting", nestedLatex(whiteboard.MaxLatexDepth), ""},
		{"one level deeper", nestedLatex(whiteboard.MaxLatexDepth + 1), "nests {…} 17 deep, over the 16"},
		{"longest", long(whiteboard.MaxLatexLength), ""},
		{"one character longer", long(whiteboard.MaxLatexLength + 1), "is 1001 characters long, over the 1000"},
		{"longest in any script", strings.Repeat("π", whiteboard.MaxLatexLength), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, warns := equationBoard(t, c.latex)
			var got []string
			for _, w := range warns {
				if strings.Contains(w.Message, "LaTeX") {
					got = append(got, w.String())
				}
			}
			svg := whiteboard.Render(b, nil).Body
			fellBack := strings.Contains(svg, `class="equation-source"`)
			if c.past == "" {
				if len(got) != 0 || fellBack {
					t.Errorf("within the bounds: warnings %q, drawn as source %v", got, fellBack)
				}
				return
			}
			if len(got) != 1 || !strings.Contains(got[0], c.past) || !strings.Contains(got[0], "board.yaml:2:5:") || !strings.Contains(got[0], "drawn as written") {
				t.Errorf("warnings %q, want one at board.yaml:2:5 saying %q", got, c.past)
			}
			if !fellBack || !strings.Contains(svg, c.latex[:40]) {
				t.Errorf("past a bound the equation is not drawn as its source:\n%.400s", svg)
			}
		})
	}
}

// A 100 KB equation of nested ^{…} (what a model can send, or an author
// write) renders as its source within a small memory budget; the old
// translator spent gigabytes on it.
func TestHugeNestedEquationIsCheap(t *testing.T) {
	src := nestedLatex(25_000) // 100 KB
	b, _ := equationBoard(t, src)
	allocs := testing.AllocsPerRun(3, func() { whiteboard.Render(b, nil) })
	if allocs > 20_000 {
		t.Errorf("rendering a 100 KB nested equation made %.0f allocations, want at most 20000", allocs)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	svg := whiteboard.Render(b, nil).Body
	runtime.ReadMemStats(&after)
	n := after.TotalAlloc - before.TotalAlloc
	if n > 32<<20 {
		t.Errorf("rendering a 100 KB nested equation allocated %d MB, want at most 32", n>>20)
	}
	t.Logf("100 KB nested equation: %.0f allocations, %d kB allocated", allocs, n>>10)
	if !strings.Contains(svg, `class="equation-source"`) {
		t.Error("the 100 KB equation is not drawn as its source")
	}
}

// A model that sends an equation past a bound is told which one, and can
// fix it: add_equation and update_element are refused as invalid_args.
func TestEquationBoundsAtDispatch(t *testing.T) {
	s, b := newSession(t, "elements: []\n")
	deep := nestedLatex(whiteboard.MaxLatexDepth + 1)
	sessiontest.Rejected(t, s, whiteboard.AddEquation{Box: box(40, 40, 600, 120), Latex: deep}, session.KindInvalidArgs, "latex", "within 1000 characters and 16 levels", observe(t, b))
	add := whiteboard.AddEquation{Box: box(40, 40, 600, 120), Latex: nestedLatex(whiteboard.MaxLatexDepth)}
	add.ID = "eq"
	dispatch(t, s, add)
	sessiontest.Rejected(t, s, whiteboard.UpdateElement{ID: "eq", Latex: ptr(strings.Repeat("x", whiteboard.MaxLatexLength+1))}, session.KindInvalidArgs, "latex", "within 1000 characters", observe(t, b))
	_, err := s.Dispatch(context.Background(), whiteboard.UpdateElement{ID: "eq", Latex: &deep})
	if e, ok := session.AsError(err); !ok || !strings.Contains(e.Message, "nests {…} 17 deep, over the 16 an equation may have") {
		t.Errorf("update to a deep equation: %v, want a message naming the bound", err)
	}
}
