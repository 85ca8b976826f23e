//go:build unix

package sources

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lessongen/lessongen/session"
)

// setup makes base/src (the sources folder) beside base/canary.txt.
func setup(t *testing.T) (src, canary string) {
	t.Helper()
	base := t.TempDir()
	src = filepath.Join(base, "src")
	must(t, os.MkdirAll(filepath.Join(src, "ch"), 0o755))
	canary = filepath.Join(base, "canary.txt")
	must(t, os.WriteFile(canary, []byte("CANARY-SECRET\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(base, "outdir"), 0o755))
	must(t, os.WriteFile(filepath.Join(base, "outdir", "x.md"), []byte("CANARY-SECRET\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(src, "ch", "light.md"), []byte("# Light\nPlants use light.\nChlorophyll is green.\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(src, "pic.png"), []byte("\x89PNG"), 0o644))
	must(t, os.Symlink(canary, filepath.Join(src, "link.md")))
	must(t, os.Symlink(filepath.Join(base, "outdir"), filepath.Join(src, "linkdir")))
	must(t, os.Symlink("ch/light.md", filepath.Join(src, "inside.md")))
	must(t, syscall.Mkfifo(filepath.Join(src, "pipe.md"), 0o644))
	// A hard link to the canary looks like any file inside the folder.
	must(t, os.Link(canary, filepath.Join(src, "hard.md")))
	// So does a file inside with a second name outside.
	must(t, os.WriteFile(filepath.Join(src, "shared.md"), []byte("shared\n"), 0o644))
	must(t, os.Link(filepath.Join(src, "shared.md"), filepath.Join(base, "shared-outside.md")))
	big := strings.Repeat("x\n", MaxFileBytes/2+1)
	must(t, os.WriteFile(filepath.Join(src, "huge.md"), []byte(big), 0o644))
	return src, canary
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestEscapesRefused(t *testing.T) {
	src, _ := setup(t)
	s, err := Open([]string{src})
	must(t, err)
	defer s.Close()
	for _, c := range []struct {
		path string
		kind session.ErrorKind
	}{
		{"../canary.txt", session.KindPermission},
		{"ch/../../canary.txt", session.KindPermission},
		{"/etc/passwd", session.KindPermission},
		{"link.md", session.KindPermission},
		{"linkdir/x.md", session.KindPermission},
		{"ch/light.md\x00.png", session.KindInvalidArgs},
		{"pipe.md", session.KindPermission},
		{"hard.md", session.KindPermission},
		{"shared.md", session.KindPermission},
		{"huge.md", session.KindPermission},
		{"pic.png", session.KindInvalidArgs},
		{"missing.md", session.KindNotFound},
		{"", session.KindInvalidArgs},
	} {
		out, e := s.Read(c.path, 0, 0)
		if e == nil {
			t.Errorf("%q: read %q, want refusal", c.path, out)
			continue
		}
		if e.Kind != c.kind {
			t.Errorf("%q: kind %s (%s), want %s", c.path, e.Kind, e.Message, c.kind)
		}
		if strings.HasSuffix(c.path, "hard.md") || c.path == "shared.md" {
			if !strings.Contains(e.Message, "hard links") || !strings.Contains(e.Hint, "copy the file") {
				t.Errorf("%q: %s (hint %q), want why and to copy the file", c.path, e.Message, e.Hint)
			}
		}
		if strings.Contains(e.Message, "CANARY") {
			t.Errorf("%q: message leaks the canary: %s", c.path, e.Message)
		}
	}
}

func TestListSearchNeverReachOutside(t *testing.T) {
	src, _ := setup(t)
	s, err := Open([]string{src})
	must(t, err)
	defer s.Close()
	l := s.List()
	var names []string
	for _, f := range l.Files {
		names = append(names, f.Path)
	}
	// inside.md is a symlink to ch/light.md: read_source reads it, so it
	// is listed; link.md leads outside and is not.
	if got := strings.Join(names, " "); got != "ch/light.md inside.md" {
		t.Errorf("list = %q, want the regular text file and the symlink inside", got)
	}
	if got := strings.Join(l.Linked, " "); got != "hard.md shared.md" {
		t.Errorf("linked = %q, want the two hard-linked files", got)
	}
	if note := l.Note(); !strings.Contains(note, "hard.md, shared.md") || !strings.Contains(note, "copy the file") {
		t.Errorf("note = %q, want the hard-linked files and what to do", note)
	}
	hits, _, e := s.Search("canary", 0)
	if e != nil || len(hits) != 1 || !strings.HasPrefix(hits[0], "[not searched, as they have more than one hard link: hard.md, shared.md") {
		t.Errorf("search canary = %q %v, want only the note on hard links", hits, e)
	}
	hits, _, _ = s.Search("chloro", 0)
	if len(hits) != 3 || hits[0] != "ch/light.md:3: Chlorophyll is green." || hits[1] != "inside.md:3: Chlorophyll is green." {
		t.Errorf("search = %q", hits)
	}
	// An invalid regexp is searched as the words written.
	if _, _, e := s.Search("light(", 0); e != nil {
		t.Errorf("search light( = %v", e)
	}
}

func TestReadLinesAndCut(t *testing.T) {
	src, _ := setup(t)
	var b strings.Builder
	for i := 1; i <= MaxReadLines+10; i++ {
		b.WriteString("line\n")
	}
	must(t, os.WriteFile(filepath.Join(src, "long.txt"), []byte(b.String()), 0o644))
	s, err := Open([]string{src})
	must(t, err)
	defer s.Close()
	out, e := s.Read("inside.md", 2, 3)
	if e != nil || out != "2: Plants use light.\n3: Chlorophyll is green.\n" {
		t.Errorf("read 2-3 = %q %v", out, e)
	}
	out, e = s.Read("long.txt", 0, 0)
	if e != nil || !strings.Contains(out, "[cut at line 200") || !strings.Contains(out, "start_line 201") {
		t.Errorf("long read not marked cut: %v %q", e, out[max(0, len(out)-200):])
	}
	if _, e := s.Read("ch/light.md", 9, 0); e == nil || e.Kind != session.KindInvalidArgs {
		t.Errorf("start past end = %v", e)
	}
	if n, e := s.Lines("ch/light.md"); n != 3 || e != nil {
		t.Errorf("lines = %d %v", n, e)
	}
}

func TestSeveralFoldersArePrefixed(t *testing.T) {
	src, _ := setup(t)
	other := filepath.Join(t.TempDir(), "notes")
	must(t, os.MkdirAll(other, 0o755))
	must(t, os.WriteFile(filepath.Join(other, "a.txt"), []byte("hello\n"), 0o644))
	s, err := Open([]string{src, other})
	must(t, err)
	defer s.Close()
	if out, e := s.Read("notes/a.txt", 0, 0); e != nil || out != "1: hello\n" {
		t.Errorf("read notes/a.txt = %q %v", out, e)
	}
	if _, e := s.Read("a.txt", 0, 0); e == nil {
		t.Error("unprefixed path read with two folders")
	}
}

func TestCitations(t *testing.T) {
	src, _ := setup(t)
	s, err := Open([]string{src})
	must(t, err)
	defer s.Close()
	for in, want := range map[string]string{
		"ch/light.md:2":   "",
		"ch/light.md:1-3": "",
		"ch/light.md:4":   "has 3 lines",
		"ch/light.md:2-9": "has 3 lines",
		"gone.md:1":       "no source",
		"../canary.txt:1": "leaves the sources folder",
	} {
		c, err := ParseCitation(in)
		must(t, err)
		got := ""
		if err := s.Check(c); err != nil {
			got = err.Error()
		}
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("check %q = %q, want %q", in, got, want)
		}
	}
	for _, bad := range []string{"light.md", "light.md:0", "light.md:3-2", "light.md:x", ":3", "light.md:+1", "light.md:1-+3"} {
		if _, err := ParseCitation(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestNotUTF8Refused(t *testing.T) {
	src, _ := setup(t)
	must(t, os.WriteFile(filepath.Join(src, "latin1.txt"), []byte("caf\xe9\n"), 0o644))
	s, err := Open([]string{src})
	must(t, err)
	defer s.Close()
	if _, e := s.Read("latin1.txt", 0, 0); e == nil || e.Kind != session.KindInvalidArgs {
		t.Errorf("latin-1 read = %v", e)
	}
}

// Checker answers as Check does, and reads each file once: 10,000
// citations of one file cost one read (validate --sources took seconds).
func TestCheckerReadsEachFileOnce(t *testing.T) {
	src, _ := setup(t)
	s, err := Open([]string{src})
	must(t, err)
	defer s.Close()
	check := s.Checker()
	for _, in := range []string{"ch/light.md:2", "ch/light.md:2-9", "gone.md:1", "../canary.txt:1", "hard.md:1", "ch/light.md:3"} {
		c, err := ParseCitation(in)
		must(t, err)
		want, got := s.Check(c), check(c)
		if (want == nil) != (got == nil) || want != nil && want.Error() != got.Error() {
			t.Errorf("Checker %q = %v, Check = %v", in, got, want)
		}
	}
	// Once counted, a file is not read again: lines added since are not seen.
	must(t, os.WriteFile(filepath.Join(src, "ch", "light.md"), []byte("1\n2\n3\n4\n5\n"), 0o644))
	c, _ := ParseCitation("ch/light.md:5")
	if err := check(c); err == nil || !strings.Contains(err.Error(), "has 3 lines") {
		t.Errorf("Checker read the file again: %v", err)
	}
	if err := s.Check(c); err != nil {
		t.Errorf("Check: %v", err)
	}
}

// TestBinaryBehindTextName: a ".md" whose bytes are not text (a NUL byte,
// bytes that are not UTF-8) is refused by every tool that reads sources,
// naming the line, and shows none of its bytes.
func TestBinaryBehindTextName(t *testing.T) {
	src := t.TempDir()
	must(t, os.WriteFile(filepath.Join(src, "ok.md"), []byte("needle one\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(src, "nul.md"), []byte("needle two\nPK\x03\x04\x00\x00needle\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(src, "latin1.txt"), []byte("needle three\ncaf\xe9 needle\n"), 0o644))
	s, err := Open([]string{src})
	must(t, err)
	defer s.Close()
	for p, want := range map[string]string{"nul.md": `holds a NUL byte (line 2)`, "latin1.txt": `line 2 is not UTF-8`} {
		out, e := s.Read(p, 1, 1)
		if e == nil || e.Kind != session.KindInvalidArgs || !strings.Contains(e.Message, want) {
			t.Errorf("Read(%s) = %q, %+v; want a refusal saying %q", p, out, e, want)
		}
		if _, e := s.Lines(p); e == nil {
			t.Errorf("Lines(%s) counted a file that is not text", p)
		}
	}
	hits, _, e := s.Search("needle", 10)
	if e != nil {
		t.Fatal(e)
	}
	if got := strings.Join(hits, "|"); got != "ok.md:1: needle one" {
		t.Errorf("search = %q, want only the text file's line", got)
	}
}
