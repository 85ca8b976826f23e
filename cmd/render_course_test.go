package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/pptx/pptxtest"
)

// renderCourseFiles is a course whose first lesson holds hostile text,
// whose two lessons define "denominator" two ways, with a teacher's note
// and a pending third lesson.
var renderCourseFiles = map[string]string{
	"course.yaml": `version: 1
course:
  title: "Fractions <script>alert(1)</script>"
  subject: maths
  grade: Year 5
  outcomes: [Add & subtract fractions]
lessons:
  - {file: lessons/01-equivalent.yaml}
  - {file: lessons/02-adding.yaml}
  - !pending "a lesson on subtracting fractions"
`,
	"lessons/01-equivalent.yaml": `version: 1
metadata:
  title: "Equivalent <img src=x onerror=alert(2)>"
  outcome: I can find equivalent fractions
  key_questions:
    - When are two fractions equal?
  objectives: [Find fractions equal to a given fraction]
  vocabulary:
    - {term: "<b>denominator</b>", definition: the bottom number of a fraction}
    - {term: numerator, definition: the top number}
slides:
  - id: halves
    title: Halves
    notes: TEACHER-ONLY say this quietly
  - id: thirds
    title: Thirds
`,
	"lessons/02-adding.yaml": `version: 1
metadata:
  title: Adding fractions
  objectives: [Add fractions with the same denominator]
  vocabulary:
    - {term: "<b>Denominator</b>", definition: how many equal parts the whole is cut into}
    - {term: numerator, definition: The top number}
slides:
  - id: add
    title: Add them
`,
}

var hrefRE = regexp.MustCompile(`<a href="([^"]*)">`)

// render course.yaml -o elsewhere writes each lesson's page beside its
// lesson file and an index whose every link resolves to a file written;
// the glossary gives each term with its lesson, a term defined two ways
// with both; the pending lesson is listed; hostile text is escaped; and
// --handout passes through (no teacher's note in any deck).
func TestRenderCourseIndex(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, renderCourseFiles)
	index := filepath.Join(dir, "site", "index.html")
	os.MkdirAll(filepath.Dir(index), 0o755)
	_, stderr, code := run(t, "render", filepath.Join(dir, "course.yaml"), "-o", index, "--format", "pptx", "--handout")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	page := readText(t, index)
	links := hrefRE.FindAllStringSubmatch(page, -1)
	if len(links) != 4 {
		t.Errorf("%d links, want an HTML page and a deck for each of 2 lessons", len(links))
	}
	for _, l := range links {
		if _, err := os.Stat(filepath.Join(filepath.Dir(index), filepath.FromSlash(l[1]))); err != nil {
			t.Errorf("link %s: %v", l[1], err)
		}
	}
	for _, want := range []string{
		"&lt;b&gt;denominator&lt;/b&gt;</dt>",
		"the bottom number of a fraction <span class=\"from\">(lesson 1, Equivalent &lt;img src=x onerror=alert(2)&gt;)",
		"how many equal parts the whole is cut into <span class=\"from\">(lesson 2, Adding fractions)",
		"the top number <span class=\"from\">(lesson 1, Equivalent &lt;img src=x onerror=alert(2)&gt;; lesson 2, Adding fractions)",
		"Fractions &lt;script&gt;alert(1)&lt;/script&gt;", "Add &amp; subtract fractions",
		"I can find equivalent fractions", "When are two fractions equal?", "Find fractions equal to a given fraction",
		"pending</span></h3>\n<p>a lesson on subtracting fractions</p>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the index lacks %q", want)
		}
	}
	if strings.Contains(page, "<script>alert") || strings.Contains(page, "<img src=x") || strings.Contains(page, "<b>denominator") {
		t.Error("hostile text reached the index unescaped")
	}
	if deck := readText(t, filepath.Join(dir, "lessons", "01-equivalent.html")); strings.Contains(deck, "TEACHER-ONLY") {
		t.Error("--handout did not reach the lesson's page: its notes are in it")
	}
}

