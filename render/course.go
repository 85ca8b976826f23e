package render

import (
	"context"
	"fmt"
	"html"
	"io"
	"slices"
	"strings"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/modality"
)

// CourseIndex is a course as its index page shows it: the outline and,
// in course order, every lesson, a pending one too. It is plain data
// (cmd fills it from the course file and its lessons' summaries), so this
// package knows no course type.
type CourseIndex struct {
	Title, Subject, Grade string
	Outcomes              []string
	// OutcomesHint is the author's hint while the outcomes are pending.
	OutcomesPending bool
	OutcomesHint    string
	Lessons         []CourseLesson
}

// CourseLesson is one lesson of a CourseIndex.
type CourseLesson struct {
	// File is the lesson file as the course names it; "" for a pending item.
	File  string
	Title string
	// Pending is a lesson item no run has written yet; Hint the author's.
	Pending bool
	Hint    string
	// Links are the lesson's rendered decks (HTML, PowerPoint), relative
	// to the index page; the book links to its own pages instead.
	Links        []Link
	Objectives   []string
	Outcome      string
	KeyQuestions []string
	Vocabulary   []Term
}

// Link is a deck a lesson's entry links to.
type Link struct{ Label, Href string }

// Term is a vocabulary term and its definition ("" when not written).
type Term struct{ Term, Definition string }

// courseCSS is what the index adds to page.css: the lesson list, the
// glossary, and in the book a new sheet for each lesson (a lesson's last
// page is its wrapper's last child, which page.css lets run on).
const courseCSS = `.course-lesson{border-top:1px solid #dde3e9;padding:10px 0}
.course-lesson h3{margin:0 0 4px;font-size:20px}
.course-lesson .links a{margin-right:12px}
.course-lesson h4{margin:6px 0 2px;font-size:15px;color:#4a5561}
dl.glossary dt{font-weight:bold;margin-top:8px}
dl.glossary dd{margin:2px 0 2px 20px}
.glossary .from{color:#6b7682;font-size:.9em}
@media print{.book-lesson{break-before:page}}
`

