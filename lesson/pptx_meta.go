package lesson

import (
	"fmt"
	"strings"

	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/internal/yamlsrc"
)

// overviewList adds a heading and its items (or the pending hint) to out;
// nothing when there is nothing to say.
func overviewList(out *[]pptx.Para, title string, pending bool, hint string, items []string) {
	if !pending && len(items) == 0 && hint == "" {
		return
	}
	*out = append(*out, pptx.Text(title, 20, true, pptx.RGB("1F3A5F")))
	bullet := func(s string, c pptx.Color) pptx.Para {
		return pptx.Para{Runs: []pptx.Run{{Text: s, Size: 16, Color: c}}, Bullet: "•"}
	}
	if pending || (len(items) == 0 && hint != "") {
		*out = append(*out, bullet(pendingText(strings.ToLower(title), hint), pptx.RGB("7A4A00")))
		return
	}
	for _, it := range items {
		*out = append(*out, bullet(it, pptx.Color{}))
	}
}

// overviewShapes lays out the overview slide: two columns, and the
// licence and credit (with the link) along the foot when there are any.
func overviewShapes(frame pptx.Box, left, right []pptx.Para, terms []string, link string) []pptx.Shape {
	gap := frame.W / 40
	half := (frame.W - gap) / 2
	h := frame.H
	var foot []pptx.Para
	for _, t := range terms {
		foot = append(foot, pptx.Text(t, 12, false, pptx.RGB("4A5560")))
	}
	if link != "" && len(foot) > 0 {
		foot[len(foot)-1].Runs = append(foot[len(foot)-1].Runs, pptx.Run{Text: " (" + link + ")", Size: 12, Color: pptx.RGB("4A5560")})
	}
	footH := frame.H / 8
	if len(foot) > 0 {
		h -= footH
	}
	shapes := []pptx.Shape{
		&pptx.Sp{Name: "overview", Box: pptx.Box{X: frame.X, Y: frame.Y, W: half, H: h}, Paras: left, Shrink: true},
		&pptx.Sp{Name: "overview words", Box: pptx.Box{X: frame.X + half + gap, Y: frame.Y, W: half, H: h}, Paras: right, Shrink: true},
	}
	if len(foot) > 0 {
		shapes = append(shapes, &pptx.Sp{Name: "licence and credit", Box: pptx.Box{X: frame.X, Y: frame.Y + h, W: frame.W, H: footH}, Paras: foot, Shrink: true})
	}
	return shapes
}

func itemTexts(f yamlsrc.Field[[]Item]) []string {
	var out []string
	for _, it := range f.Value {
		out = append(out, it.Text)
	}
	return out
}

// sectionTexts is each learning cycle as one line: name, minutes, outcome.
func sectionTexts(list []Section) []string {
	var out []string
	for _, s := range list {
		if s.IsPlaceholder {
			out = append(out, pendingText("sections", s.Hint))
			continue
		}
		line := s.Name
		switch {
		case s.DurationMinutes.Set:
			line += fmt.Sprintf(" (%d min)", s.DurationMinutes.Value)
		case s.DurationMinutes.Pending:
			line += " (" + pendingText("minutes", s.DurationMinutes.Hint) + ")"
		}
		if s.Outcome.Set || s.Outcome.Pending {
			line += ": " + plain(s.Outcome)
		}
		out = append(out, line)
	}
	return out
}

// misconceptionTexts is each misconception with the teacher's response.
func misconceptionTexts(list []Misconception) []string {
	var out []string
	for _, mc := range list {
		s := mc.Misconception + " → "
		if hint, ok := mc.PendingResponse(); ok {
			s += pendingText("response", hint)
		} else {
			s += mc.Response
		}
		out = append(out, s)
	}
	return out
}
