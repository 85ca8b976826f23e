package render_test

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/lessongen/lessongen/render"
)

// pdfRun is a run of text a PDF draws: its font size in points as
// printed (the Tf size through the text and graphics matrices) and where
// it starts, in points from the sheet's bottom left.
type pdfRun struct {
	Size, X, Y float64
}

var (
	pdfObj      = regexp.MustCompile(`(?m)^(\d+) 0 obj\b`)
	pdfRef      = regexp.MustCompile(`(\d+) 0 R`)
	pdfLength   = regexp.MustCompile(`/Length (\d+)(\s+0 R)?`)
	pdfKids     = regexp.MustCompile(`/Kids\s*\[([^\]]*)\]`)
	pdfPagesRef = regexp.MustCompile(`/Pages (\d+) 0 R`)
	pdfContent  = regexp.MustCompile(`/Contents\s*(\[[^\]]*\]|\d+ 0 R)`)
)

// pdfTextRuns reads, sheet by sheet, every run of text a PDF as Chromium
// (Skia) writes it draws: objects uncompressed, streams Flate-compressed,
// text only in the sheets' own content streams. It reads the text
// matrix (Tf, Tm, Td) and the graphics matrix (cm, q, Q) as a viewer
// does, so a page zoomed to fit shows up as the smaller size it prints
// at. Anything it cannot follow (text in a form, an inline image) is an
// error, never a silent pass.
func pdfTextRuns(pdf []byte) ([][]pdfRun, error) {
	objs := map[string][]byte{}
	locs := pdfObj.FindAllSubmatchIndex(pdf, -1)
	for i, l := range locs {
		end := len(pdf)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		objs[string(pdf[l[2]:l[3]])] = pdf[l[1]:end]
	}
	stream := func(body []byte) ([]byte, error) {
		at := bytes.Index(body, []byte("stream"))
		if at < 0 {
			return nil, fmt.Errorf("no stream")
		}
		data := body[at+len("stream"):]
		data = bytes.TrimPrefix(bytes.TrimPrefix(data, []byte("\r")), []byte("\n"))
		if m := pdfLength.FindSubmatch(body[:at]); m != nil && m[2] == nil {
			n, _ := strconv.Atoi(string(m[1]))
			if n <= len(data) {
				data = data[:n]
			}
		}
		if !bytes.Contains(body[:at], []byte("/FlateDecode")) {
			return data, nil
		}
		r, err := zlib.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		return io.ReadAll(r)
	}
	for n, body := range objs {
		dict := body
		if at := bytes.Index(body, []byte("stream")); at >= 0 {
			dict = body[:at]
		}
		if bytes.Contains(dict, []byte("/Subtype /Form")) && bytes.Contains(dict, []byte("/Font")) {
			return nil, fmt.Errorf("object %s: a form with fonts; this reader does not follow text into forms", n)
		}
	}
	// The sheets in order: the catalog's page tree, depth first.
	var sheets []string
	var walk func(n string, depth int)
	walk = func(n string, depth int) {
		body := objs[n]
		if k := pdfKids.FindSubmatch(body); k != nil && depth < 32 {
			for _, r := range pdfRef.FindAllSubmatch(k[1], -1) {
				walk(string(r[1]), depth+1)
			}
			return
		}
		sheets = append(sheets, n)
	}
	for _, body := range objs {
		if bytes.Contains(body, []byte("/Type /Catalog")) {
			if m := pdfPagesRef.FindSubmatch(body); m != nil {
				walk(string(m[1]), 0)
			}
		}
	}
	if len(sheets) == 0 {
		return nil, fmt.Errorf("no pages found")
	}
	var out [][]pdfRun
	for _, n := range sheets {
		m := pdfContent.FindSubmatch(objs[n])
		if m == nil {
			out = append(out, nil)
			continue
		}
		var content []byte
		for _, r := range pdfRef.FindAllSubmatch(m[1], -1) {
			data, err := stream(objs[string(r[1])])
			if err != nil {
				return nil, fmt.Errorf("page object %s, content %s: %w", n, r[1], err)
			}
			content = append(append(content, data...), '\n')
		}
		runs, err := contentRuns(content)
		if err != nil {
			return nil, fmt.Errorf("page object %s: %w", n, err)
		}
		out = append(out, runs)
	}
	return out, nil
}

// matrix is a PDF transformation matrix [a b c d e f].
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

