// Package render draws a loaded lesson as one self-contained HTML page (or
// Marp Markdown) for `lessongen render`. It names no child modality: each
// child draws itself through its descriptor's Render hook; this package
// lays out the pages, the navigation script and the print stylesheet.
package render

import (
	_ "embed"
	"errors"
	"fmt"
	"html"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/textfit"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

//go:embed page.css
var pageCSS string

//go:embed page.js
var pageJS string

// slide is one page of the lesson, its children already drawn.
type slide struct {
	id          string
	head, notes string
	children    []modality.Rendered
}

// deck is the lesson drawn: the overview and the slides. overviewNotes
// is the overview's teacher-only part (the lesson's Rendered.Notes and
// the notes for the author), kept apart from overview as a slide's notes
// are from its body, so a pupil's copy leaves it out by construction.
type deck struct {
	title                   string
	overview, overviewNotes string
	slides                  []slide
}

// build draws every part of doc through its modality's Render hook.
func build(doc *compose.Document, reg *modality.Registry) (*deck, error) {
	d := &deck{}
	var pages []lesson.Page
	var bound = map[string]map[string]string{}
	doc.View(func(p *lesson.Plan) {
		d.title = p.Title()
		r := reg.Root().Render(p, nil)
		d.overview, d.overviewNotes = r.Body, r.Notes
		pages = p.Pages()
		for _, pg := range pages {
			if pg.ID != "" {
				// A binding that cannot be evaluated yet (it names a
				// pending value) is simply not applied.
				b, _ := p.Bindings(pg.ID)
				bound[pg.ID] = b
			}
		}
	})
	for _, pg := range pages {
		s := slide{id: pg.ID, head: pg.Head, notes: pg.Notes}
		for _, kind := range reg.Children() {
			if pg.ID == "" {
				continue
			}
			child, err := doc.Child(pg.ID, kind.Name)
			if errors.Is(err, session.ErrUnknownChild) {
				continue
			}
			if err != nil {
				return nil, err
			}
			props := map[string]string{}
			for _, name := range slices.Sorted(maps.Keys(bound[pg.ID])) {
				if slices.Contains(kind.Bindable, name) {
					props[name] = bound[pg.ID][name]
				}
			}
			child.View(func(st session.State) { s.children = append(s.children, kind.Render(st, props)) })
		}
		for _, c := range s.children {
			if pg.Title != "" && strings.TrimSpace(c.Title) == strings.TrimSpace(pg.Title) {
				// A board headed by the title (bound to it, say) shows
				// it: the page's own heading stays for screen readers,
				// the outline and the presenter's "Next", unseen.
				s.head = strings.Replace(s.head, "<h2>", "<h2 "+unseen+">", 1)
				break
			}
		}
		d.slides = append(d.slides, s)
	}
	return d, nil
}

// unseen keeps an element for screen readers and scripts but draws
// nothing and takes no room: the usual visually-hidden rule, inline so
// the page, print and Marp alike honour it.
const unseen = `class="title-drawn" style="position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip-path:inset(50%);white-space:nowrap;border:0"`

// buildWithNotes is build, with the notes for the author attached: a note
// on a slide's child to that slide's notes, any other to the overview.
func buildWithNotes(doc *compose.Document, reg *modality.Registry, notes []AuthorNote) (*deck, error) {
	d, err := build(doc, reg)
	if err != nil || len(notes) == 0 {
		return d, err
	}
	bySlide, general := splitNotes(notes)
	d.overviewNotes += notesHTML(general)
	for i, s := range d.slides {
		if s.id != "" {
			d.slides[i].notes += notesHTML(bySlide[s.id])
		}
	}
	return d, nil
}

// splitNotes sorts notes for the author: those on a slide's child by
// slide id, the rest (the lesson's own) in general.
func splitNotes(notes []AuthorNote) (bySlide map[string][]AuthorNote, general []AuthorNote) {
	bySlide = map[string][]AuthorNote{}
	for _, n := range notes {
		rest, ok := strings.CutPrefix(n.Node, "slides/")
		id, _, _ := strings.Cut(rest, "/")
		if ok && id != "" {
			bySlide[id] = append(bySlide[id], n)
		} else {
			general = append(general, n)
		}
	}
	return bySlide, general
}

// AuthorNote is a note a subagent left for the author (note_for_author),
// shown in the notes of its slide, or of the overview for the lesson's
// own nodes.
type AuthorNote struct {
	Node  string // e.g. "slides/hook/whiteboard", "lesson"
	About string
	Text  string
}

// HTML writes doc as one self-contained HTML page: fonts, styles and
// script inline, nothing fetched at view time.
func HTML(w io.Writer, doc *compose.Document, reg *modality.Registry) error {
	return HTMLWithNotes(w, doc, reg, nil)
}

// notesHTML lists notes for the author as an HTML fragment.
func notesHTML(notes []AuthorNote) string {
	if len(notes) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<h4>Notes for the author</h4>\n<ul class=\"author-notes\">\n")
	for _, n := range notes {
		b.WriteString("<li>")
		if n.About != "" {
			fmt.Fprintf(&b, "<b>%s:</b> ", html.EscapeString(n.About))
		}
		fmt.Fprintf(&b, "%s</li>\n", html.EscapeString(n.Text))
	}
	b.WriteString("</ul>\n")
	return b.String()
}

