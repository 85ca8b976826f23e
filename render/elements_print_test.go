package render_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/textfit"
	"github.com/lessongen/lessongen/render"
)

// Printed through the real browser, the pupil copy's board of code, a
// table and an answer space keeps them as drawn: the code in Go Mono
// (embedded), the table's written cells, its blank cells and the answer
// space empty, room to write in.
func TestPrintedCodeTableAnswerSpace(t *testing.T) {
	browser, err := render.FindBrowser("")
	if err != nil {
		t.Skipf("%v: skipping the print test", err)
	}
	poppler(t)
	pdf := filepath.Join(t.TempDir(), "handout.pdf")
	if err := os.WriteFile(pdf, write(t, allKinds, render.PDFWriter(t.Context(), browser, true)), 0o644); err != nil {
		t.Fatal(err)
	}
	page := 0
	n, _ := strconv.Atoi(pdfPages.FindStringSubmatch(tool(t, "pdfinfo", pdf))[1])
	for p := 1; p <= n; p++ {
		if strings.Contains(tool(t, "pdftotext", "-f", strconv.Itoa(p), "-l", strconv.Itoa(p), pdf, "-"), "How long to boil?") {
			page = p
		}
	}
	if page == 0 {
		t.Fatal("no printed page for the slide with code and a table")
	}
	p := strconv.Itoa(page)
	text := tool(t, "pdftotext", "-layout", "-f", p, "-l", p, pdf, "-")
	for _, want := range []string{"python3 boil.py --litres 1", "  # then 2 and 3 litres", "1 litre: 4.2 min", "litres", "minutes", "x̄ ="} {
		if !strings.Contains(text, want) {
			t.Errorf("the printed board lacks %q:\n%s", want, text)
		}
	}
	// The rows whose minutes are blank print their litres and nothing else.
	for _, litres := range []string{"2", "3"} {
		if !regexp.MustCompile(`(?m)\s{3,}` + litres + `[ \t]*$`).MatchString(text) {
			t.Errorf("row %s does not print with its minutes blank:\n%s", litres, text)
		}
	}
	if fonts := tool(t, "pdffonts", "-f", p, "-l", p, pdf); !strings.Contains(fonts, "GoMono") {
		t.Errorf("the code is not printed in Go Mono:\n%s", fonts)
	}
}

// A page embeds Go Mono (230 kB of base64) only when it draws code.
func TestMonoFontOnlyWithCode(t *testing.T) {
	face := "@font-face{font-family:\"" + textfit.MonoFamily + "\""
	if page := string(renderHTML(t, example)); strings.Contains(page, textfit.MonoFamily) {
		t.Error("the example, which has no code, embeds or names Go Mono")
	}
	if page := string(renderHTML(t, allKinds)); strings.Count(page, face) != 1 {
		t.Errorf("allkinds draws code but embeds Go Mono %d times, want once", strings.Count(page, face))
	}
}
