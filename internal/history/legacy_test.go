package history

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lessongen/lessongen/llm"
)

// writeLegacy saves a conversation as the earlier layout did: its own
// file, format 1, lines without node and level.
func writeLegacy(t *testing.T, dir, node, level, data string) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(legacyPath(node, level)))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const legacyConversation = `{"format":1,"node":"slides/a/whiteboard","level":"whiteboard.node","content_hash":"h0","generated":["g1"]}
{"role":"system","content":"sys"}
{"role":"assistant","content":"","tool_calls":[{"id":"c1","name":"f","arguments":"{}"}]}
{"role":"","content":"","generated":["g2"]}
{"role":"","content":"","content_hash":"h1"}
`

// A conversation of the earlier layout is loaded as before, continued by
// copying it into the log whole (from then on the log's copy is the one
// read), and set aside by renaming its file.
func TestLegacyLayout(t *testing.T) {
	dir := t.TempDir()
	node, level := "slides/a/whiteboard", "whiteboard.node"
	old := writeLegacy(t, dir, node, level, legacyConversation)
	l := open(t, dir, nil)
	want := []llm.Message{
		{Role: llm.RoleSystem, Content: "sys"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "f", Arguments: "{}"}}},
		{Role: llm.RoleTool, ToolCallID: "c1", Content: Interrupted},
	}
	c, err := l.Load(node, level)
	if err != nil || !reflect.DeepEqual(c.Messages, want) || c.Header.ContentHash != "h1" || !reflect.DeepEqual(c.Header.Generated, []string{"g1", "g2"}) {
		t.Fatalf("legacy load: %v %+v", err, c)
	}
	w, err := l.Reopen(node, level)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(llm.Message{Role: llm.RoleTool, ToolCallID: "c1", Content: Interrupted}); err != nil {
		t.Fatal(err)
	}
	if err := w.Append(llm.Message{Role: llm.RoleUser, Content: "again"}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	os.WriteFile(old, []byte("the log's copy is read now\n"), 0o644)
	c, err = open(t, dir, nil).Load(node, level)
	want = append(want, llm.Message{Role: llm.RoleUser, Content: "again"})
	if err != nil || !reflect.DeepEqual(c.Messages, want) || c.Header.ContentHash != "h1" || !reflect.DeepEqual(c.Header.Generated, []string{"g1", "g2"}) || len(c.Interrupted) != 0 {
		t.Fatalf("continued legacy: %v %+v", err, c)
	}

	// A broken file of the earlier layout is renamed aside, as before.
	writeLegacy(t, dir, "slides/b", level, `{"format":1,"node":"slides/b","level":"whiteboard.node"}`+"\n"+`{"role":"tool","tool_call_id":"x","content":""}`+"\n")
	l = open(t, dir, nil)
	var ce *CorruptError
	if _, err := l.Load("slides/b", level); !errors.As(err, &ce) || ce.Line != 2 || !strings.HasSuffix(ce.Path, "whiteboard.node.jsonl") {
		t.Fatalf("broken legacy: %v", err)
	}
	aside, err := l.SetAside("slides/b", level, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil || filepath.Base(aside) != "whiteboard.node.jsonl.broken-20260102T030405.000000000Z" {
		t.Fatalf("set aside: %s %v", aside, err)
	}
	if _, err := l.Load("slides/b", level); !errors.Is(err, ErrNone) {
		t.Errorf("after set aside: %v", err)
	}
}

// A conversation set aside from the log stays aside though the earlier
// layout still has a file for it.
func TestSetAsideHidesLegacy(t *testing.T) {
	dir := t.TempDir()
	node, level := "slides/a/whiteboard", "whiteboard.node"
	writeLegacy(t, dir, node, level, legacyConversation)
	l := open(t, dir, nil)
	if _, err := l.Reopen(node, level); err != nil {
		t.Fatal(err)
	}
	if _, err := l.SetAside(node, level, time.Now()); err != nil {
		t.Fatal(err)
	}
	l.Close()
	if _, err := open(t, dir, nil).Load(node, level); !errors.Is(err, ErrNone) {
		t.Fatalf("Load = %v, want ErrNone: the conversation was set aside", err)
	}
}

// A log grown mostly of conversations begun again is rewritten, on the
// next run's first write, with the live ones alone; nothing live is lost
// and what was set aside stays aside.
func TestCompaction(t *testing.T) {
	dir := t.TempDir()
	filler := strings.Repeat("x", 4000)
	writeLegacy(t, dir, "gone", "l", legacyConversation)
	l := open(t, dir, nil)
	if _, err := l.Reopen("gone", "l"); err != nil {
		t.Fatal(err)
	}
	if _, err := l.SetAside("gone", "l", time.Now()); err != nil {
		t.Fatal(err)
	}
	for i := range 400 { // ~1.6 MB, the live part one run's worth
		w, err := l.Create(Header{Node: "n", Level: "l", ContentHash: "h"})
		if err != nil {
			t.Fatal(err)
		}
		w.Append(llm.Message{Role: llm.RoleUser, Content: filler})
		w.Append(llm.Message{Role: llm.RoleAssistant, Content: strings.Repeat("y", i)})
	}
	keep, _ := l.Create(Header{Node: "k", Level: "l"})
	keep.Append(llm.Message{Role: llm.RoleUser, Content: "kept"})
	l.Close()
	before, _ := os.Stat(logPath(dir))

	l = open(t, dir, nil)
	w, err := l.Reopen("k", "l")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(llm.Message{Role: llm.RoleUser, Content: "more"}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	after, _ := os.Stat(logPath(dir))
	if after.Size() > before.Size()/100 {
		t.Fatalf("log %d bytes after compaction, was %d", after.Size(), before.Size())
	}
	l = open(t, dir, nil)
	n, err := l.Load("n", "l")
	if err != nil || len(n.Messages) != 2 || len(n.Messages[1].Content) != 399 {
		t.Fatalf("the live n: %v, %d messages", err, len(n.Messages))
	}
	k, err := l.Load("k", "l")
	if err != nil || len(k.Messages) != 2 || k.Messages[1].Content != "more" {
		t.Fatalf("k: %v %+v", err, k.Messages)
	}
	if _, err := l.Load("gone", "l"); !errors.Is(err, ErrNone) {
		t.Fatalf("set aside before compaction: %v, want ErrNone", err)
	}
}

// A file planted where a folder of the earlier layout would be holds no
// conversation: nothing is read through it, and the log is written as
// ever.
func TestFileWhereLegacyFolderWouldBe(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "history", "slides"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "history", "slides", "a"), []byte("planted"), 0o644); err != nil {
		t.Fatal(err)
	}
	l := open(t, dir, nil)
	if _, err := l.Load("slides/a/whiteboard", "whiteboard.node"); !errors.Is(err, ErrNone) {
		t.Fatalf("Load = %v, want ErrNone", err)
	}
	if _, err := l.Create(Header{Node: "slides/a/whiteboard", Level: "whiteboard.node"}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "history", "slides", "a")); string(data) != "planted" {
		t.Errorf("the planted file changed: %q", data)
	}
}