// HTMLWithNotes is HTML with the notes subagents left for the author: a
// note on a slide's child goes to that slide's notes, any other to the
// overview's.
func HTMLWithNotes(w io.Writer, doc *compose.Document, reg *modality.Registry, notes []AuthorNote) error {
	return writeHTML(w, doc, reg, notes, HTMLOptions{})
}

// Writer is how `render` writes a lesson in one format.
type Writer func(w io.Writer, doc *compose.Document, reg *modality.Registry, notes []AuthorNote) error

// HTMLWriter writes the teacher's copy (HTMLWithNotes) or, with handout,
// the pupil's: see buildCopy.
func HTMLWriter(handout bool) Writer { return HTMLWriterWith(HTMLOptions{Handout: handout}) }

// HTMLOptions are the choices of an HTML render.
type HTMLOptions struct {
	// Handout writes the pupil's copy: see buildCopy.
	Handout bool
	// Present opens the page as a slideshow, as if P had been pressed.
	Present bool
	// Gaps draws each pending spot as an empty gap for the teacher to
	// fill, without the hint written for whoever generates it: the
	// handout of a lesson not yet complete (render --allow-pending).
	Gaps bool
}

// HTMLWriterWith is HTMLWriter with every choice.
func HTMLWriterWith(opts HTMLOptions) Writer {
	return func(w io.Writer, doc *compose.Document, reg *modality.Registry, notes []AuthorNote) error {
		return writeHTML(w, doc, reg, notes, opts)
	}
}

// buildCopy is buildWithNotes for the teacher's copy. The pupil's copy
// (handout) leaves out all that is for the teacher alone — speaker
// notes, notes for the author, the answer key, sources and the
// overview's misconceptions, which are all notes — so a pupil who views
// the page's source finds none of it.
func buildCopy(doc *compose.Document, reg *modality.Registry, notes []AuthorNote, handout bool) (*deck, error) {
	if !handout {
		return buildWithNotes(doc, reg, notes)
	}
	d, err := build(doc, reg)
	if err != nil {
		return nil, err
	}
	d.overviewNotes = ""
	for i := range d.slides {
		d.slides[i].notes = ""
		for j := range d.slides[i].children {
			d.slides[i].children[j].Notes = ""
		}
	}
	return d, nil
}

// printSwitch chooses, in the teacher's page, which copy the browser
// prints: page.css's print rules read the checked radio (no script), so
// the pupil copy prints without notes or answers, and with room to answer.
// It sits on the overview, the page the teacher opens on.
const printSwitch = `<fieldset class="print-switch"><legend>Print</legend>` +
	`<label title="each slide on its own sheet with its notes and answer key"><input type="radio" name="print-copy" id="print-teacher" checked> teacher copy</label>` +
	`<label title="no notes, no answers, room to answer each question"><input type="radio" name="print-copy" id="print-pupil"> pupil copy</label></fieldset>` + "\n"

// withMonoFont embeds Go Mono in page's style when the page draws code:
// the face is another 230 kB of base64 that a page without code does not
// carry.
func withMonoFont(page string) string {
	if !textfit.UsesMono(page) {
		return page
	}
	return strings.Replace(page, "<style>\n", "<style>\n"+textfit.MonoFontFaceCSS(), 1)
}

// writeHTML writes doc as one self-contained HTML page, the teacher's
// copy or (handout) the pupil's.
func writeHTML(w io.Writer, doc *compose.Document, reg *modality.Registry, notes []AuthorNote, opts HTMLOptions) error {
	d, err := buildCopy(doc, reg, notes, opts.Handout)
	if err != nil {
		return err
	}
	var b strings.Builder
	title := d.title
	if title == "" {
		title = "Lesson"
	}
	writeHead(&b, title, "")
	var classes []string
	if opts.Handout {
		classes = append(classes, "handout")
	}
	if opts.Present {
		classes = append(classes, "present")
	}
	body := "<body>\n"
	if len(classes) > 0 {
		body = "<body class=\"" + strings.Join(classes, " ") + "\">\n"
	}
	b.WriteString(body + "<main id=\"deck\">\n")
	writeDeck(&b, d, !opts.Handout)
	b.WriteString("</main>\n<script>\n")
	b.WriteString(pageJS)
	b.WriteString("</script>\n</body>\n</html>\n")
	page := b.String()
	if opts.Gaps {
		page = Gaps(page)
	}
	_, err = io.WriteString(w, withMonoFont(page))
	return err
}