// An index or deck that would overwrite an input is refused, nothing
// written; so is a course with a missing lesson file (exit 2, named at
// its line).
func TestRenderCourseRefuses(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, renderCourseFiles)
	course := filepath.Join(dir, "course.yaml")
	for _, out := range []string{course, filepath.Join(dir, "lessons", "02-adding.yaml")} {
		if _, stderr, code := run(t, "render", course, "-o", out); code != ExitUsage {
			t.Errorf("-o %s: exit %d, want %d\n%s", out, code, ExitUsage, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "lessons", "01-equivalent.html")); err == nil {
		t.Error("a refused render wrote a lesson's page")
	}
	// A lesson whose page would be the course file's index.
	writeFiles(t, dir, map[string]string{"course.yml": renderCourseFiles["lessons/02-adding.yaml"],
		"c2.yaml": strings.Replace(renderCourseFiles["course.yaml"], "lessons/02-adding.yaml", "course.yml", 1)})
	if _, stderr, code := run(t, "render", filepath.Join(dir, "c2.yaml"), "-o", filepath.Join(dir, "course.html")); code != ExitUsage {
		t.Errorf("an index over a lesson's page: exit %d\n%s", code, stderr)
	}
	os.Remove(filepath.Join(dir, "lessons", "02-adding.yaml"))
	_, stderr, code := run(t, "render", course)
	if code != ExitUsage || !strings.Contains(stderr, "course.yaml:9:") || !strings.Contains(stderr, "lessons/02-adding.yaml") {
		t.Errorf("missing lesson: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "course.html")); err == nil {
		t.Error("a course with a missing lesson wrote its index")
	}
}

// render course.yaml --format pdf is one book: at least as many pages as
// the lessons printed alone, its text (course, lessons, glossary)
// extractable; --handout leaves the teacher's notes out of it.
func TestRenderCourseBookPDF(t *testing.T) {
	for _, tool := range []string{"chromium", "pdfinfo", "pdftotext"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
	}
	dir := t.TempDir()
	writeFiles(t, dir, renderCourseFiles)
	lessonPages := 0
	for _, l := range []string{"01-equivalent", "02-adding"} {
		out := filepath.Join(dir, l+".pdf")
		if _, stderr, code := run(t, "render", filepath.Join(dir, "lessons", l+".yaml"), "-o", out); code != 0 {
			t.Fatalf("%s: exit %d\n%s", l, code, stderr)
		}
		lessonPages += pdfPages(t, out)
	}
	for _, handout := range []bool{false, true} {
		book := filepath.Join(dir, "book.pdf")
		args := []string{"render", filepath.Join(dir, "course.yaml"), "--format", "pdf", "-o", book}
		if handout {
			args = append(args, "--handout")
		}
		if _, stderr, code := run(t, args...); code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		if n := pdfPages(t, book); n < lessonPages+2 {
			t.Errorf("the book has %d pages, want at least the lessons' %d, the index and the glossary", n, lessonPages)
		}
		text, err := exec.Command("pdftotext", book, "-").Output()
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"Fractions <script>alert(1)</script>", "Glossary", "how many equal parts", "Adding fractions", "Halves", "a lesson on subtracting fractions"} {
			if !strings.Contains(string(text), want) {
				t.Errorf("handout %v: the book's text lacks %q", handout, want)
			}
		}
		if got := strings.Contains(string(text), "TEACHER-ONLY"); got == handout {
			t.Errorf("handout %v: teacher's note in the book: %v", handout, got)
		}
	}
}

func pdfPages(t *testing.T, file string) int {
	t.Helper()
	out, err := exec.Command("pdfinfo", file).Output()
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`Pages:\s+(\d+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("pdfinfo %s:\n%s", file, out)
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

func readText(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// A course's handout is refused, as a lesson's is, while a lesson has a
// pending spot (its hint is for the model); --allow-pending prints a gap.
func TestRenderCourseHandoutPending(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for k, v := range renderCourseFiles {
		files[k] = v
	}
	files["lessons/02-adding.yaml"] = strings.Replace(files["lessons/02-adding.yaml"], "objectives: [Add fractions with the same denominator]", `objectives: !pending "HINT-OBJECTIVES for the model"`, 1)
	writeFiles(t, dir, files)
	index := filepath.Join(dir, "index.html")
	_, stderr, code := run(t, "render", filepath.Join(dir, "course.yaml"), "-o", index, "--handout")
	if code != 2 || !strings.Contains(stderr, `metadata.objectives - "HINT-OBJECTIVES for the model"`) {
		t.Errorf("exit %d, want 2 naming the pending objectives:\n%s", code, stderr)
	}
	if _, err := os.Stat(index); err == nil {
		t.Error("the refused handout wrote the index")
	}
	if _, stderr, code = run(t, "render", filepath.Join(dir, "course.yaml"), "-o", index, "--handout", "--allow-pending"); code != 0 {
		t.Fatalf("--allow-pending: exit %d:\n%s", code, stderr)
	}
	if page := readText(t, filepath.Join(dir, "lessons", "02-adding.html")); strings.Contains(page, "HINT-OBJECTIVES") || !strings.Contains(page, `class="gap"`) {
		t.Error("the --allow-pending handout prints the hint, or no gap for it")
	}
	// The decks draw the gap too, none of the hint.
	if _, stderr, code = run(t, "render", filepath.Join(dir, "course.yaml"), "-o", index, "--format", "pptx", "--handout", "--allow-pending"); code != 0 {
		t.Fatalf("--allow-pending --format pptx: exit %d:\n%s", code, stderr)
	}
	deck, err := os.ReadFile(filepath.Join(dir, "lessons", "02-adding.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	for name, part := range pptxtest.Parts(t, deck) {
		if strings.Contains(string(part), "HINT-OBJECTIVES") {
			t.Errorf("the --allow-pending deck prints the hint in %s", name)
		}
	}
}