// CourseIndexHTML writes the course's index page: one self-contained
// HTML file (font and styles inline) with the outline, each lesson's
// links, objectives, outcome and key questions, and the glossary.
func CourseIndexHTML(w io.Writer, c CourseIndex) error {
	var b strings.Builder
	writeHead(&b, courseTitle(c), courseCSS)
	b.WriteString("<body>\n<main id=\"deck\">\n")
	writeCourseIndex(&b, c)
	b.WriteString("</main>\n</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// CourseBook writes the course as one HTML document to print as a book:
// the index (its lessons linking to their pages in the book), then every
// lesson's pages in course order; a pending lesson is one page saying
// so. docs[i] and notes[i] are lesson i's (docs[i] nil when pending).
// With handout every lesson is the pupil's copy.
func CourseBook(w io.Writer, c CourseIndex, docs []*compose.Document, reg *modality.Registry, notes [][]AuthorNote, handout bool) error {
	var b strings.Builder
	writeHead(&b, courseTitle(c), courseCSS)
	if handout {
		b.WriteString("<body class=\"handout\">\n<main id=\"deck\">\n")
	} else {
		b.WriteString("<body>\n<main id=\"deck\">\n")
	}
	for i := range c.Lessons {
		c.Lessons[i].Links = []Link{{Label: "in this book", Href: fmt.Sprintf("#lesson-%d", i+1)}}
	}
	writeCourseIndex(&b, c)
	for i, l := range c.Lessons {
		fmt.Fprintf(&b, "<div class=\"book-lesson\" id=\"lesson-%d\">\n", i+1)
		if docs[i] == nil {
			fmt.Fprintf(&b, "<section class=\"page overview\">\n<h1>Lesson %d</h1>\n<p class=\"pending\">pending: %s</p>\n</section>\n", i+1, html.EscapeString(l.Hint))
		} else {
			d, err := buildCopy(docs[i], reg, notes[i], handout)
			if err != nil {
				return err
			}
			writeDeck(&b, d, false)
		}
		b.WriteString("</div>\n")
	}
	b.WriteString("</main>\n</body>\n</html>\n")
	_, err := io.WriteString(w, withMonoFont(b.String()))
	return err
}

// PrintBook prints a CourseBook page of the lessons docs to PDF as
// PDFWriter prints a lesson: A4, each page on its own sheet, the title in
// the footer. Its time is bounded as one lesson's of all their slides,
// and a page more for each lesson (PDFTimeout).
func PrintBook(ctx context.Context, browser string, page []byte, title string, docs []*compose.Document) ([]byte, error) {
	slides := len(docs)
	for _, d := range docs {
		if d != nil {
			d.View(func(p *lesson.Plan) { slides += len(p.Slides.Value) })
		}
	}
	pdf, err := printPDF(ctx, browser, page, title, slides)
	if err != nil {
		return nil, fmt.Errorf("pdf: %w", err)
	}
	return pdf, nil
}

func courseTitle(c CourseIndex) string {
	if c.Title == "" {
		return "Course"
	}
	return c.Title
}

// writeCourseIndex writes the index's pages: the outline and lessons,
// then the glossary.
func writeCourseIndex(b *strings.Builder, c CourseIndex) {
	e := html.EscapeString
	b.WriteString("<section class=\"page overview course-index\" id=\"course\">\n")
	fmt.Fprintf(b, "<h1>%s</h1>\n", e(courseTitle(c)))
	var facts []string
	for _, f := range []struct{ k, v string }{{"Subject", c.Subject}, {"Grade", c.Grade}} {
		if f.v != "" {
			facts = append(facts, e(f.k)+": "+e(f.v))
		}
	}
	fmt.Fprintf(b, "<p class=\"facts\">%s · %d lessons</p>\n", strings.Join(facts, " · "), len(c.Lessons))
	b.WriteString("<h2>Outcomes</h2>\n")
	if c.OutcomesPending {
		fmt.Fprintf(b, "<p class=\"pending\">pending: %s</p>\n", e(c.OutcomesHint))
	} else {
		writeList(b, c.Outcomes)
	}
	b.WriteString("<h2>Lessons</h2>\n")
	for i, l := range c.Lessons {
		writeCourseLesson(b, i, l)
	}
	b.WriteString("</section>\n")
	writeGlossary(b, c)
}

// writeCourseLesson writes lesson i's entry of the index.
func writeCourseLesson(b *strings.Builder, i int, l CourseLesson) {
	e := html.EscapeString
	b.WriteString("<div class=\"course-lesson\">\n")
	if l.Pending {
		fmt.Fprintf(b, "<h3>%d. <span class=\"pending\">pending</span></h3>\n<p>%s</p>\n</div>\n", i+1, e(l.Hint))
		return
	}
	title := l.Title
	if title == "" {
		title = "(title not written yet)"
	}
	fmt.Fprintf(b, "<h3>%d. %s</h3>\n<p class=\"facts\">%s</p>\n", i+1, e(title), e(l.File))
	if len(l.Links) > 0 {
		b.WriteString("<p class=\"links\">")
		for _, k := range l.Links {
			fmt.Fprintf(b, "<a href=\"%s\">%s</a>", e(k.Href), e(k.Label))
		}
		b.WriteString("</p>\n")
	}
	if l.Outcome != "" {
		fmt.Fprintf(b, "<h4>Outcome</h4>\n<p>%s</p>\n", e(l.Outcome))
	}
	if len(l.Objectives) > 0 {
		b.WriteString("<h4>Objectives</h4>\n")
		writeList(b, l.Objectives)
	}
	if len(l.KeyQuestions) > 0 {
		b.WriteString("<h4>Key questions</h4>\n")
		writeList(b, l.KeyQuestions)
	}
	b.WriteString("</div>\n")
}

func writeList(b *strings.Builder, items []string) {
	b.WriteString("<ul>\n")
	for _, it := range items {
		fmt.Fprintf(b, "<li>%s</li>\n", html.EscapeString(it))
	}
	b.WriteString("</ul>\n")
}

// glossEntry is a glossary term: each of its definitions with the
// lessons that give it, in the order the course first gives them.
type glossEntry struct {
	term string
	defs []glossDef
}

type glossDef struct {
	text    string
	lessons []int // positions, from 1
}

// glossary gathers every lesson's vocabulary, terms alike when they
// match but for case and surrounding space, sorted by term.
func glossary(c CourseIndex) []glossEntry {
	var out []glossEntry
	at := map[string]int{}
	for i, l := range c.Lessons {
		for _, t := range l.Vocabulary {
			key := strings.ToLower(strings.TrimSpace(t.Term))
			if key == "" {
				continue
			}
			j, ok := at[key]
			if !ok {
				j, at[key] = len(out), len(out)
				out = append(out, glossEntry{term: strings.TrimSpace(t.Term)})
			}
			def := strings.TrimSpace(t.Definition)
			k := slices.IndexFunc(out[j].defs, func(d glossDef) bool { return strings.EqualFold(d.text, def) })
			if k < 0 {
				out[j].defs = append(out[j].defs, glossDef{text: def})
				k = len(out[j].defs) - 1
			}
			if ls := out[j].defs[k].lessons; len(ls) == 0 || ls[len(ls)-1] != i+1 {
				out[j].defs[k].lessons = append(ls, i+1)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b glossEntry) int { return strings.Compare(strings.ToLower(a.term), strings.ToLower(b.term)) })
	return out
}

// writeGlossary writes the glossary page: each term, each definition
// with the lessons that give it (two where lessons differ).
func writeGlossary(b *strings.Builder, c CourseIndex) {
	g := glossary(c)
	if len(g) == 0 {
		return
	}
	e := html.EscapeString
	b.WriteString("<section class=\"page overview glossary\" id=\"glossary\">\n<h2>Glossary</h2>\n<dl class=\"glossary\">\n")
	for _, t := range g {
		fmt.Fprintf(b, "<dt>%s</dt>\n", e(t.term))
		for _, d := range t.defs {
			text := d.text
			if text == "" {
				text = "(no definition written)"
			}
			var from []string
			for _, n := range d.lessons {
				title := c.Lessons[n-1].Title
				from = append(from, fmt.Sprintf("lesson %d, %s", n, title))
			}
			fmt.Fprintf(b, "<dd>%s <span class=\"from\">(%s)</span></dd>\n", e(text), e(strings.Join(from, "; ")))
		}
	}
	b.WriteString("</dl>\n</section>\n")
}