// mul is m then n: a point goes through m first.
func (m matrix) mul(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

// contentRuns interprets a content stream's text and matrix operators.
func contentRuns(content []byte) ([]pdfRun, error) {
	var runs []pdfRun
	ctm, tm, tlm := identity, identity, identity
	var stack []matrix
	var nums []float64
	size := 0.0
	show := func() {
		t := matrix{size, 0, 0, size, 0, 0}.mul(tm).mul(ctm)
		runs = append(runs, pdfRun{Size: math.Hypot(t[2], t[3]), X: t[4], Y: t[5]})
	}
	operands := func() matrix { // the last six operands, as a matrix
		var m matrix
		if len(nums) < 6 {
			return identity
		}
		copy(m[:], nums[len(nums)-6:])
		return m
	}
	for i := 0; i < len(content); {
		c := content[i]
		switch {
		case c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0:
			i++
			continue
		case c == '%':
			for i < len(content) && content[i] != '\n' && content[i] != '\r' {
				i++
			}
			continue
		case c == '(':
			i = skipString(content, i)
			nums = append(nums, math.NaN())
			continue
		case c == '<' && i+1 < len(content) && content[i+1] == '<', c == '>' && i+1 < len(content) && content[i+1] == '>':
			i += 2
			continue
		case c == '<':
			j := bytes.IndexByte(content[i:], '>')
			if j < 0 {
				return nil, fmt.Errorf("unterminated hex string")
			}
			i += j + 1
			nums = append(nums, math.NaN())
			continue
		case c == '[' || c == ']' || c == '{' || c == '}':
			i++
			continue
		case c == '/':
			j := i + 1
			for j < len(content) && !bytes.ContainsRune([]byte(" \n\r\t\f/[]()<>{}%"), rune(content[j])) {
				j++
			}
			i = j
			nums = append(nums, math.NaN())
			continue
		}
		j := i
		for j < len(content) && !bytes.ContainsRune([]byte(" \n\r\t\f/[]()<>{}%"), rune(content[j])) {
			j++
		}
		tok := string(content[i:j])
		i = j
		if v, err := strconv.ParseFloat(tok, 64); err == nil {
			nums = append(nums, v)
			continue
		}
		switch tok {
		case "q":
			stack = append(stack, ctm)
		case "Q":
			if len(stack) == 0 {
				return nil, fmt.Errorf("Q without q")
			}
			ctm, stack = stack[len(stack)-1], stack[:len(stack)-1]
		case "cm":
			ctm = operands().mul(ctm)
		case "BT":
			tm, tlm = identity, identity
		case "Tf":
			if len(nums) > 0 {
				size = nums[len(nums)-1]
			}
		case "Tm":
			tm = operands()
			tlm = tm
		case "Td", "TD":
			if len(nums) >= 2 {
				tlm = matrix{1, 0, 0, 1, nums[len(nums)-2], nums[len(nums)-1]}.mul(tlm)
				tm = tlm
			}
		case "Tj", "TJ", "'", "\"":
			show()
		case "BI":
			return nil, fmt.Errorf("an inline image: this reader does not skip one")
		}
		nums = nums[:0]
	}
	return runs, nil
}

// skipString returns the index just past the literal string that opens
// at content[i], with its escapes and balanced parentheses.
func skipString(content []byte, i int) int {
	depth := 0
	for ; i < len(content); i++ {
		switch content[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return i
}

// TestPDFTextSizes prints the teacher's and the pupil's copies of lessons
// with a long overview and long notes, and reads the PDF's own text
// matrices: no text on any sheet is smaller than render.MinPrintPoints
// (a sheet too full continues on the next, rather than shrink).
func TestPDFTextSizes(t *testing.T) {
	browser, err := render.FindBrowser("")
	if err != nil {
		t.Skipf("%v: skipping the PDF test", err)
	}
	poppler(t)
	dir := shotDir(t)
	for i, c := range []struct {
		lesson  string
		handout bool
	}{{allKinds, false}, {allKinds, true}, {example, false}, {crowdedLesson(t), false}} {
		file := filepath.Join(dir, fmt.Sprintf("sizes-%d.pdf", i))
		pdf := write(t, c.lesson, render.PDFWriter(t.Context(), browser, c.handout))
		if err := os.WriteFile(file, pdf, 0o644); err != nil {
			t.Fatal(err)
		}
		sheets, err := pdfTextRuns(pdf)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		smallest := math.Inf(1)
		for s, runs := range sheets {
			small := 0
			for _, r := range runs {
				smallest = min(smallest, r.Size)
				if r.Size < render.MinPrintPoints-0.05 {
					if small++; small <= 3 {
						t.Errorf("%s (handout %v), sheet %d: text at %.1f pt (%q), want at least %g pt", filepath.Base(c.lesson), c.handout, s+1, r.Size, wordAt(t, file, s+1, r), render.MinPrintPoints)
					}
				}
			}
			if small > 3 {
				t.Errorf("… and %d more runs of text under %g pt on sheet %d", small-3, render.MinPrintPoints, s+1)
			}
		}
		t.Logf("%s (handout %v): %d sheets, smallest text %.2f pt", filepath.Base(c.lesson), c.handout, len(sheets), smallest)
	}
}

var bboxWord = regexp.MustCompile(`<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>`)

// wordAt is the word pdftotext finds nearest where run r starts on
// sheet, for a message a person can act on.
func wordAt(t *testing.T, file string, sheet int, r pdfRun) string {
	t.Helper()
	out := tool(t, "pdftotext", "-bbox", "-f", strconv.Itoa(sheet), "-l", strconv.Itoa(sheet), file, "-")
	// pdftotext measures from the sheet's top, the PDF from its bottom.
	height := 0.0
	if m := regexp.MustCompile(`<page width="[\d.]+" height="([\d.]+)"`).FindStringSubmatch(out); m != nil {
		height, _ = strconv.ParseFloat(m[1], 64)
	}
	best, word := math.Inf(1), ""
	for _, m := range bboxWord.FindAllStringSubmatch(out, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		y, _ := strconv.ParseFloat(m[4], 64)
		if d := math.Hypot(x-r.X, y-(height-r.Y)); d < best {
			best, word = d, m[5]
		}
	}
	return word
}
