package cmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/course"
	"github.com/lessongen/lessongen/internal/statedir"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/render"
)

// renderedCourse is a course loaded for render: its file, and per lesson
// (in course order) its path, document, summary and notes for the
// author; a pending item has "" and nil.
type renderedCourse struct {
	file  *course.File
	paths []string
	docs  []*compose.Document
	sums  []course.Summary
	notes [][]render.AuthorNote
}

// runRenderCourse is render on a course file: an index page linking each
// lesson's deck, written beside its lesson file as render would write it
// alone (HTML, and the --format pptx deck too), or with --format pdf one
// book, the index then every lesson.
func runRenderCourse(opts *renderOptions) error {
	switch opts.format {
	case "html", "pptx", "pdf":
	case "md":
		return usagef("--format md writes one lesson; render a lesson file of the course, or the course as html, pptx or pdf")
	default:
		return usagef("--format must be html, md, pptx or pdf, got %q", opts.format)
	}
	if opts.format == "pptx" && strings.EqualFold(filepath.Ext(opts.out), ".pptx") {
		return usagef("-o names the course's index page (e.g. -o course.html); each lesson's deck is written beside its lesson file")
	}
	var browser string
	if opts.format == "pdf" {
		var err error
		if _, err = renderWriter(opts); err != nil { // the browser and terminal checks
			return err
		}
		browser, _ = render.FindBrowser(opts.chromium)
	} else if opts.present && opts.format != "html" {
		return usagef("--present is for --format html")
	}
	if err := checkAllowPending(opts); err != nil {
		return err
	}
	rc, err := loadCourseForRender(opts)
	if err != nil {
		return err
	}
	if opts.format == "pdf" {
		return renderCourseBook(opts, rc, browser)
	}
	return renderCourseIndex(opts, rc)
}

// loadCourseForRender loads the course and every lesson it names; a
// course or lesson that is invalid, or a lesson file that is missing,
// is the input's problem (exit 2, its problems printed, nothing written).
func loadCourseForRender(opts *renderOptions) (*renderedCourse, error) {
	f, err := course.Load(opts.file)
	if err != nil {
		var ps yamlsrc.Problems
		if errors.As(err, &ps) {
			printProblems(opts.io, ps)
			return nil, printed(usagef("%s is invalid; nothing rendered", opts.file))
		}
		return nil, &usageError{err}
	}
	paths, problems := f.Resolve()
	if problems.Err() != nil {
		printProblems(opts.io, problems)
		return nil, printed(usagef("%s names lesson files that cannot be read; nothing rendered", opts.file))
	}
	rc := &renderedCourse{file: f, paths: paths, docs: make([]*compose.Document, len(paths)),
		sums: make([]course.Summary, len(paths)), notes: make([][]render.AuthorNote, len(paths))}
	for i, p := range paths {
		if p == "" {
			continue
		}
		lo := *opts
		lo.file = p
		if rc.docs[i], err = loadForRender(&lo); err != nil {
			return nil, err
		}
		if err := checkHandout(&lo, rc.docs[i]); err != nil {
			return nil, err
		}
		if rc.sums[i], err = course.ReadSummary(p, f.Course.Lessons[i].File); err != nil {
			return nil, &usageError{err}
		}
		rc.notes[i], err = loadNotes(readStateDir(opts.stateDir, p))
		if le := (*statedir.LinkError)(nil); errors.As(err, &le) {
			return nil, &usageError{err}
		}
		if err != nil {
			return nil, err
		}
	}
	return rc, nil
}

// index is the course as its index page shows it, each lesson linking
// to links(i) (nil for none).
func (rc *renderedCourse) index(links func(i int) []render.Link) render.CourseIndex {
	c := rc.file.Course
	out := render.CourseIndex{Title: c.Title.Value, Subject: c.Subject.Value, Grade: c.Grade.Value,
		Outcomes: c.Outcomes.Value, OutcomesPending: c.Outcomes.Pending, OutcomesHint: c.Outcomes.Hint}
	for i, l := range c.Lessons {
		if rc.paths[i] == "" {
			out.Lessons = append(out.Lessons, render.CourseLesson{Pending: true, Hint: l.Hint})
			continue
		}
		s := rc.sums[i]
		cl := render.CourseLesson{File: l.File, Title: s.Title, Objectives: s.Objectives,
			Outcome: s.Outcome, KeyQuestions: s.KeyQuestions}
		for _, t := range s.Vocabulary {
			cl.Vocabulary = append(cl.Vocabulary, render.Term{Term: t.Term, Definition: t.Definition})
		}
		if links != nil {
			cl.Links = links(i)
		}
		out.Lessons = append(out.Lessons, cl)
	}
	return out
}

// courseTarget is the course's own output (the index page or the book):
// -o, else the course file with ext; never one of the course's inputs.
func (rc *renderedCourse) courseTarget(opts *renderOptions, ext string) (string, error) {
	out := opts.out
	if out == "" {
		out = strings.TrimSuffix(opts.file, filepath.Ext(opts.file)) + "." + ext
	}
	if out == "-" {
		return out, nil
	}
	out = filepath.Clean(out)
	if err := rc.checkOutput(out); err != nil {
		return "", usagef("-o %v", err)
	}
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		return "", usagef("-o %s is a folder; name the output file, e.g. %s", out, filepath.Join(out, "course."+ext))
	}
	return out, nil
}

