package quiz

import (
	"fmt"
	"hash/fnv"
	"html"
	"math/rand/v2"
	"strings"
)

// drawQuestion writes what students see of a question after its prompt
// (its face) and returns its answer key, as HTML, which only the notes show.
func drawQuestion(b *strings.Builder, qu *Question, shuffle bool) (keyLines, at, reveal []string) {
	f := faceOf(qu, shuffle)
	if len(f.options) > 0 || qu.kind() == TypeChoice {
		class := "options"
		if qu.kind() == TypeOrder {
			class = "order-items"
		}
		// The list's type is its first label: a browser numbers on from it.
		fmt.Fprintf(b, "<ol class=\"%s\" type=\"%s\">", class, OptionLabel(0))
		for _, o := range f.options {
			fmt.Fprintf(b, "<li>%s</li>", html.EscapeString(o))
		}
		for _, p := range f.pending {
			fmt.Fprintf(b, "<li class=\"pending\">pending %s%s</li>", p.name, hintSuffix(p.hint))
		}
		b.WriteString("</ol>")
	} else {
		for _, p := range f.pending {
			fmt.Fprintf(b, "<p class=\"pending\">pending %s%s</p>", p.name, hintSuffix(p.hint))
		}
	}
	if len(f.left) > 0 {
		b.WriteString("<div class=\"match\" style=\"display:flex;gap:2em\">")
		writeList(b, "match-left", "1", f.left)
		writeList(b, "match-right", OptionLabel(0), f.right)
		b.WriteString("</div>")
	}
	if f.write {
		drawSpace(b, qu.kind(), f)
	}
	for _, k := range f.key {
		keyLines = append(keyLines, html.EscapeString(k))
	}
	for _, r := range f.reveal {
		reveal = append(reveal, html.EscapeString(r))
	}
	return keyLines, f.at, reveal
}

func writeList(b *strings.Builder, class, typ string, items []string) {
	fmt.Fprintf(b, "<ol class=\"%s\" type=\"%s\">", class, typ)
	for _, it := range items {
		fmt.Fprintf(b, "<li>%s</li>", html.EscapeString(it))
	}
	b.WriteString("</ol>")
}

// drawSpace is the space students write in, drawn alike in every HTML copy
// (and Marp's) without a stylesheet of its own: a box for a short answer,
// taller for more marks; a line for a number, with its unit.
func drawSpace(b *strings.Builder, kind string, f face) {
	if kind == TypeNumeric {
		unit := ""
		if f.unit != "" {
			unit = " " + html.EscapeString(f.unit)
		}
		fmt.Fprintf(b, "<p class=\"answer-line\">Answer: <span class=\"answer-space\" style=\"display:inline-block;min-width:8em;border-bottom:1px solid #4a5561\">&nbsp;</span>%s</p>", unit)
		return
	}
	if f.marks > 0 {
		fmt.Fprintf(b, "<p class=\"marks\">(%s)</p>", plural(f.marks, "mark"))
	}
	lines := max(2, f.marks+1)
	fmt.Fprintf(b, "<div class=\"answer-space\" style=\"min-height:%.1fem;border:1px solid #8a96a3;border-radius:4px;margin:4px 0 8px\"></div>", 1.6*float64(lines))
}

// drawHint writes the question's hint for students, or its pending spot.
func drawHint(b *strings.Builder, qu *Question) {
	switch {
	case qu.PupilHint.Set:
		fmt.Fprintf(b, "<p class=\"hint\"><em>Hint:</em> %s</p>", html.EscapeString(qu.PupilHint.Value))
	case qu.PupilHint.Pending:
		fmt.Fprintf(b, "<p class=\"pending\">pending hint%s</p>", hintSuffix(qu.PupilHint.Hint))
	}
}

// scramble is the order n items are shown in: a shuffle seeded by the
// question's id, the same on every run and in every output, and never the
// correct order itself (that would give the answer away).
func scramble(id string, n int) []int {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	seeded(id).Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	if n > 1 && sorted(perm) {
		perm = append(perm[1:], perm[0])
	}
	return perm
}

// seeded is the random source of question id's shuffles.
func seeded(id string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(id))
	seed := h.Sum64()
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

func sorted(perm []int) bool {
	for i, p := range perm {
		if p != i {
			return false
		}
	}
	return true
}
