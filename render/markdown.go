package render

import (
	"fmt"
	"html"
	"io"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/textfit"
	"github.com/lessongen/lessongen/modality"
)

// MarkdownWriter is HTMLWriter for Marp Markdown: the pupil's copy has no
// presenter notes. The style names no font file: text is drawn in the
// viewer's sans-serif (see MarkdownWriterFonts).
func MarkdownWriter(handout bool) Writer {
	return MarkdownWriterFonts(handout, "")
}

// MarkdownWriterFonts is MarkdownWriter whose style loads the font from
// the files FontFiles names, in the folder fontDir, given relative to the
// Markdown file (Marp keeps a relative url as written, so it resolves
// beside the Markdown, or beside the HTML marp writes next to it). With
// fontDir "" no file is named.
func MarkdownWriterFonts(handout bool, fontDir string) Writer {
	return func(w io.Writer, doc *compose.Document, reg *modality.Registry, notes []AuthorNote) error {
		return writeMarkdown(w, doc, reg, notes, markdownCopy{handout: handout, fontDir: fontDir})
	}
}

// markdownCopy is which Markdown to write: the pupil's copy or the
// teacher's, and the folder of the font files ("" for none).
type markdownCopy struct {
	handout bool
	fontDir string
}

// Markdown writes doc as Marp Markdown: front matter with marp: true, one
// slide per ---, each whiteboard as inline SVG, notes as presenter
// comments.
func Markdown(w io.Writer, doc *compose.Document, reg *modality.Registry) error {
	return MarkdownWithNotes(w, doc, reg, nil)
}

// MarkdownWithNotes is Markdown with the notes subagents left for the
// author, placed as HTMLWithNotes places them.
func MarkdownWithNotes(w io.Writer, doc *compose.Document, reg *modality.Registry, notes []AuthorNote) error {
	return writeMarkdown(w, doc, reg, notes, markdownCopy{})
}

// FontFiles are the font files MarkdownWriterFonts's style loads, by
// file name: Go Regular and Go Bold, the typeface boards are measured in,
// and Go Mono, their code's.
func FontFiles() map[string][]byte {
	return map[string][]byte{fontFile[0]: textfit.TTF(false), fontFile[1]: textfit.TTF(true), monoFontFile: textfit.TTFMono()}
}

// fontFile names the regular and the bold font file; monoFontFile Go
// Mono, which code on a board is drawn in.
var fontFile = [2]string{"LessongenGo-Regular.ttf", "LessongenGo-Bold.ttf"}

const monoFontFile = "LessongenGoMono-Regular.ttf"

// The room on Marp's slide (the default theme's 1280×720) that marpStyle
// lays out: a narrower padding than the theme's 78.5 px, one line of
// slide title, one of its section and minutes, and what is left for a
// board, its viewBox scaled into it whole. A title that wraps takes more;
// the board, a flex item, then shrinks to what is left.
const (
	marpSlideH   = 720
	marpPadY     = 24
	marpPadX     = 48
	marpTitleH   = 40 // h2: 32 px type
	marpMetaH    = 34 // 18 px type on a 24 px line, 10 px below
	marpBoardMax = marpSlideH - 2*marpPadY - marpTitleH - marpMetaH
)

