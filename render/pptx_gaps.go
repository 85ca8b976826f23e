package render

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/whiteboard"
)

// The pending spots as the modalities' PPTX hooks draw them (the deck's
// counterpart of the HTML's class="pending"): a placeholder box, amber
// fill with a dashed amber frame, holding "pending what: hint"
// (whiteboard's placeholder, render's pendingSlide); a run, or the end
// of one, reading "pending what: hint" (quiz, activity, lesson's
// pendingText: alone, or after "Label: " or " — "); a picture's
// "(pending: hint)" alt text or caption (whiteboard's fieldText); a
// shape's or an arrow's label opening with whiteboard.PendingLabel; a
// quiz's pending question, a bullet among its numbered questions.
var (
	pendingFill  = pptx.RGB("FFF8E6")
	pendingLine  = pptx.RGB("B7791F")
	pendingParen = regexp.MustCompile(`\(pending(: [^)]*)?\)`)
	pendingTail  = regexp.MustCompile(`(?s)(^|: |— )pending\b.*$`)
	questionNum  = regexp.MustCompile(`^\d+\. $`)
)

// gapText is a gap in a line of text: a line to write on, as the HTML's
// .gap, which prints in every viewer (an underline of spaces may not).
const gapText = "______________"

// gapLine is the frame of an emptied placeholder: solid and grey, a box
// to fill rather than a warning.
var gapLine = pptx.Line{Color: pptx.RGB("8A96A3"), Width: 1}

// pptxGaps empties every pending spot of deck: a placeholder box keeps
// its frame with nothing in it, a pending run or slide title becomes a
// line to write on, a pending alt text is left out; so a pupil's deck
// shows where the teacher is to fill in, and none of the hints meant for
// a model. Only the handout is passed here: notes and the answer key,
// where the other hints are, are not in it.
func pptxGaps(deck *pptx.Deck) {
	for _, s := range deck.Slides {
		s.Title = gapString(s.Title)
		gapShapes(s.Shapes) // a TitleShape is one of them
	}
}

func gapShapes(shapes []pptx.Shape) {
	for _, sh := range shapes {
		switch sh := sh.(type) {
		case *pptx.Sp:
			if sh.Fill == pendingFill && sh.Line != nil && sh.Line.Dash && sh.Line.Color == pendingLine {
				sh.Paras, sh.Fill = nil, pptx.Color{}
				l := gapLine
				sh.Line = &l
				if strings.HasPrefix(sh.Name, "pending") {
					sh.Name = "gap" // an element's id stays, for the teacher to find it
				}
				continue
			}
			sh.Descr = gapString(sh.Descr)
			if len(sh.Paras) > 0 && len(sh.Paras[0].Runs) > 0 && strings.HasPrefix(sh.Paras[0].Runs[0].Text, whiteboard.PendingLabel) {
				// A label is the shape's only text; its hint may run
				// over several lines.
				r := sh.Paras[0].Runs[0]
				r.Text = gapText
				sh.Paras = []pptx.Para{{Runs: []pptx.Run{r}, Align: sh.Paras[0].Align}}
				continue
			}
			if sh.Name == "quiz" {
				numberQuestions(sh.Paras)
			}
			for i := range sh.Paras {
				for j := range sh.Paras[i].Runs {
					sh.Paras[i].Runs[j].Text = gapString(sh.Paras[i].Runs[j].Text)
				}
			}
		case *pptx.Pic:
			sh.Descr = strings.TrimSpace(pendingParen.ReplaceAllString(sh.Descr, ""))
		case *pptx.Group:
			gapShapes(sh.Shapes)
		case *pptx.Table:
			for _, row := range sh.Rows {
				for i := range row {
					row[i] = gapString(row[i])
				}
			}
		}
	}
}

// gapString is s with its pending part, if any, a gap.
func gapString(s string) string {
	s = pendingParen.ReplaceAllString(s, gapText)
	return pendingTail.ReplaceAllString(s, "${1}"+gapText)
}

// numberQuestions numbers a quiz's pending questions among the others,
// each a numbered blank as in the HTML's list. The quiz numbers by hand
// and skips a pending question so the answer key's numbers hold; a
// handout has no answer key, so here they may move.
func numberQuestions(ps []pptx.Para) {
	n := 0
	for i := range ps {
		p := &ps[i]
		switch {
		case len(p.Runs) > 0 && p.Runs[0].Bold && questionNum.MatchString(p.Runs[0].Text):
			n++
			p.Runs[0].Text = strconv.Itoa(n) + ". "
		case p.Bullet == "•" && len(p.Runs) == 1 && strings.HasPrefix(p.Runs[0].Text, "pending question"):
			n++
			r := p.Runs[0]
			p.Bullet = ""
			p.Runs = []pptx.Run{{Text: strconv.Itoa(n) + ". ", Size: r.Size, Bold: true}, {Text: gapText, Size: r.Size}}
		}
	}
}
