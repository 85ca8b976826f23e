package render

import (
	"regexp"
	"strings"

	"github.com/lessongen/lessongen/internal/pptx"
)

// The pending spots as the modalities' PPTX hooks draw them (the deck's
// counterpart of the HTML's class="pending"): a placeholder box, amber
// fill with a dashed amber frame, holding "pending what: hint"
// (whiteboard's placeholder, render's pendingSlide); a run, or the end
// of one, reading "pending what: hint" (quiz, activity, lesson's
// pendingText: alone, or after "Label: " or " — "); a picture's
// "(pending: hint)" alt text or caption (whiteboard's fieldText).
var (
	pendingFill  = pptx.RGB("FFF8E6")
	pendingLine  = pptx.RGB("B7791F")
	pendingParen = regexp.MustCompile(`\(pending(: [^)]*)?\)`)
	pendingTail  = regexp.MustCompile(`(?s)(^|: |— )pending\b.*$`)
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
				sh.Name = "gap"
				continue
			}
			sh.Descr = gapString(sh.Descr)
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
