package render_test

import (
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/pptx/pptxtest"
	"github.com/lessongen/lessongen/render"
)

// The allkinds lesson's activity and callouts: what pupils see, and what
// is the teacher's alone (the model answer, the instructor's callout).
var (
	pupilSees = []string{
		"Tell your partner why the lid of a boiling pan rattles.", "pairs", "4 min",
		"names steam", "says it takes more room", "when water boils it turns into",
		"Kettles are hot: the teacher pours.",
	}
	teacherAlone = []string{
		"Steam takes up more room than the water it came from and pushes the lid up.",
		"Give pairs a minute before asking anyone.",
	}
)

// The model answer and the instructor's callout are in the teacher's copy
// and absent from the pupil's, in HTML, Markdown and PowerPoint; the task,
// its criteria and support and the callout shown on the slide are in both.
// In present mode the teacher's part is in the slide's notes, which the
// class view hides (page.css: body.present .page .notes).
func TestActivityAndCalloutsTeacherOnly(t *testing.T) {
	writers := []struct {
		name string
		w    func(bool) render.Writer
	}{{"html", render.HTMLWriter}, {"md", render.MarkdownWriter}, {"pptx", func(h bool) render.Writer { return render.PPTXWriter(h) }}}
	for _, f := range writers {
		teacher, pupil := text(t, f.name, write(t, allKinds, f.w(false))), text(t, f.name, write(t, allKinds, f.w(true)))
		for _, s := range teacherAlone {
			if !strings.Contains(teacher, s) {
				t.Errorf("%s: the teacher copy lacks %q", f.name, s)
			}
			if strings.Contains(pupil, s) {
				t.Errorf("%s: the handout holds %q", f.name, s)
			}
		}
		for _, s := range pupilSees {
			if f.name == "pptx" {
				s = strings.ToUpper(s) // the deck's label line is in capitals
				pupil = strings.ToUpper(pupil)
			}
			if !strings.Contains(pupil, s) {
				t.Errorf("%s: the handout lacks %q", f.name, s)
			}
		}
	}
	present := string(write(t, allKinds, render.HTMLWriterWith(render.HTMLOptions{Present: true})))
	page := present[strings.Index(present, `id="slide-explain"`):]
	page = page[:strings.Index(page, "<footer>")]
	notes := page[strings.Index(page, `<aside class="notes">`):]
	for _, s := range teacherAlone {
		if !strings.Contains(notes, s) || strings.Contains(strings.TrimSuffix(page, notes), s) {
			t.Errorf("present: %q is not kept to the slide's notes", s)
		}
	}
}

// text is what a rendering holds as text: the file itself, or the text
// runs of a deck's parts (slides, notes pages) one a line.
func text(t *testing.T, kind string, data []byte) string {
	t.Helper()
	if kind != "pptx" {
		return string(data)
	}
	var b strings.Builder
	for _, part := range pptxtest.Parts(t, data) {
		b.WriteString(strings.Join(pptxtest.Texts(part), "") + "\n")
	}
	return b.String()
}
