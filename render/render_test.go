package render_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/lessongen/lessongen/cmd"
	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/render"
)

var update = flag.Bool("update", false, "rewrite the golden files and docs/render-example.png")

const example = "../examples/photosynthesis/lesson.yaml"

func registry(t testing.TB) *modality.Registry {
	t.Helper()
	reg, err := cmd.Registry()
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func load(t testing.TB, path string, reg *modality.Registry) *compose.Document {
	t.Helper()
	doc, err := compose.Load(path, reg)
	if err == nil {
		err = doc.LoadAll()
	}
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func renderHTML(t testing.TB, path string) []byte {
	t.Helper()
	reg := registry(t)
	var b bytes.Buffer
	if err := render.HTML(&b, load(t, path, reg), reg); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// fontFaces are the embedded fonts: 400 kB of base64 that textfit's own
// tests cover, left out of the golden file.
var fontFaces = regexp.MustCompile(`(?m)^( *)@font-face\{.*\}$`)

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	got = fontFaces.ReplaceAll(got, []byte("${1}@font-face{/* embedded font */}"))
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./render/ -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("render differs from %s; look at the difference and rerun with -update if it is intended:\n%s", path, firstDiff(got, want))
	}
}

func firstDiff(a, b []byte) string {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range max(len(la), len(lb)) {
		var x, y []byte
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if !bytes.Equal(x, y) {
			return "line " + strconv.Itoa(i+1) + ":\n got: " + string(x) + "\nwant: " + string(y)
		}
	}
	return ""
}

func TestGoldenExampleHTML(t *testing.T) {
	golden(t, "photosynthesis.html", renderHTML(t, example))
}

// The example's Markdown as render -o lesson.md writes it: its style
// loads the font from lesson.fonts/ (allkinds.md has no font file).
func TestGoldenExampleMarkdown(t *testing.T) {
	reg := registry(t)
	var b bytes.Buffer
	if err := render.MarkdownWriterFonts(false, "lesson.fonts")(&b, load(t, example, reg), reg, nil); err != nil {
		t.Fatal(err)
	}
	golden(t, "photosynthesis.md", b.Bytes())
}

// The same lesson renders to the same bytes every time: nothing in the
// page depends on map order or the clock.
func TestRenderIsDeterministic(t *testing.T) {
	first := renderHTML(t, example)
	for range 3 {
		if !bytes.Equal(first, renderHTML(t, example)) {
			t.Fatal("two renders of the example differ")
		}
	}
}

// allKinds has every element kind, a quiz, pending spots of every sort and
// text in Latin, CJK, Hebrew and Arabic.
const allKinds = "testdata/allkinds/lesson.yaml"

func TestGoldenAllKindsHTML(t *testing.T) {
	got := renderHTML(t, allKinds)
	for _, want := range []string{
		"水在零度结冰", "מים (water)", "الماء يتجمد", // every script reaches the page
		`class="el equation"`, `class="el image"`, `class="el arrow"`, `class="el shape"`, `class="el text"`,
		`class="el code"`, `class="el table"`, `class="el blank"`, `class="blank-cell"`, "pending code: the command for 2 litres",
		"pending element: a small diagram of the water cycle", "pending text: one line on why steam is invisible",
	} {
		if !bytes.Contains(got, []byte(want)) {
			t.Errorf("render lacks %q", want)
		}
	}
	golden(t, "allkinds.html", got)
}

func TestGoldenAllKindsMarkdown(t *testing.T) {
	reg := registry(t)
	var b bytes.Buffer
	if err := render.Markdown(&b, load(t, allKinds, reg), reg); err != nil {
		t.Fatal(err)
	}
	golden(t, "allkinds.md", b.Bytes())
}