// marpStyle is the deck's style (the front matter's style:), loading the
// font from fontDir when it is not "".
func marpStyle(fontDir string) string {
	var b strings.Builder
	if fontDir != "" {
		for i, weight := range []int{400, 700} {
			fmt.Fprintf(&b, "@font-face { font-family: '%s'; font-weight: %d; src: url('%s') format('truetype'); }\n",
				textfit.FontFamily, weight, fontURL(fontDir, fontFile[i]))
		}
		fmt.Fprintf(&b, "@font-face { font-family: '%s'; font-weight: 400; src: url('%s') format('truetype'); }\n",
			textfit.MonoFamily, fontURL(fontDir, monoFontFile))
	}
	fmt.Fprintf(&b, "section { font-family: '%s', sans-serif; font-size: 24px; padding: %dpx %dpx; display: flex; flex-direction: column; justify-content: flex-start; }\n",
		textfit.FontFamily, marpPadY, marpPadX)
	b.WriteString("section > div { flex: none; }\n")
	// The board's block takes what the title leaves; the board fills it.
	b.WriteString("section > div:has(> svg.whiteboard) { flex: 1 1 0; min-height: 0; display: flex; flex-direction: column; }\n")
	fmt.Fprintf(&b, "section > div > h2 { font-size: 32px; line-height: %dpx; margin: 0; }\n", marpTitleH)
	b.WriteString(".slide-meta { font-size: 18px; line-height: 24px; margin: 0 0 10px; }\n")
	fmt.Fprintf(&b, "svg.whiteboard { display: block; flex: 1 1 0; min-height: 0; width: 100%%; height: auto; max-height: %dpx; }\n", marpBoardMax)
	// The theme numbers a list in a list i, ii, iii over the type the
	// quiz gives its options (quiz.OptionLabel): HTML's own rule again.
	b.WriteString("ol[type=\"A\"] { list-style-type: upper-alpha; }\n")
	// Questions flow in two columns: six of four options fit a slide.
	b.WriteString(".quiz { font-size: 22px; } .quiz p { margin: 0 0 4px; } .quiz li { margin: 0; }\n")
	b.WriteString(".quiz ol.questions { columns: 2; column-gap: 40px; } .quiz li.question { break-inside: avoid; }\n")
	// Callouts on the slide are coloured by kind, as page.css does.
	b.WriteString(".callout { border-left: 5px solid #2f5d8a; background: #eef4fa; padding: 4px 10px; margin: 4px 0; font-size: 20px; }\n")
	b.WriteString(".callout-instructor { border-color: #5b3a8c; } .callout-caution { border-color: #9b1c1c; background: #fbeeee; } .callout-tip { border-color: #1e6b3a; background: #edf7f0; }\n")
	b.WriteString(".activity { font-size: 22px; } .activity p, .activity ul, .activity h4 { margin: 0 0 4px; } .activity-meta { font-size: 16px; text-transform: uppercase; }\n")
	// The overview (the lesson's facts, then its timeline) flows in two
	// columns of the slide's height: room for a 20-slide timeline.
	b.WriteString("section > div:has(> .overview-grid) { flex: 1 1 0; min-height: 0; columns: 2; column-gap: 40px; column-fill: auto; font-size: 16px; line-height: 1.35; }\n")
	b.WriteString("section > div:has(> .overview-grid) > :is(h1, .facts) { column-span: all; }\n")
	b.WriteString("h1 { font-size: 34px; margin: 0; } .facts { font-size: 18px; margin: 0 0 6px; }\n")
	b.WriteString(".overview-grid > section { break-inside: avoid; } .overview-grid p, .overview-grid ul, .overview-grid li { margin: 0; }\n")
	b.WriteString(".overview-grid h2, section > div > h2:not(:first-child) { font-size: 20px; line-height: 26px; margin: 6px 0 2px; break-after: avoid; }\n")
	b.WriteString("table.timeline, table.sections { font-size: 14px; line-height: 1.3; } :is(table.timeline, table.sections) :is(th, td) { padding: 1px 6px; }\n")
	b.WriteString(".pending { color: #7a4a00; background: #fff8e6; border: 2px dashed #b7791f; }\n")
	return b.String()
}

// fontURL is the relative url of a font file in dir, each path segment
// percent-escaped so no quote, space or newline reaches the CSS or YAML.
func fontURL(dir, file string) string {
	var segs []string
	for _, s := range strings.Split(filepath.ToSlash(filepath.Join(dir, file)), "/") {
		segs = append(segs, url.PathEscape(s))
	}
	return strings.Join(segs, "/")
}