// The log is one run's at a time: a second Claim (another run on a lesson
// sharing the state folder) is a *BusyError until the first closes, and a
// broken log another run holds is not renamed from under it.
func TestClaimIsExclusive(t *testing.T) {
	dir := t.TempDir()
	first := open(t, dir, nil)
	if err := first.Claim(); err != nil {
		t.Fatal(err)
	}
	second := open(t, dir, nil)
	var busy *BusyError
	if err := second.Claim(); !errors.As(err, &busy) || busy.Path != logPath(dir) {
		t.Fatalf("second claim: %v, want a BusyError naming the log", err)
	}
	if _, err := second.SetAsideLog(time.Now()); !errors.As(err, &busy) {
		t.Fatalf("set aside while held: %v, want a BusyError", err)
	}
	w, err := first.Create(Header{Node: "n", Level: "l"})
	if err != nil {
		t.Fatal(err)
	}
	w.Append(llm.Message{Role: llm.RoleUser, Content: "first's"})
	first.Close()
	// Claimed now, and read again: the first run's conversation is there.
	if err := second.Claim(); err != nil {
		t.Fatal(err)
	}
	if c, err := second.Load("n", "l"); err != nil || len(c.Messages) != 1 {
		t.Fatalf("after the first run: %v %+v, want its conversation", err, c)
	}
}

// A file of the earlier layout whose header names another format (a
// later lessongen's, or the log's own) is not read as one: it is set
// aside like any file that cannot be read.
func TestLegacyOtherFormat(t *testing.T) {
	dir := t.TempDir()
	for _, format := range []string{"2", "9"} {
		writeLegacy(t, dir, "slides/a/whiteboard", "whiteboard.node", strings.Replace(legacyConversation, `"format":1`, `"format":`+format, 1))
		_, err := open(t, dir, nil).Load("slides/a/whiteboard", "whiteboard.node")
		var ce *CorruptError
		if !errors.As(err, &ce) || ce.Line != 1 || !strings.Contains(ce.Error(), "history format "+format) {
			t.Errorf("format %s: Load = %v, want corrupt at line 1", format, err)
		}
	}
}

// A folder where the log belongs holds no conversation: Open says so as a
// log that cannot be read (a run that only reads warns and goes on), and
// nothing is written into it.
func TestFolderWhereLogBelongs(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(logPath(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := Open(dir, nil)
	var ce *CorruptError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "a folder") || l == nil {
		t.Fatalf("Open = %v, want a CorruptError saying it is a folder", err)
	}
	if _, err := l.Load("n", "l"); !errors.Is(err, ErrNone) {
		t.Errorf("Load = %v, want ErrNone", err)
	}
	if _, err := l.Create(Header{Node: "n", Level: "l"}); err == nil {
		t.Error("wrote into a folder where the log belongs")
	}
}
