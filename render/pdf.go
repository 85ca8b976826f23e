package render

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/chromedp/cdproto/emulation"
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

// The PDF's paper, A4 in inches: page.css's @page names only the
// orientation and margins, so the browser's print dialog keeps the
// printer's paper; the PDF needs one.
const (
	a4Width  = 8.27
	a4Height = 11.69
)

// PDFWriter prints the page HTMLWriter(handout) writes to PDF in the
// headless browser at browser (see FindBrowser): the page's own print
// stylesheet, one slide per sheet, fonts embedded, the lesson's title
// and page numbers at the foot of each sheet.
func PDFWriter(ctx context.Context, browser string, handout bool) Writer {
	return func(w io.Writer, doc *compose.Document, reg *modality.Registry, notes []AuthorNote) error {
		var buf bytes.Buffer
		if err := writeHTML(&buf, doc, reg, notes, HTMLOptions{Handout: handout}); err != nil {
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
	if err := fitSheets(tab); err != nil {
		return nil, err
	}
	res, err := chromedp.Call(tab, page.PrintToPDF, pdfParams(title))
	if err != nil {
		return nil, err
	}
	return res.Data, nil
}

// The sheet's printable area in CSS pixels (96 per inch): A4 less
// page.css's @page margins (12 mm at the sides and top, 16 mm below).
const (
	sheetWidthPx  = (a4Width - 24/25.4) * 96
	sheetHeightPx = (a4Height - 28/25.4) * 96
)

// fitSheets lays the page out as it prints, on the sheet's width, and
// shrinks (CSS zoom) each page taller than a sheet until it fits one: a
// slide whose notes and answer key run long still prints on one sheet,
// never spilling a line or two onto a near-empty next one.
func fitSheets(tab context.Context) error {
	if _, err := chromedp.Call(tab, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
		return err
	}
	if err := chromedp.Do(tab, chromedp.EmulateViewport(int64(math.Round(sheetWidthPx)), int64(math.Round(sheetHeightPx)))); err != nil {
		return err
	}
	// A little under the sheet: rounding must not push a page over. A
	// board keeps the page's width as it zooms, so one pass falls short:
	// zoom again until the page fits, down to half size (past that a
	// page spills over rather than become unreadable). Each pass reads
	// every height before it zooms any: a read after a zoom lays the
	// whole document out again, which, page by page, made a long
	// lesson's print grow with the square of its slides.
	js := fmt.Sprintf(`(() => {
		const avail = %f;
		let todo = [...document.querySelectorAll(".page")].map(p => ({p, z: 1}));
		for (let pass = 0; pass < 50 && todo.length > 0; pass++) {
			const hs = todo.map(t => t.p.getBoundingClientRect().height);
			todo = todo.filter((t, i) => {
				if (hs[i] <= avail || t.z <= 0.5) {
					return false;
				}
				t.z = Math.max(0.5, t.z * avail / hs[i]);
				t.p.style.zoom = String(t.z);
				return true;
			});
		}
		return true;
	})()`, sheetHeightPx*0.97)
	_, err := chromedp.Run(tab, chromedp.Evaluate[bool](js))
	return err
}

// pdfParams are the print settings: the page's @page rules (orientation,
// margins) on A4, backgrounds (a board's colour) printed, and a footer
// with the title and "page N / M" in the bottom margin.
func pdfParams(title string) page.PrintToPDFParams {
	yes := true
	footer := `<div style="width:100%;margin:0 12mm;font-size:9px;color:#6b7682;display:flex;justify-content:space-between">` +
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
