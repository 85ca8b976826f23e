package render

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// frame is the part of a slide below its title where a node draws itself.
var frame = pptx.Box{X: 457200, Y: 1051560, W: pptx.SlideWidth - 2*457200, H: pptx.SlideHeight - 1051560 - 182880}

// PPTX writes doc as a PowerPoint deck of native, editable shapes: an
// overview slide, then one slide per lesson slide with its title in the
// title placeholder, each child drawn through its modality's PPTX hook
// (a second child that draws shapes, such as a quiz beside a whiteboard,
// gets a slide of its own after it), speaker notes on the notes pages and,
// in the teacher's copy, the answer key in the notes and on a final
// answers slide. A handout (handout true) has no notes pages and no
// answers slide: nothing meant for the teacher alone.
func PPTX(w io.Writer, doc *compose.Document, reg *modality.Registry, notes []AuthorNote, handout bool) error {
	return PPTXWith(w, doc, reg, notes, PPTXOptions{Handout: handout})
}

// PPTXOptions are the choices of a deck's render.
type PPTXOptions struct {
	// Handout writes the pupil's deck: see PPTX.
	Handout bool
	// Gaps draws each pending spot as an empty gap for the teacher to
	// fill, without the hint written for whoever generates it (see
	// pptxGaps): the handout of a lesson not yet complete (render
	// --allow-pending), as HTMLOptions.Gaps.
	Gaps bool
}

// PPTXWith is PPTX with every choice.
func PPTXWith(w io.Writer, doc *compose.Document, reg *modality.Registry, notes []AuthorNote, opts PPTXOptions) error {
	handout := opts.Handout
	deck := &pptx.Deck{}
	var pages []lesson.SlidePage
	bound := map[string]map[string]string{}
	var overview modality.PPTXRendered
	doc.View(func(p *lesson.Plan) {
		m := p.Metadata
		deck.Title, deck.Subject = m.Title.Value, m.Subject.Value
		var kw []string
		if m.Grade.Set {
			kw = append(kw, lesson.GradeText(m.Grade.Value))
		}
		if m.Subject.Set {
			kw = append(kw, m.Subject.Value)
		}
		deck.Keywords = strings.Join(kw, ", ")
		overview = reg.Root().PPTX(p, nil, frame)
		pages = p.SlidePages()
		for _, pg := range pages {
			if pg.ID != "" {
				b, _ := p.Bindings(pg.ID) // a pending binding is not applied
				bound[pg.ID] = b
			}
		}
	})
	bySlide, general := splitNotes(notes)
	title := deck.Title
	if title == "" {
		title = "Lesson"
	}
	add := func(s *pptx.Slide) {
		if handout {
			s.Notes = nil
		}
		deck.Slides = append(deck.Slides, s)
	}
	add(&pptx.Slide{Title: title, Shapes: overview.Shapes, Notes: append(overview.Notes, authorNotes(general)...)})
	type keyed struct {
		title string
		key   []pptx.Para
	}
	var answers []keyed
	for _, pg := range pages {
		if pg.ID == "" {
			add(&pptx.Slide{Title: pg.Title, Shapes: []pptx.Shape{pendingSlide(pg.Title)}})
			continue
		}
		main := &pptx.Slide{Title: pg.Title, Notes: slices.Clone(pg.Notes)}
		slides := []*pptx.Slide{main}
		// Callouts shown on the slide take a strip at the foot of the
		// frame; the children draw in what is left.
		childFrame, strip := calloutStrip(pg.Callouts)
		var key []pptx.Para
		for _, kind := range reg.Children() {
			child, err := doc.Child(pg.ID, kind.Name)
			if errors.Is(err, session.ErrUnknownChild) {
				continue
			}
			if err != nil {
				return err
			}
			props := map[string]string{}
			for _, name := range slices.Sorted(maps.Keys(bound[pg.ID])) {
				if slices.Contains(kind.Bindable, name) {
					props[name] = bound[pg.ID][name]
				}
			}
			var r modality.PPTXRendered
			board := kind.PPTXBoard
			if board {
				// A board with a heading is the slide, drawn at its
				// size; one without is headed by the title, under it.
				f := boardFrame
				if strip != nil {
					f.H = childFrame.Y + childFrame.H - f.Y
				}
				child.View(func(st session.State) { r = kind.PPTX(st, props, f) })
				board = r.Title != nil
			}
			if !board {
				child.View(func(st session.State) { r = kind.PPTX(st, props, childFrame) })
			}
			at := main
			if len(r.Shapes) > 0 && len(main.Shapes) > 0 {
				at = &pptx.Slide{Title: pg.Title + " (" + kind.Name + ")"}
				slides = append(slides, at)
			}
			if board {
				// The heading that reads as the title (bound to it, say)
				// is the title; another keeps the title off the slide.
				if sameTitle(r.Title, at.Title) {
					at.TitleShape = r.Title
				} else {
					at.TitleOff = true
				}
			}
			at.Shapes = append(at.Shapes, r.Shapes...)
			at.Notes = append(at.Notes, r.Notes...)
			if len(r.Key) > 0 {
				at.Notes = append(at.Notes, pptx.Text("Answer key", 0, true, pptx.Color{}))
				at.Notes = append(at.Notes, r.Key...)
				key = append(key, r.Key...)
			}
		}
		if strip != nil {
			main.Shapes = append(main.Shapes, strip)
		}
		main.Notes = append(main.Notes, authorNotes(bySlide[pg.ID])...)
		for _, s := range slides {
			add(s)
		}
		if len(key) > 0 {
			answers = append(answers, keyed{pg.Title, key})
		}
	}
	if len(answers) > 0 && !handout {
		var ps []pptx.Para
		for _, a := range answers {
			ps = append(ps, pptx.Text(a.title, 20, true, pptx.RGB("1F3A5F")))
			for _, k := range a.key {
				k.Level = 1
				ps = append(ps, k)
			}
		}
		add(&pptx.Slide{Title: "Answer key (teacher copy)", Shapes: []pptx.Shape{&pptx.Sp{Name: "answers", Box: frame, Paras: ps, Shrink: true}}})
	}
	if opts.Gaps {
		pptxGaps(deck)
	}
	return deck.Write(w)
}

