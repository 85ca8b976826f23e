package statedir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file in a state folder past MaxFileBytes is refused by name and
// limit before it is read (a sparse file: nothing is written to disk).
func TestReadFileRefusesAFilePastTheLimit(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, NotesFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFileBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	data, err := ReadFile(dir, NotesFile)
	var tb *TooBigError
	if !errors.As(err, &tb) || tb.Limit != MaxFileBytes || data != nil {
		t.Fatalf("read %d bytes, %v; want a *TooBigError", len(data), err)
	}
	if msg := err.Error(); !strings.Contains(msg, filepath.Join(dir, NotesFile)) || !strings.Contains(msg, "256 MB") {
		t.Errorf("error %q does not name the file and the limit", msg)
	}
}
