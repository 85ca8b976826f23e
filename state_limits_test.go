package main

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/orchestrate"
)

// A journal planted in the state folder, its header naming the lesson as
// it is and unpacking past the limit, stops generate before any request
// with exit 2, naming the file and the limit; the journal stays.
func TestGeneratePlantedJournalPastTheLimit(t *testing.T) {
	cleanEnv(t)
	t.Chdir(t.TempDir())
	write(t, "lesson.yaml", refineLesson)
	write(t, "slides/a.yaml", "elements: !pending \"one line\"\n")
	write(t, "slides/b.yaml", "elements: !pending \"one line\"\n")
	sum := sha256.Sum256([]byte(refineLesson))
	const journal = ".lessongen/lesson.yaml/" + orchestrate.JournalFile
	write(t, journal, "")
	f, err := os.Create(journal)
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	w := bufio.NewWriterSize(zw, 1<<20)
	fmt.Fprintf(w, "{\"base\":\"sha256:%s\"}\n", hex.EncodeToString(sum[:]))
	line := strings.Repeat(`{"slide":"a","kind":"whiteboard","yaml":"elements: []"}`+"\n", 1<<14)
	for n := 0; n <= orchestrate.MaxJournalBytes; n += len(line) {
		w.WriteString(line)
	}
	w.Flush()
	zw.Close()
	f.Close()
	srv := startScript(t, `{"rules": [{"match": ["whiteboard.node"], "turns": [{"content": "Done."}], "repeat": true}]}`)
	code, out, errOut := runLessongen(t, "generate", "lesson.yaml")
	if code != 2 {
		t.Fatalf("exit %d, want 2\n%s%s", code, out, errOut)
	}
	if want := fmt.Sprintf("%s unpacks to more than %d MB", journal, orchestrate.MaxJournalBytes>>20); !strings.Contains(errOut, want) {
		t.Errorf("stderr does not say %q:\n%s", want, errOut)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
	if _, err := os.Stat(journal); err != nil {
		t.Errorf("the journal is gone: %v", err)
	}
}

// A planted journal that is no journal (no header: "{}" lines) is set
// aside with a warning naming it, and the run goes on.
func TestGeneratePlantedJournalWithoutHeader(t *testing.T) {
	cleanEnv(t)
	t.Chdir(t.TempDir())
	write(t, "lesson.yaml", refineLesson)
	write(t, "slides/a.yaml", "elements: []\n")
	write(t, "slides/b.yaml", "elements: !pending \"one line\"\n")
	const journal = ".lessongen/lesson.yaml/" + orchestrate.JournalFile
	write(t, journal, "")
	f, _ := os.Create(journal)
	zw := gzip.NewWriter(f)
	zw.Write([]byte(strings.Repeat("{}\n", 1<<20)))
	zw.Close()
	f.Close()
	startScript(t, `{"rules": [{"match": ["whiteboard"], "turns": [{"content": "Done."}], "repeat": true}]}`)
	code, out, errOut := runLessongen(t, "generate", "lesson.yaml")
	if want := journal + " was not applied: it does not start with the header"; !strings.Contains(errOut, want) {
		t.Errorf("exit %d; stderr does not say %q:\n%s%s", code, want, out, errOut)
	}
	if _, err := os.Stat(journal + ".stale"); err != nil {
		t.Errorf("not set aside: %v", err)
	}
}