// boardFrame is the whole slide, where a board with a heading
// (PPTXBoard) draws.
var boardFrame = pptx.Box{W: pptx.SlideWidth, H: pptx.SlideHeight}

// sameTitle reports whether a heading shape reads as title.
func sameTitle(sp *pptx.Sp, title string) bool {
	var b strings.Builder
	for _, p := range sp.Paras {
		for _, r := range p.Runs {
			b.WriteString(r.Text)
		}
	}
	return strings.TrimSpace(b.String()) == strings.TrimSpace(title)
}

// calloutStrip is the frame a slide's children draw in and the box of its
// callouts shown on the slide, a strip at the frame's foot sized for
// them; the whole frame and no box when it has none.
func calloutStrip(callouts []pptx.Para) (pptx.Box, *pptx.Sp) {
	if len(callouts) == 0 {
		return frame, nil
	}
	// About 0.4 inch a callout, at most a third of the frame.
	h := min(int64(len(callouts))*365760+91440, frame.H/3)
	rest := frame
	rest.H -= h + 91440
	box := pptx.Box{X: frame.X, Y: frame.Y + frame.H - h, W: frame.W, H: h}
	return rest, &pptx.Sp{Name: "callouts", Box: box, Paras: callouts, Shrink: true, Fill: pptx.RGB("EEF4FA"),
		Line: &pptx.Line{Color: pptx.RGB("2F5D8A"), Width: 1}}
}

// pendingSlide is a slide still to be generated: a dashed placeholder
// with its hint, as the HTML draws one.
func pendingSlide(text string) *pptx.Sp {
	return &pptx.Sp{Name: "pending slide", Box: frame, Fill: pptx.RGB("FFF8E6"), Anchor: "ctr", Shrink: true,
		Line:  &pptx.Line{Color: pptx.RGB("B7791F"), Width: 1.5, Dash: true},
		Paras: []pptx.Para{{Runs: []pptx.Run{{Text: text, Size: 24, Color: pptx.RGB("7A4A00")}}, Align: "ctr"}}}
}

// authorNotes are notes subagents left for the author, as notes
// paragraphs.
func authorNotes(notes []AuthorNote) []pptx.Para {
	if len(notes) == 0 {
		return nil
	}
	out := []pptx.Para{pptx.Text("Notes for the author", 0, true, pptx.Color{})}
	for _, n := range notes {
		p := pptx.Para{Bullet: "•"}
		if n.About != "" {
			p.Runs = append(p.Runs, pptx.Run{Text: n.About + ": ", Bold: true})
		}
		p.Runs = append(p.Runs, pptx.Run{Text: n.Text})
		out = append(out, p)
	}
	return out
}

// PPTXWriter is PPTX as render's writers are called, for cmd.
func PPTXWriter(handout bool) func(io.Writer, *compose.Document, *modality.Registry, []AuthorNote) error {
	return PPTXWriterWith(PPTXOptions{Handout: handout})
}

// PPTXWriterWith is PPTXWriter with every choice.
func PPTXWriterWith(opts PPTXOptions) func(io.Writer, *compose.Document, *modality.Registry, []AuthorNote) error {
	return func(w io.Writer, doc *compose.Document, reg *modality.Registry, notes []AuthorNote) error {
		if err := PPTXWith(w, doc, reg, notes, opts); err != nil {
			return fmt.Errorf("pptx: %w", err)
		}
		return nil
	}
}
