package quiz

import (
	"fmt"
	"strconv"
	"strings"
)

// face is what one question shows and what its answer key says, in plain
// text, whatever draws it: render.go draws it as HTML (and so Markdown),
// pptx.go in a PowerPoint text box. Deciding it once keeps the orders the
// slide shows and the letters the key names the same in every output.
type face struct {
	// options are the lettered lines students choose from or put in
	// order (choice, true/false, order).
	options []string
	// left and right are a match question's columns, right as shown.
	left, right []string
	// write: students write the answer (short, numeric); marks and unit
	// go beside the space.
	write bool
	marks int
	unit  string
	// pending names the parts of the question still to be generated,
	// with their hints, in the order they stand on the slide.
	pending []pendingSpot
	// key is the answer key's parts; at the 1-based places of the right
	// options, for the reveal in present mode.
	key, at []string
	// reveal is what present mode shows the class on a question whose
	// answer is not an option to mark (short, numeric, order, match):
	// the answer itself, without the key's whys and feedback.
	reveal []string
}

type pendingSpot struct{ name, hint string }

// addKey appends a part to the key, with why after it when there is one.
func (f *face) addKey(text, why string) {
	if why != "" {
		text += " (" + why + ")"
	}
	f.key = append(f.key, text)
}

// pendingIf notes a part still to be generated, for the slide or the key.
func (f *face) pendingIf(pending bool, name, hint string) {
	if pending {
		f.pending = append(f.pending, pendingSpot{name, hint})
	}
}

// faceOf decides what qu shows and what its key says.
func faceOf(qu *Question, shuffle bool) face {
	var f face
	switch qu.kind() {
	case TypeTrueFalse:
		f.trueFalse(qu)
	case TypeShort:
		f.short(qu)
	case TypeNumeric:
		f.numeric(qu)
	case TypeOrder:
		f.order(qu)
	case TypeMatch:
		f.match(qu)
	default:
		f.choice(qu, shuffle)
	}
	return f
}

func (f *face) choice(qu *Question, shuffle bool) {
	var wrong []string
	for i, o := range Shown(qu, shuffle) {
		f.options = append(f.options, o.Text)
		label := OptionLabel(i) + ". " + o.Text
		if o.Correct {
			f.addKey(label, o.Why)
			f.at = append(f.at, strconv.Itoa(i+1))
		} else if o.Why != "" {
			wrong = append(wrong, label+" is wrong: "+o.Why)
		}
	}
	f.key = append(f.key, wrong...)
	f.pendingIf(qu.Answers.Pending, "answers", qu.Answers.Hint)
	f.pendingIf(qu.Distractors.Pending, "distractors", qu.Distractors.Hint)
}

func (f *face) trueFalse(qu *Question) {
	f.options = []string{"True", "False"}
	if v, ok := qu.Answer.Value.Bool(); ok {
		i := 1
		if v {
			i = 0
		}
		f.addKey(OptionLabel(i)+". "+f.options[i], qu.Why.Value)
		f.at = []string{strconv.Itoa(i + 1)}
	}
	// The answer's hint speaks of the answer: the key's, as a number's.
	f.pendingKey(qu.Answer.Pending, "answer", qu.Answer.Hint)
	f.pendingKey(qu.Why.Pending, "why", qu.Why.Hint)
}

// pendingKey notes a pending part of the key: the notes show it, never the
// slide.
func (f *face) pendingKey(pending bool, name, hint string) {
	if pending {
		f.key = append(f.key, "pending "+name+plainHint(hint))
	}
}

func (f *face) short(qu *Question) {
	f.write, f.marks = true, qu.Marks.Value
	if qu.ModelAnswer.Set {
		f.key = append(f.key, "Model answer: "+qu.ModelAnswer.Value)
		f.reveal = []string{qu.ModelAnswer.Value}
	}
	f.pendingKey(qu.ModelAnswer.Pending, "model answer", qu.ModelAnswer.Hint)
	f.pendingIf(qu.Marks.Pending, "marks", qu.Marks.Hint)
}

func (f *face) numeric(qu *Question) {
	f.write, f.unit = true, qu.Unit.Value
	unit := ""
	if f.unit != "" {
		unit = " " + f.unit
	}
	if qu.Answer.Set {
		a := qu.Answer.Value.Raw
		if t, ok := qu.Tolerance.Value.Number(); ok && t > 0 {
			a += " ± " + qu.Tolerance.Value.Raw
		}
		f.key = append(f.key, a+unit)
		f.reveal = []string{a + unit}
	}
	f.pendingKey(qu.Answer.Pending, "answer", qu.Answer.Hint)
	f.pendingKey(qu.Tolerance.Pending, "tolerance", qu.Tolerance.Hint)
	f.pendingIf(qu.Unit.Pending, "unit", qu.Unit.Hint)
}

func (f *face) order(qu *Question) {
	f.pendingIf(qu.Items.Pending, "items", qu.Items.Hint)
	items := qu.Items.Value
	perm := scramble(qu.ID, len(items))
	place := make([]int, len(perm)) // an item's index → its place shown
	for shown, i := range perm {
		f.options = append(f.options, items[i])
		place[i] = shown
	}
	var order []string
	for i, it := range items {
		order = append(order, OptionLabel(place[i])+". "+it)
	}
	f.reveal = order
	if len(order) > 0 {
		f.key = append(f.key, "In order: "+strings.Join(order, ", "))
	}
}

func (f *face) match(qu *Question) {
	f.pendingIf(qu.Pairs.Pending, "pairs", qu.Pairs.Hint)
	pairs := qu.Pairs.Value
	perm := scramble(qu.ID, len(pairs))
	place := make([]int, len(perm))
	for shown, i := range perm {
		f.right = append(f.right, pairs[i].Right)
		place[i] = shown
	}
	for i, p := range pairs {
		f.left = append(f.left, p.Left)
		f.key = append(f.key, fmt.Sprintf("%d–%s (%s → %s)", i+1, OptionLabel(place[i]), p.Left, p.Right))
		f.reveal = append(f.reveal, fmt.Sprintf("%d. %s → %s. %s", i+1, p.Left, OptionLabel(place[i]), p.Right))
	}
}

func plainHint(h string) string {
	if h == "" {
		return ""
	}
	return ": " + h
}

// Seen lists the text students see of a question below its prompt, in
// every output: its options or items as shown, a match's columns, its
// unit and its hint; never a part of the answer key.
func Seen(qu *Question, shuffle bool) []string {
	f := faceOf(qu, shuffle)
	out := append(append(append([]string{}, f.options...), f.left...), f.right...)
	if f.unit != "" {
		out = append(out, f.unit)
	}
	if qu.PupilHint.Set {
		out = append(out, qu.PupilHint.Value)
	}
	return out
}

// Key lists the question's answer key parts as the notes give them.
func Key(qu *Question, shuffle bool) []string { return faceOf(qu, shuffle).key }