// checkOutput refuses a path that is the course file or one of any
// lesson's files, however it is spelled.
func (rc *renderedCourse) checkOutput(path string) error {
	if sameFile(path, rc.file.Path) {
		return fmt.Errorf("%s is the course file; choose another path", path)
	}
	for _, d := range rc.docs {
		if d == nil {
			continue
		}
		if err := d.CheckSideFile(path, "-"); err != nil {
			return err
		}
	}
	return nil
}

// sameFile: a and b name one file (or, not yet existing, one path).
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	absA, _ := filepath.Abs(a)
	absB, _ := filepath.Abs(b)
	return absA == absB
}

// relLink is target as a link from a page in dir: relative, slashes,
// each segment escaped as a URL path.
func relLink(dir, target string) string {
	absDir, _ := filepath.Abs(dir)
	absT, _ := filepath.Abs(target)
	rel, err := filepath.Rel(absDir, absT)
	if err != nil {
		rel = absT
	}
	segs := strings.Split(filepath.ToSlash(rel), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// renderCourseBook prints the course as one PDF: the index, then every
// lesson's pages.
func renderCourseBook(opts *renderOptions, rc *renderedCourse, browser string) error {
	out, err := rc.courseTarget(opts, "pdf")
	if err != nil {
		return err
	}
	idx := rc.index(nil)
	var page bytes.Buffer
	if err := render.CourseBook(&page, idx, rc.docs, opts.reg, rc.notes, opts.handout); err != nil {
		return err
	}
	book := page.Bytes()
	if opts.allowPending {
		book = []byte(render.Gaps(string(book)))
	}
	ctx := opts.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	pdf, err := render.PrintBook(ctx, browser, book, idx.Title, rc.docs)
	if err != nil {
		return err
	}
	return writeRendered(opts, out, pdf)
}

// deckFile is one lesson deck the index links to.
type deckFile struct {
	lesson int
	format string // html or pptx
	path   string
}

// renderCourseIndex writes each lesson's decks beside its lesson file,
// then the index page linking them. Every output is checked first, so
// one that would overwrite an input writes nothing.
func renderCourseIndex(opts *renderOptions, rc *renderedCourse) error {
	out, err := rc.courseTarget(opts, "html")
	if err != nil {
		return err
	}
	decks, err := rc.deckFiles(opts, out)
	if err != nil {
		return err
	}
	for _, d := range decks {
		if err := rc.writeDeck(opts, d); err != nil {
			return err
		}
	}
	dir := filepath.Dir(out)
	if out == "-" {
		dir = rc.file.Dir()
	}
	idx := rc.index(func(i int) []render.Link {
		var links []render.Link
		for _, d := range decks {
			if d.lesson == i {
				links = append(links, render.Link{Label: deckLabel[d.format], Href: relLink(dir, d.path)})
			}
		}
		return links
	})
	var page bytes.Buffer
	if err := render.CourseIndexHTML(&page, idx); err != nil {
		return err
	}
	o := *opts
	o.format = "html"
	return writeRendered(&o, out, page.Bytes())
}

var deckLabel = map[string]string{"html": "slides (HTML)", "pptx": "PowerPoint"}

// deckFiles are the decks to write: each lesson's HTML page and, with
// --format pptx, its deck, beside its lesson file; none may be an input,
// the index or another deck.
func (rc *renderedCourse) deckFiles(opts *renderOptions, index string) ([]deckFile, error) {
	formats := []string{"html"}
	if opts.format == "pptx" {
		formats = append(formats, "pptx")
	}
	var decks []deckFile
	for i, p := range rc.paths {
		if p == "" {
			continue
		}
		for _, f := range formats {
			d := deckFile{lesson: i, format: f, path: strings.TrimSuffix(p, filepath.Ext(p)) + "." + f}
			if err := rc.checkOutput(d.path); err != nil {
				return nil, usagef("lesson %d's deck: %v", i+1, err)
			}
			if index != "-" && sameFile(d.path, index) {
				return nil, usagef("-o %s is where lesson %d's deck is written; choose another path", index, i+1)
			}
			for _, e := range decks {
				if sameFile(e.path, d.path) {
					return nil, usagef("lessons %d and %d would both write %s; rename one lesson file", e.lesson+1, i+1, d.path)
				}
			}
			decks = append(decks, d)
		}
	}
	return decks, nil
}

// writeDeck renders one lesson deck as render FILE would.
func (rc *renderedCourse) writeDeck(opts *renderOptions, d deckFile) error {
	write := render.PPTXWriterWith(render.PPTXOptions{Handout: opts.handout, Gaps: opts.allowPending})
	if d.format == "html" {
		write = render.HTMLWriterWith(render.HTMLOptions{Handout: opts.handout, Present: opts.present, Gaps: opts.allowPending})
	}
	var buf bytes.Buffer
	if err := write(&buf, rc.docs[d.lesson], opts.reg, rc.notes[d.lesson]); err != nil {
		return err
	}
	o := *opts
	o.format = d.format
	return writeRendered(&o, d.path, buf.Bytes())
}
