package quiz

import (
	"fmt"
	"strings"

	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/modality"
)

// RenderPPTX draws the quiz for a PowerPoint deck: one text box filling
// frame with its kind and instructions, then numbered questions with
// lettered options in the order the HTML shows them (Shown); the answer
// key and feedback go to Key (the notes and the answers slide of the
// teacher's copy), never on the slide. Pending spots show their hints.
func RenderPPTX(q *Quiz, bound map[string]string, frame pptx.Box) modality.PPTXRendered {
	var out modality.PPTXRendered
	var ps []pptx.Para
	grey, amber := pptx.RGB("4A5560"), pptx.RGB("7A4A00")
	line := func(s string, size float64, bold bool, c pptx.Color) { ps = append(ps, pptx.Text(s, size, bold, c)) }
	kind := q.Kind.Value
	if !q.Kind.Set {
		kind = bound["kind"]
	}
	if kind != "" {
		line(strings.ToUpper(kind), 14, true, grey)
	}
	instr := q.Instructions.Value
	if !q.Instructions.Set {
		instr = bound["instructions"]
	}
	switch {
	case instr != "":
		line(instr, 18, false, grey)
	case q.Instructions.Pending:
		line("pending instructions"+hint(q.Instructions.Hint), 18, false, amber)
	}
	if q.Questions.Pending {
		line("pending questions"+hint(q.Questions.Hint), 20, false, amber)
	}
	n := 0
	for _, qu := range q.questions() {
		if qu.IsPlaceholder {
			ps = append(ps, pptx.Para{Runs: []pptx.Run{{Text: "pending question" + hint(qu.Hint), Size: 20, Color: amber}}, Bullet: "•"})
			continue
		}
		n++
		prompt := pptx.Run{Text: qu.Prompt.Value, Size: 22}
		if qu.Prompt.Pending {
			prompt = pptx.Run{Text: "pending prompt" + hint(qu.Prompt.Hint), Size: 22, Color: amber}
		}
		// Numbered by hand, not by the viewer: a pending question between
		// two must not shift the numbers the answer key uses.
		ps = append(ps, pptx.Para{Runs: []pptx.Run{{Text: fmt.Sprintf("%d. ", n), Size: 22, Bold: true}, prompt}})
		f := faceOf(qu, q.Shuffle)
		ps = append(ps, faceParas(f, amber)...)
		if qu.PupilHint.Set {
			ps = append(ps, pptx.Para{Runs: []pptx.Run{{Text: "Hint: " + qu.PupilHint.Value, Size: 16, Italic: true, Color: grey}}, Level: 1})
		}
		k := fmt.Sprintf("%d. %s", n, strings.Join(f.key, "; "))
		switch {
		case qu.Feedback.Set:
			k += " — " + qu.Feedback.Value
		case qu.Feedback.Pending:
			k += " — pending feedback" + hint(qu.Feedback.Hint)
		}
		out.Key = append(out.Key, pptx.Text(k, 0, false, pptx.Color{}))
		if len(qu.Sources) > 0 {
			out.Notes = append(out.Notes, pptx.Text(fmt.Sprintf("Quiz sources: question %s: %s", qu.ID, strings.Join(qu.Sources, ", ")), 0, false, pptx.Color{}))
		}
	}
	out.Shapes = []pptx.Shape{&pptx.Sp{Name: "quiz", Box: frame, Paras: ps, Shrink: true}}
	return out
}

func hint(h string) string {
	if h == "" {
		return ""
	}
	return ": " + h
}

// faceParas draws a question's face (faceOf) as the lines under its
// prompt: lettered options, a match's pairs of columns side by side, a
// line to write on; pending parts in amber.
func faceParas(f face, amber pptx.Color) []pptx.Para {
	var ps []pptx.Para
	line := func(s string, c pptx.Color) {
		ps = append(ps, pptx.Para{Runs: []pptx.Run{{Text: s, Size: 18, Color: c}}, Level: 1})
	}
	for i, o := range f.options {
		line(OptionLabel(i)+". "+o, pptx.Color{})
	}
	// A text box has no columns: each row sets a left item beside a
	// right one, which is as much a two-column layout as one box allows.
	for i := range f.left {
		line(fmt.Sprintf("%d. %s\u2003\u2003\u2003%s. %s", i+1, f.left[i], OptionLabel(i), f.right[i]), pptx.Color{})
	}
	if f.write {
		space := "Answer: ____________________"
		if f.unit != "" {
			space += " " + f.unit
		}
		if f.marks > 0 {
			space += fmt.Sprintf(" (%s)", plural(f.marks, "mark"))
		}
		line(space, pptx.Color{})
	}
	for _, p := range f.pending {
		line("pending "+p.name+hint(p.hint), amber)
	}
	return ps
}
