package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/lessongen/lessongen/internal/statedir"
	"github.com/lessongen/lessongen/internal/termsafe"
	"github.com/lessongen/lessongen/render"
	"github.com/lessongen/lessongen/tool"
)

// loadNotes reads the notes file; none when there is no file. A line that
// does not parse is skipped: notes are a courtesy, not the lesson. A note
// repeated by a later run (same node, subject and text) is shown once.
func loadNotes(stateDir string) ([]render.AuthorNote, error) {
	data, err := statedir.ReadFile(stateDir, statedir.NotesFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if le := (*statedir.LinkError)(nil); errors.As(err, &le) {
		// A planted link or pipe: followed, it would read (or block on)
		// what the lesson's repository chose.
		return nil, &usageError{fmt.Errorf("notes: %w", err)}
	}
	if err != nil {
		return nil, fmt.Errorf("notes: %w", err)
	}
	var out []render.AuthorNote
	seen := map[render.AuthorNote]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		var n tool.Note
		if json.Unmarshal(sc.Bytes(), &n) != nil || n.Text == "" {
			continue
		}
		note := render.AuthorNote{Node: n.Node, About: n.About, Text: n.Text}
		if !seen[note] {
			seen[note] = true
			out = append(out, note)
		}
	}
	return out, nil
}

// printNotes lists the run's notes for the author under the summary.
func printNotes(w io.Writer, notes []tool.Note) {
	for _, n := range notes {
		about := ""
		if n.About != "" {
			about = " (" + termsafe.Line(n.About) + ")"
		}
		// Notes are the model's text.
		fmt.Fprintf(w, "  note for the author · %s%s: %s\n", nodeLabel(n.Node, n.Level), about, termsafe.Line(n.Text))
	}
}
