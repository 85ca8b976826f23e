package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lessongen/lessongen/internal/regfile"
	"github.com/lessongen/lessongen/internal/termsafe"
	"github.com/lessongen/lessongen/render"
	"github.com/lessongen/lessongen/tool"
)

// defaultStateDir is where a run keeps its state when --state-dir is not
// given: .lessongen beside the lesson.
func defaultStateDir(lessonFile string) string {
	return filepath.Join(filepath.Dir(lessonFile), ".lessongen")
}

// stateDirFor is the state dir a command uses: the setting, else the
// default beside the lesson.
func stateDirFor(setting, lessonFile string) string {
	if setting != "" {
		return setting
	}
	return defaultStateDir(lessonFile)
}

// notesFile is where runs keep the notes subagents left for the author
// (note_for_author), one JSON object a line, so `render` can show them.
// It is beside the saved conversations; the author's files never hold
// them.
func notesFile(stateDir string) string { return filepath.Join(stateDir, "notes.jsonl") }

// saveNotes appends a run's notes to the notes file.
func saveNotes(stateDir string, notes []tool.Note, redact func(string) string) error {
	if len(notes) == 0 || stateDir == "" {
		return nil
	}
	if err := os.MkdirAll(stateDir, 0o755); err != nil {
		return fmt.Errorf("notes: %w", err)
	}
	f, err := os.OpenFile(notesFile(stateDir), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("notes: %w", err)
	}
	w := bufio.NewWriter(f)
	for _, n := range notes {
		data, err := json.Marshal(n)
		if err != nil {
			f.Close()
			return err
		}
		fmt.Fprintf(w, "%s\n", redact(string(data)))
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("notes: %w", err)
	}
	return f.Close()
}

// loadNotes reads the notes file; none when there is no file. A line that
// does not parse is skipped: notes are a courtesy, not the lesson. A note
// repeated by a later run (same node, subject and text) is shown once.
func loadNotes(stateDir string) ([]render.AuthorNote, error) {
	data, err := regfile.ReadFile(notesFile(stateDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if errors.Is(err, regfile.ErrNotRegular) {
		// A planted pipe would block render forever.
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
