package render

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/modality"
)

// InstallBrowser is what to do when no browser is found: the package to
// install, named for the systems people teach from.
const InstallBrowser = "install chromium (Debian/Ubuntu: apt-get install chromium; Fedora: dnf install chromium; macOS: brew install --cask chromium) or name one with --chromium PATH"

// Printing a PDF is bounded, so a browser that hangs fails the render
// rather than holding it forever; the bound grows with the slides, since
// the browser's work does (on two cores, 1,000 slides printed in 71 s
// and 2,000 in 140 s; in 321 s while the machine was busy with other
// work). The allowance per slide is about twice the busy machine's:
// 2,000 slides may take 10 minutes.
const (
	PDFBaseTimeout  = 2 * time.Minute
	PDFSlideTimeout = 250 * time.Millisecond
)

// PDFTimeout is how long printing slides slides (a course book: every
// lesson's, and a page per lesson) may take.
func PDFTimeout(slides int) time.Duration {
	return PDFBaseTimeout + time.Duration(slides)*PDFSlideTimeout
}

// PDFTimeoutError means the browser did not finish printing in
// PDFTimeout(Slides).
type PDFTimeoutError struct{ Slides int }

func (e *PDFTimeoutError) Error() string {
	return fmt.Sprintf("the browser did not finish printing %d slides in %v (%v plus %v a slide); it may be stuck or the machine too busy: try again, or render HTML and print it from a browser", e.Slides, PDFTimeout(e.Slides), PDFBaseTimeout, PDFSlideTimeout)
}

// MinPrintPoints is the smallest text a printed copy may hold, in
// points: a sheet too full for its page continues on the next rather
// than shrink its text below this.
const MinPrintPoints = 8.0

// The PDF's paper, A4 in inches: page.css's @page names only the
// orientation and margins, so the browser's print dialog keeps the
// printer's paper; the PDF needs one.
const (
	a4Width  = 8.27
	a4Height = 11.69
)

// PDFWriter prints the page HTMLWriter(handout) writes to PDF in the
// headless browser at browser (see FindBrowser): the page's own print
// stylesheet, each slide from a new sheet (landscape, so a board prints
// wide enough for its smallest text), fonts embedded, the lesson's title
// and page numbers at the foot of each sheet. Nothing is shrunk to fit a
// sheet: what does not fit continues on the next (MinPrintPoints).
func PDFWriter(ctx context.Context, browser string, handout bool) Writer {
	return PDFWriterWith(ctx, browser, HTMLOptions{Handout: handout})
}

// PDFWriterWith is PDFWriter printing the page HTMLWriterWith(opts)
// writes (Present aside: a PDF prints every page).
func PDFWriterWith(ctx context.Context, browser string, opts HTMLOptions) Writer {
	opts.Present = false
	return func(w io.Writer, doc *compose.Document, reg *modality.Registry, notes []AuthorNote) error {
		var buf bytes.Buffer
		if err := writeHTML(&buf, doc, reg, notes, opts); err != nil {
			return err
		}
		title, slides := "", 0
		doc.View(func(p *lesson.Plan) { title, slides = p.Title(), len(p.Slides.Value) })
		pdf, err := printPDF(ctx, browser, buf.Bytes(), title, slides)
		if err != nil {
			return fmt.Errorf("pdf: %w", err)
		}
		_, err = w.Write(pdf)
		return err
	}
}

// printPDF loads the HTML page of slides slides from a temporary file in
// a fresh headless browser and prints it, in PDFTimeout(slides) at most.
func printPDF(ctx context.Context, browser string, htmlPage []byte, title string, slides int) (pdf []byte, err error) {
	dir, err := os.MkdirTemp("", "lessongen-pdf-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "lesson.html")
	if err := os.WriteFile(file, htmlPage, 0o600); err != nil {
		return nil, err
	}
	timeout := &PDFTimeoutError{Slides: slides}
	ctx, cancel := context.WithTimeoutCause(ctx, PDFTimeout(slides), timeout)
	defer cancel()
	defer func() {
		// chromedp says only "context deadline exceeded".
		if err != nil && context.Cause(ctx) == timeout {
			err = timeout
		}
	}()
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, browserOptions(browser)...)
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(alloc)
	defer cancelTab()
	if err := chromedp.Do(tab, chromedp.Navigate("file://"+filepath.ToSlash(file))); err != nil {
		return nil, fmt.Errorf("start %s: %w", browser, err)
	}
	// The embedded fonts must be loaded, or the PDF embeds a fallback.
	if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](`document.fonts.ready.then(() => true)`, chromedp.EvalAwaitPromise)); err != nil {
		return nil, err
	}
	res, err := chromedp.Call(tab, page.PrintToPDF, pdfParams(title))
	if err != nil {
		return nil, err
	}
	return res.Data, nil
}

// pdfParams are the print settings: the page's @page rules (orientation,
// margins) on A4, backgrounds (a board's colour) printed, and a footer
// with the title and "page N / M" in the bottom margin.
func pdfParams(title string) page.PrintToPDFParams {
	yes := true
	footer := `<div style="width:100%;margin:0 12mm;font-size:` + fmt.Sprint(MinPrintPoints) + `pt;color:#6b7682;display:flex;justify-content:space-between">` +
		`<span>` + html.EscapeString(title) + `</span><span>page <span class="pageNumber"></span> / <span class="totalPages"></span></span></div>`
	return page.PrintToPDFParams{
		PaperWidth:        a4Width,
		PaperHeight:       a4Height,
		PreferCSSPageSize: &yes,
		PrintBackground:   &yes,
		// An empty header template would print the date and URL.
		DisplayHeaderFooter: &yes,
		HeaderTemplate:      "<span></span>",
		FooterTemplate:      footer,
		GenerateTaggedPDF:   &yes,
	}
}