// The pending spots as the modalities draw them: a box with "pending
// ...: hint" in the page, a dashed frame with the hint on a board, a
// label's hint (see Gaps). Outer tags before inner: a pending title holds
// a pending span.
var (
	pendingBoxes = []*regexp.Regexp{
		regexp.MustCompile(`(?s)<h2 class="pending">.*?</h2>`),
		regexp.MustCompile(`(?s)<div class="pending">.*?</div>`),
		regexp.MustCompile(`(?s)<p class="pending">.*?</p>`),
		regexp.MustCompile(`(?s)<li class="pending">.*?</li>`),
		regexp.MustCompile(`(?s)<span class="pending">.*?</span>`),
	}
	pendingFrame = regexp.MustCompile(`(?s)<g class="pending">(<rect [^>]*/>).*?</g>`)
	pendingLabel = regexp.MustCompile(`(?s)<g class="pending-label">.*?</g>`)
	boxTag       = regexp.MustCompile(`^<(\w+)`)
)

// Gaps empties every pending spot of a page this package wrote: a gap
// the size of a line (page.css's .gap), a board's frame with nothing in
// it, no label, so a pupil's copy shows where the teacher is to fill in,
// and none of the hints meant for a model.
func Gaps(page string) string {
	for _, re := range pendingBoxes {
		page = re.ReplaceAllStringFunc(page, func(m string) string {
			tag := boxTag.FindStringSubmatch(m)[1]
			return "<" + tag + ` class="gap" title="to be filled in"></` + tag + ">"
		})
	}
	page = pendingFrame.ReplaceAllString(page, `<g class="gap">$1</g>`)
	return pendingLabel.ReplaceAllString(page, "")
}

// writeHead writes the page's head: its title, the embedded font and
// page.css, then extraCSS.
func writeHead(b *strings.Builder, title, extraCSS string) {
	fmt.Fprintf(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"generator\" content=\"lessongen render\">\n<title>%s</title>\n", html.EscapeString(title))
	b.WriteString("<style>\n")
	b.WriteString(textfit.FontFaceCSS())
	fmt.Fprintf(b, ":root{--font:'%s',sans-serif}\n", textfit.FontFamily)
	b.WriteString(pageCSS)
	b.WriteString(extraCSS)
	b.WriteString("</style>\n</head>\n")
}

// writeDeck writes the deck's pages: the overview (with the print switch
// when withSwitch, and its notes: a pupil's deck has none), then a page
// per slide.
func writeDeck(b *strings.Builder, d *deck, withSwitch bool) {
	overview := d.overview
	if withSwitch {
		overview = printSwitch + overview
	}
	if d.overviewNotes != "" {
		overview += "<aside class=\"notes\"><h3>Notes</h3>\n" + d.overviewNotes + "</aside>\n"
	}
	overview += creditsHTML(d)
	fmt.Fprintf(b, "<section class=\"page overview\" id=\"overview\" data-page=\"0\">\n%s</section>\n", overview)
	// One numbering everywhere: a slide's number is its place among the
	// lesson's slides, as the overview's timeline counts them; a pending
	// placeholder is not a slide yet and has none.
	total := 0
	for _, s := range d.slides {
		if s.id != "" {
			total++
		}
	}
	num := 0
	for i, s := range d.slides {
		if s.id != "" {
			num++
		}
		writeSlide(b, s, i, num, total)
	}
}

// creditsHTML is the lesson's picture credits, every picture's credit and
// licence, for the overview page; "" when no slide has a picture.
func creditsHTML(d *deck) string {
	var b strings.Builder
	for _, s := range d.slides {
		for _, c := range s.children {
			for _, p := range c.Credits {
				credit := strings.Join(slices.DeleteFunc([]string{p.Credit, p.Licence}, func(s string) bool { return s == "" }), " · ")
				if credit == "" {
					credit = "no credit given"
				}
				fmt.Fprintf(&b, "<li>%s (%s): %s</li>\n", html.EscapeString(p.Picture), html.EscapeString(p.File), html.EscapeString(credit))
			}
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "<section class=\"credits\"><h2>Picture credits</h2>\n<ul>\n" + b.String() + "</ul></section>\n"
}

// writeSlide writes the deck's ith slide, numbered num of total (a
// placeholder: not numbered), as one page.
func writeSlide(b *strings.Builder, s slide, i, num, total int) {
	id, number := fmt.Sprintf("placeholder-%d", i+1), ""
	if s.id != "" {
		id = "slide-" + s.id
		number = fmt.Sprintf(" data-number=\"%d / %d\"", num, total)
	}
	fmt.Fprintf(b, "<section class=\"page slide\" id=\"%s\" data-page=\"%d\"%s>\n<header>%s</header>\n<div class=\"children\">\n", html.EscapeString(id), i+1, number, s.head)
	notes := s.notes
	for _, c := range s.children {
		b.WriteString(c.Body)
		notes += c.Notes
	}
	b.WriteString("</div>\n")
	if notes != "" {
		fmt.Fprintf(b, "<aside class=\"notes\"><h3>Notes</h3>\n%s</aside>\n", notes)
	}
	if s.id != "" {
		fmt.Fprintf(b, "<footer>%d / %d</footer>\n", num, total)
	}
	b.WriteString("</section>\n")
}
