package conformance_test

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/cmd"
	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/modality"
)

// render: each format asks every kind to draw itself and writes what it
// drew: the HTML fragments whole, their lines in the Markdown, the
// PowerPoint text in the deck. The toy's generated tasks are in each.
func render(t *testing.T, reg *modality.Registry, draws *drawn, path string) {
	dir := t.TempDir()
	for _, format := range []string{"html", "md", "pptx"} {
		draws.reset()
		out := filepath.Join(dir, "lesson."+format)
		if stdout, errOut, code := run(t, context.Background(), reg, "render", path, "--format", format, "-o", out); code != cmd.ExitOK {
			t.Errorf("render --format %s (exit %d):\n%s%s", format, code, stdout, errOut)
			continue
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		if format == "pptx" {
			text = deckText(t, data)
		}
		for _, k := range reg.Children() {
			for _, want := range drawnText(draws, format, k.Name) {
				if !strings.Contains(text, want) {
					t.Errorf("render --format %s left out the %s's %q", format, k.Name, short(want))
				}
			}
		}
		for _, want := range []string{"Parts of a plant", "Label the drawing.", "Label the leaf.", "Label the root."} {
			if !strings.Contains(text, want) {
				t.Errorf("render --format %s lacks the worksheet's %q", format, want)
			}
		}
	}
}

// drawnText is what kind's hooks drew for format, as it must appear in
// the output; a kind whose hook was not called has drawn nothing, which
// fails the test here.
func drawnText(d *drawn, format, kind string) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	switch format {
	case "html":
		for _, r := range d.html[kind] {
			out = append(out, r.Body, r.Notes)
		}
	case "md":
		// The Markdown keeps each line of a fragment (blank lines dropped).
		for _, r := range d.html[kind] {
			for _, l := range strings.FieldsFunc(r.Body, func(c rune) bool { return c == '\n' || c == '\r' }) {
				if strings.TrimSpace(l) != "" {
					out = append(out, l)
				}
			}
		}
	case "pptx":
		for _, r := range d.pptx[kind] {
			paras := append(append([]pptx.Para(nil), r.Notes...), r.Key...)
			for _, s := range r.Shapes {
				if sp, ok := s.(*pptx.Sp); ok {
					paras = append(paras, sp.Paras...)
				}
			}
			for _, p := range paras {
				for _, run := range p.Runs {
					if strings.TrimSpace(run.Text) != "" {
						out = append(out, run.Text)
					}
				}
			}
		}
	}
	if len(out) == 0 {
		out = append(out, fmt.Sprintf("(nothing: the %s was never drawn for %s)", kind, format))
	}
	return out
}

// short is s cut for a message.
func short(s string) string {
	if r := []rune(s); len(r) > 100 {
		return string(r[:100]) + "…"
	}
	return s
}

var textRun = regexp.MustCompile(`<a:t>([^<]*)</a:t>`)

// deckText is every text run of a deck's slides and notes, one a line.
func deckText(t *testing.T, data []byte) string {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range z.File {
		if !strings.HasSuffix(f.Name, ".xml") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		x, _ := io.ReadAll(rc)
		rc.Close()
		for _, m := range textRun.FindAllSubmatch(x, -1) {
			b.WriteString(html.UnescapeString(string(m[1])) + "\n")
		}
	}
	return b.String()
}

// schema: the lesson's schema places every kind on a slide, and each
// kind's own schema has a property for each of its model's fields.
func schema(t *testing.T, reg *modality.Registry) {
	ctx := context.Background()
	lesson, errOut, code := run(t, ctx, reg, "schema")
	if code != cmd.ExitOK {
		t.Fatalf("schema (exit %d): %s", code, errOut)
	}
	for _, k := range reg.Children() {
		if !strings.Contains(lesson, fmt.Sprintf("the slide's %s: inline", k.Name)) {
			t.Errorf("the lesson's schema has no slide property %s", k.Name)
		}
		own, errOut, code := run(t, ctx, reg, "schema", k.Name)
		if code != cmd.ExitOK {
			t.Errorf("schema %s (exit %d): %s", k.Name, code, errOut)
			continue
		}
		for _, name := range yamlKeys(k.Codec.Model) {
			if !strings.Contains(own, fmt.Sprintf("%q: {", name)) {
				t.Errorf("schema %s has no property %s", k.Name, name)
			}
		}
	}
	if own, _, _ := run(t, ctx, reg, "schema", "worksheet"); !strings.Contains(own, "the worksheet's title") {
		t.Errorf("schema worksheet lacks the field's description:\n%s", own)
	}
}

// yamlKeys are the keys of a model's fields, as its yaml tags name them.
func yamlKeys(typ reflect.Type) []string {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	var out []string
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if f.IsExported() && name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}