// writeMarkdown writes doc as Marp Markdown, the teacher's copy or
// (handout) the pupil's. A slide with more than one child (a board and a
// quiz) becomes one Marp slide per child under the same title, each with
// its own notes, so each fits.
func writeMarkdown(w io.Writer, doc *compose.Document, reg *modality.Registry, notes []AuthorNote, c markdownCopy) error {
	d, err := buildCopy(doc, reg, notes, c.handout)
	if err != nil {
		return err
	}
	var b strings.Builder
	// Marp draws inline HTML (the SVG) only when asked: marp --html.
	fmt.Fprintf(&b, "---\n# whiteboards are inline SVG: convert with marp --html\nmarp: true\ntitle: %s\npaginate: true\nstyle: |\n%s---\n\n",
		frontMatterString(d.title), indent(marpStyle(c.fontDir), "  "))
	b.WriteString(markdownBlock(d.overview))
	if d.overviewNotes != "" {
		b.WriteString(presenterComment(stripTags(d.overviewNotes)))
	}
	for _, s := range d.slides {
		notes := s.notes
		if len(s.children) == 0 {
			b.WriteString("\n---\n\n" + markdownBlock(s.head))
		}
		for _, ch := range s.children {
			b.WriteString("\n---\n\n" + markdownBlock(s.head) + markdownBlock(ch.Body))
			if notes += ch.Notes; notes != "" {
				b.WriteString(presenterComment(stripTags(notes)))
			}
			notes = ""
		}
		if notes != "" {
			b.WriteString(presenterComment(stripTags(notes)))
		}
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// presenterComment writes text as a Marp presenter note, the one HTML
// comment a render writes. Two things would turn it into something else:
//
//   - Marp reads a comment whose body parses as a YAML mapping with a
//     directive key (style:, footer:, backgroundImage: …) as a directive
//     that restyles the deck. The first line, plain text with no colon,
//     makes the body a YAML scalar or a YAML error, never a mapping,
//     whatever the notes say (marpit's directives/yaml.js: only an object
//     is a directive).
//   - HTML ends a comment at "-->" and "--!>" (and Marp at "--->"), and
//     warns of "<!--" inside one. None can form without "--", so every
//     second hyphen of a run gets a zero-width space before it: the note
//     reads as written.
func presenterComment(text string) string {
	var b strings.Builder
	b.WriteString("<!--\n" + presenterNoteHead + "\n")
	var prev rune
	for _, r := range text {
		if r == '-' && prev == '-' {
			b.WriteRune('\u200b')
		}
		b.WriteRune(r)
		prev = r
	}
	b.WriteString("\n-->\n")
	return b.String()
}

// presenterNoteHead opens every presenter note; see presenterComment.
const presenterNoteHead = "Notes"

// frontMatterString quotes s for the front matter as a YAML double-quoted
// string. Marp reads it as the title; a previewer that shows front matter
// as Markdown must find no link, image or HTML in it, so of ASCII only
// letters, digits, spaces and punctuation that means nothing without
// [ ] < > (/,.:;-'?!()%) are kept, and the rest, controls and bidi
// overrides are \u escapes.
func frontMatterString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(" /,.:;-'?!()%", r),
			r > unicode.MaxASCII && unicode.IsPrint(r):
			b.WriteRune(r)
		case r > 0xffff:
			fmt.Fprintf(&b, "\\U%08x", r)
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// markdownBlock keeps an HTML fragment as one Markdown HTML block: blank
// lines would end it, and what follows would be read as Markdown (an
// image fetched, a link followed), so none are left inside. CommonMark
// ends a line at a CR too, so lines are split there as well.
func markdownBlock(s string) string {
	var out []string
	for _, l := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return "<div>\n" + strings.Join(out, "\n") + "\n</div>\n\n"
}

// templates matches an HTML fragment's templates, which never show.
var templates = regexp.MustCompile(`(?s)<template\b.*?</template>`)

// stripTags turns an HTML fragment into plain text for a comment.
func stripTags(s string) string {
	// A template (a quiz's answer for present mode's reveal) is never
	// shown; the key beside it already says it.
	s = templates.ReplaceAllString(s, "")
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
			b.WriteByte(' ')
		case !in:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(html.UnescapeString(b.String())), " ")
}

// indent prefixes every line of s.
func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n"+prefix) + "\n"
}
