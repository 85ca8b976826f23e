package render_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/render"
)

// renderFile writes lesson (YAML) to a temporary folder and renders it as
// Markdown, or HTML when html is true.
func renderFile(t testing.TB, lesson string, html bool) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "lesson.yaml")
	if err := os.WriteFile(path, []byte(lesson), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := registry(t)
	doc := load(t, path, reg)
	var b bytes.Buffer
	write := render.Markdown
	if html {
		write = render.HTML
	}
	if err := write(&b, doc, reg); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// htmlComment is an HTML comment as a browser's tokenizer ends it: at the
// first "-->" or "--!>" (or at once for "<!-->" and "<!--->").
var htmlComment = regexp.MustCompile(`(?s)<!--(>|->|.*?--!?>)`)

// Speaker notes reach Marp as presenter notes whatever they say: no note
// is read as a directive (a YAML mapping), and none ends its comment
// early. The notes below are what set_notes can write.
func TestMarkdownNotesStayPresenterNotes(t *testing.T) {
	for _, note := range []string{
		"style: section{background:url(http://example.invalid/x)}",
		"footer: hostile-footer",
		"header: hostile-header",
		"backgroundImage: url(http://example.invalid/bg.png)",
		"class: invert",
		"paginate: false",
		"theme: gaia",
		"_class: lead",
		"'style': x",
		`"footer": x`,
		"{style: x}",
		"- style: x",
		"? style\n: x",
		"style: |\n  section { color: red }",
		"style: a\nfooter: b\nheader: c",
		"---\nstyle: x",
		"x\n---\nfooter: y",
		"...\nstyle: x",
		"prettier-ignore",
		"x --> <script>window.__pwned=1</script>",
		"x --!><script>window.__pwned=1</script>",
		"x ---><b>y</b>",
		"x <!-- y",
		"> x",
		"-> x",
		"x <!-",
		"x --",
		"x ----- y",
	} {
		lesson := "version: 1\nmetadata: {title: T}\nslides:\n  - id: s\n    title: S\n    notes: " + yamlString(t, note) + "\n"
		md := string(renderFile(t, lesson, false))
		comments := htmlComment.FindAllString(md, -1)
		if len(comments) != 1 {
			t.Errorf("notes %q: %d comments in the Markdown, want 1: %q", note, len(comments), comments)
			continue
		}
		c := comments[0]
		if !strings.HasSuffix(c, "\n-->") {
			t.Errorf("notes %q: the comment ends early: %q", note, c)
		}
		body := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(c, "<!--"), "-->"))
		if strings.Contains(body, "--") {
			t.Errorf("notes %q: comment body %q holds \"--\"", note, body)
		}
		// Marp (marpit's directives/yaml.js) takes a comment as directives
		// when its body loads as a YAML mapping; a scalar or an error is a
		// note.
		var v any
		if err := yaml.Unmarshal([]byte(body), &v); err == nil {
			if reflect.ValueOf(v).Kind() == reflect.Map {
				t.Errorf("notes %q: comment body %q is a YAML mapping, which Marp reads as directives", note, body)
			}
		}
		// The note arrives as written, less the zero-width spaces that
		// split "--", with its lines joined.
		got := strings.ReplaceAll(body, "\u200b", "")
		if want := strings.Join(strings.Fields(note), " "); !strings.HasSuffix(got, "\n"+want) {
			t.Errorf("notes %q: presenter note %q, want it to end with %q", note, got, want)
		}
	}
}

// yamlEscape is a \u or \U escape of a YAML double-quoted string.
var yamlEscape = regexp.MustCompile(`\\u[0-9a-f]{4}|\\U[0-9a-f]{8}`)

// yamlString quotes s as a YAML double-quoted scalar.
func yamlString(t testing.TB, s string) string {
	t.Helper()
	n := yaml.Node{Kind: yaml.ScalarNode, Style: yaml.DoubleQuotedStyle, Value: s}
	b, err := yaml.Marshal(&n)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// The front matter keeps a hostile title as written for Marp (YAML reads
// it back exactly), while its raw text holds no character that Markdown
// or HTML would act on.
func TestMarkdownTitleInFrontMatter(t *testing.T) {
	for _, a := range attacks {
		title := a + " 水 / π: (x)!"
		md := string(renderFile(t, "version: 1\nmetadata: {title: "+yamlString(t, title)+"}\nslides: []\n", false))
		fm, _, ok := strings.Cut(strings.TrimPrefix(md, "---\n"), "\n---\n")
		if !ok {
			t.Fatalf("no front matter in:\n%.300s", md)
		}
		var v struct{ Title string }
		if err := yaml.Unmarshal([]byte(fm), &v); err != nil || v.Title != title {
			t.Errorf("title %q reads back as %q (%v)", title, v.Title, err)
		}
		line := fm[strings.Index(fm, "\ntitle: ")+1:]
		line = line[:strings.IndexByte(line, '\n')]
		raw := yamlEscape.ReplaceAllString(line[len(`title: "`):len(line)-1], "")
		if strings.ContainsAny(raw, "<>[]&`\\\"\r\x1b\u202e") {
			t.Errorf("front matter line %q holds a character Markdown or HTML acts on", line)
		}
	}
}

// Every field's HTML stays inside its Markdown HTML block: CommonMark ends
// a block at a blank line and a line at CR as at LF, so neither may come
// from a field, or the rest would be read as Markdown (a live image, a
// link).
func TestMarkdownBlocksHoldTogether(t *testing.T) {
	for name, a := range attacks {
		_, md := renderHostile(t, hostileLesson(t, a), hostileNotes(a))
		if bytes.ContainsRune(md, '\r') {
			t.Errorf("%s: a CR reaches the Markdown", name)
		}
		in := false
		for i, l := range strings.Split(string(md), "\n") {
			switch {
			case l == "<div>":
				in = true
			case l == "</div>":
				in = false
			case in && strings.Trim(l, " \t") == "":
				t.Errorf("%s: line %d, a blank line inside an HTML block", name, i+1)
			}
		}
	}
}
