package cmd

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/atomicfile"
	"github.com/lessongen/lessongen/render"
)

// marpFonts is where Markdown written to out keeps its font: the folder
// OUT.fonts beside it (lesson.md: lesson.fonts/), named relative to the
// Markdown in its style, and the writer whose style loads it. Markdown
// to stdout has no folder to sit beside: its style names no font file,
// and a note says so. The folder must be a real folder or not yet exist,
// and no font file one of the lesson's: nothing is written outside out's
// folder, and all is checked before any is.
func marpFonts(opts *renderOptions, doc *compose.Document, out string) (render.Writer, string, error) {
	if out == "-" {
		fmt.Fprintln(opts.io.ErrOut, "lessongen: note: -o - writes no font file, so Marp draws the text in the viewer's sans-serif and a board's text may not fit its boxes as measured; -o lesson.md writes lesson.fonts/ beside it")
		return render.MarkdownWriter(opts.handout), "", nil
	}
	rel := strings.TrimSuffix(filepath.Base(out), filepath.Ext(out)) + ".fonts"
	dir := filepath.Join(filepath.Dir(out), rel)
	if fi, err := os.Lstat(dir); err == nil && !fi.IsDir() {
		return nil, "", usagef("-o %s: its font folder %s is not a folder (a link or a file); move it away", out, dir)
	}
	for name := range render.FontFiles() {
		if err := doc.CheckSideFile(filepath.Join(dir, name), out); err != nil {
			return nil, "", usagef("-o %s: its font file %v", out, err)
		}
	}
	return render.MarkdownWriterFonts(opts.handout, rel), dir, nil
}

// writeFonts writes the font files into dir, replacing a link in its
// place rather than following it.
func writeFonts(opts *renderOptions, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := render.FontFiles()
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := atomicfile.Replace(filepath.Join(dir, name), files[name], 0o644); err != nil {
			return fmt.Errorf("write %s: %w", filepath.Join(dir, name), err)
		}
	}
	fmt.Fprintf(opts.io.ErrOut, "lessongen: wrote %s (the font the Markdown's style loads)\n", dir+string(filepath.Separator))
	return nil
}
