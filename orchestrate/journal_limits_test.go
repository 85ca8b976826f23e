package orchestrate

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/statedir"
)

// plantJournal writes, as the state folder's journal, head then line
// repeated until they unpack to more than unpacked bytes, and returns
// the file's size on disk.
func plantJournal(t *testing.T, dir, head, line string, unpacked int64) int64 {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	w := bufio.NewWriterSize(zw, 1<<20)
	w.WriteString(head)
	block := strings.Repeat(line, (1<<20)/len(line)+1)
	for n := int64(len(head)); n <= unpacked; n += int64(len(block)) {
		w.WriteString(block)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	fi, _ := f.Stat()
	f.Close()
	return fi.Size()
}

// A journal that unpacks past MaxJournalBytes, its header naming the
// lesson as it is (whoever planted it knew the file), is refused with an
// error naming the file and the limit, and left where it is. (How soon,
// and in how much memory, is measured on the binary: a test's clock is
// the machine's load.)
func TestJournalUnpackingPastTheLimitIsRefused(t *testing.T) {
	doc, err := compose.Load(writeLesson(t, 2, ""), testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	plantJournal(t, state, `{"base":"`+doc.Sum()+`"}`+"\n", `{"slide":"nowhere","kind":"whiteboard","yaml":"heading: x"}`+"\n", MaxJournalBytes+1<<20)
	rec, err := RecoverJournal(doc, testRegistry(), state, doc.Sum())
	var tb *statedir.TooBigError
	if !errors.As(err, &tb) || !tb.Unpacked || tb.Limit != MaxJournalBytes {
		t.Fatalf("recovered %+v, %v; want a *statedir.TooBigError for what it unpacks to", rec, err)
	}
	if msg := err.Error(); !strings.Contains(msg, filepath.Join(state, JournalFile)) || !strings.Contains(msg, fmt.Sprintf("%d MB", MaxJournalBytes>>20)) {
		t.Errorf("error %q does not name the file and the limit", msg)
	}
	if _, err := os.Stat(filepath.Join(state, JournalFile)); err != nil {
		t.Errorf("the journal was not left where it was: %v", err)
	}
}

// A journal whose first line is no header (a planted file of "{}"
// lines) is set aside as no journal of this lesson, after reading that
// one line: not removed, not read on.
func TestJournalWithoutHeaderIsSetAside(t *testing.T) {
	doc, err := compose.Load(writeLesson(t, 2, ""), testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	plantJournal(t, state, "{}\n", "{}\n", 4*MaxJournalBytes)
	start := time.Now()
	rec, err := RecoverJournal(doc, testRegistry(), state, doc.Sum())
	if err != nil || rec.Stale != filepath.Join(state, JournalFile+".stale") || !rec.Headless || rec.Nodes != 0 {
		t.Fatalf("recovered %+v, %v; want it set aside as headless", rec, err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("setting it aside took %v: it was read past its first line", d)
	}
}

// A journal based on another file is set aside after its header alone,
// however much follows.
func TestJournalOfAnotherFileIsNotReadOn(t *testing.T) {
	doc, err := compose.Load(writeLesson(t, 2, ""), testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	plantJournal(t, state, `{"base":"sha256:other"}`+"\n", `{"slide":"s","kind":"whiteboard","yaml":"x"}`+"\n", 4*MaxJournalBytes)
	start := time.Now()
	rec, err := RecoverJournal(doc, testRegistry(), state, doc.Sum())
	if err != nil || rec.Stale == "" || rec.Headless {
		t.Fatalf("recovered %+v, %v; want it set aside", rec, err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("setting it aside took %v: it was read past its header", d)
	}
}

// One line past statedir.MaxLineBytes is refused as such.
func TestJournalLinePastTheLimitIsRefused(t *testing.T) {
	doc, err := compose.Load(writeLesson(t, 2, ""), testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	plantJournal(t, state, `{"base":"`+doc.Sum()+`"}`+"\n"+`{"slide":"s","kind":"whiteboard","yaml":"`, "x", statedir.MaxLineBytes+10)
	_, err = RecoverJournal(doc, testRegistry(), state, doc.Sum())
	var tb *statedir.TooBigError
	if !errors.As(err, &tb) || !tb.Line {
		t.Fatalf("got %v; want a *statedir.TooBigError for a line", err)
	}
}
