package activity

import (
	"fmt"
	"strings"

	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/modality"
)

// RenderPPTX draws the activity for a PowerPoint deck: one text box filling
// frame with what Render puts in Body; the model answer goes to Key (the
// notes and the answers slide of the teacher's copy), never on the slide.
func RenderPPTX(a *Activity, _ map[string]string, frame pptx.Box) modality.PPTXRendered {
	grey, amber := pptx.RGB("4A5560"), pptx.RGB("7A4A00")
	var ps []pptx.Para
	line := func(s string, size float64, bold bool, c pptx.Color) { ps = append(ps, pptx.Text(s, size, bold, c)) }
	meta := []string{"ACTIVITY"}
	if g, ok := a.Grouping.Get(); ok {
		meta = append(meta, strings.ToUpper(g))
	}
	if d, ok := a.DurationMinutes.Get(); ok {
		meta = append(meta, fmt.Sprintf("%d MIN", d))
	}
	line(strings.Join(meta, " · "), 14, true, grey)
	switch {
	case a.Instructions.Set:
		line(a.Instructions.Value, 22, false, pptx.Color{})
	case a.Instructions.Pending:
		line("pending instructions"+hint(a.Instructions.Hint), 22, false, amber)
	}
	if a.SuccessCriteria.Pending || len(a.SuccessCriteria.Value) > 0 {
		line("Success criteria", 18, true, grey)
	}
	if a.SuccessCriteria.Pending {
		ps = append(ps, pptx.Para{Runs: []pptx.Run{{Text: "pending success criteria" + hint(a.SuccessCriteria.Hint), Size: 18, Color: amber}}, Bullet: "•"})
	}
	for _, c := range a.SuccessCriteria.Value {
		run := pptx.Run{Text: c.Text, Size: 18}
		if c.IsPlaceholder {
			run = pptx.Run{Text: "pending success criteria" + hint(c.Hint), Size: 18, Color: amber}
		}
		ps = append(ps, pptx.Para{Runs: []pptx.Run{run}, Bullet: "•"})
	}
	for _, f := range []struct {
		label string
		set   bool
		v     string
		pend  bool
		h     string
	}{{"Support", a.Support.Set, a.Support.Value, a.Support.Pending, a.Support.Hint}, {"Stretch", a.Stretch.Set, a.Stretch.Value, a.Stretch.Pending, a.Stretch.Hint}} {
		switch {
		case f.set:
			ps = append(ps, pptx.Para{Runs: []pptx.Run{{Text: f.label + ": ", Size: 18, Bold: true}, {Text: f.v, Size: 18}}})
		case f.pend:
			line(f.label+": pending "+strings.ToLower(f.label)+hint(f.h), 18, false, amber)
		}
	}
	out := modality.PPTXRendered{Shapes: []pptx.Shape{&pptx.Sp{Name: "activity", Box: frame, Paras: ps, Shrink: true}}}
	switch {
	case a.ModelAnswer.Set:
		out.Key = []pptx.Para{pptx.Text("Model answer: "+a.ModelAnswer.Value, 0, false, pptx.Color{})}
	case a.ModelAnswer.Pending:
		out.Key = []pptx.Para{pptx.Text("Model answer: pending"+hint(a.ModelAnswer.Hint), 0, false, pptx.Color{})}
	}
	return out
}

func hint(h string) string {
	if h == "" {
		return ""
	}
	return ": " + h
}
