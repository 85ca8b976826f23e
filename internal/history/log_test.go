package history

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lessongen/lessongen/llm"
)

// What a run appends is read back by the same run: a level that runs
// again in the run (metadata cycles, a refinement after a fill) continues
// the conversation as the file holds it, and a record it wrote that
// cannot be read is named by its line in the file.
func TestLoadSeesThisRunsLines(t *testing.T) {
	dir := t.TempDir()
	old := `{"format":2,"node":"o","level":"l"}` + "\n" + `{"node":"o","level":"l","role":"user","content":"kept"}` + "\n"
	if err := os.WriteFile(logPath(dir), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	l := open(t, dir, nil)
	w, err := l.Create(Header{Node: "n", Level: "l", ContentHash: "h0"})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range conversation() {
		if err := w.Append(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.SetContentHash("h1"); err != nil {
		t.Fatal(err)
	}
	conv, err := l.Load("n", "l")
	if err != nil || len(conv.Messages) != len(conversation()) || conv.Header.ContentHash != "h1" {
		t.Fatalf("Load in the run that wrote it: %v, %d messages, hash %q; want %d and h1", err, len(conv.Messages), conv.Header.ContentHash, len(conversation()))
	}
	// A result for a call no turn made, written by this run: line 2 (o's
	// two lines) + 1 header + 6 messages + 1 hash + 1 = 11 of the file.
	if err := w.Append(llm.Message{Role: llm.RoleTool, ToolCallID: "zz", Content: "x"}); err != nil {
		t.Fatal(err)
	}
	_, err = l.Load("n", "l")
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.Line != 11 {
		t.Fatalf("Load = %v, want corrupt at line 11", err)
	}
	data, _ := os.ReadFile(logPath(dir))
	if got := strings.Split(string(data), "\n")[ce.Line-1]; !strings.Contains(got, `"tool_call_id":"zz"`) {
		t.Errorf("line %d of the file is %s, not the bad record", ce.Line, got)
	}
}

// A log that cannot be read as a whole continues nothing, not even the
// conversations before its bad line (a replay warns and starts every node
// afresh); set aside, it gives way to a new log even when it also ended
// in a torn line.
func TestBrokenLogContinuesNothing(t *testing.T) {
	dir := t.TempDir()
	data := `{"format":2,"node":"n","level":"l","content_hash":"h"}` + "\n" +
		`{"node":"n","level":"l","role":"user","content":"before the bad line"}` + "\n" +
		"not json\n" +
		`{"node":"n","level":"l","role":"user","con`
	if err := os.WriteFile(logPath(dir), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := Open(dir, nil)
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.Line != 3 {
		t.Fatalf("Open = %v, want corrupt at line 3", err)
	}
	defer l.Close()
	if _, err := l.Load("n", "l"); !errors.Is(err, ErrNone) {
		t.Fatalf("Load from a broken log = %v, want ErrNone", err)
	}
	aside, err := l.SetAsideLog(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	w, err := l.Create(Header{Node: "n", Level: "l"})
	if err != nil {
		t.Fatalf("create after set aside: %v", err)
	}
	if err := w.Append(llm.Message{Role: llm.RoleUser, Content: "new"}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	if got, _ := os.ReadFile(aside); string(got) != data {
		t.Errorf("the set-aside log holds %q, want it as it was", got)
	}
	conv, err := open(t, dir, nil).Load("n", "l")
	if err != nil || len(conv.Messages) != 1 || conv.Messages[0].Content != "new" {
		t.Fatalf("the new log: %v %+v", err, conv.Messages)
	}
}

// superseded writes a log of conversations begun again: n's first
// conversation (pad bytes of filler) superseded by a second, then live
// bytes of other conversations begun in order a, b, c.
func superseded(t *testing.T, dir string, dead, live int) []byte {
	t.Helper()
	var b bytes.Buffer
	conv := func(node, content string) {
		fmt.Fprintf(&b, `{"format":2,"node":%q,"level":"l","content_hash":"h"}`+"\n", node)
		fmt.Fprintf(&b, `{"node":%q,"level":"l","role":"user","content":%q}`+"\n", node, content)
	}
	conv("n", strings.Repeat("d", dead))
	for _, node := range []string{"a", "b", "c"} {
		conv(node, strings.Repeat(node, live/3))
	}
	conv("n", "again")
	if err := os.WriteFile(logPath(dir), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// appendOne opens the log at dir and makes a run's first write.
func appendOne(t *testing.T, dir string) {
	t.Helper()
	l := open(t, dir, nil)
	w, err := l.Reopen("b", "l")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(llm.Message{Role: llm.RoleUser, Content: "more"}); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

// Compaction rewrites only a log of 1 MiB or more of which less than half
// is live; any other log is appended to as it is, its bytes unchanged. A
// compacted log holds the live conversations in the order they began.
func TestCompactionThresholds(t *testing.T) {
	for _, tc := range []struct {
		name       string
		dead, live int
		compacted  bool
	}{
		{"small, mostly superseded", 600 << 10, 30 << 10, false},
		{"large, mostly live", 500 << 10, 700 << 10, false},
		{"large, mostly superseded", 900 << 10, 300 << 10, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			before := superseded(t, dir, tc.dead, tc.live)
			appendOne(t, dir)
			after, _ := os.ReadFile(logPath(dir))
			if kept := bytes.HasPrefix(after, before); kept == tc.compacted {
				t.Fatalf("log of %d bytes, %d live: compacted %v, want %v", len(before), tc.live, !kept, tc.compacted)
			}
			var order []string
			for _, ln := range bytes.Split(after, []byte("\n")) {
				if bytes.HasPrefix(ln, []byte(`{"format":2,"node":"`)) {
					order = append(order, string(ln[len(`{"format":2,"node":"`)]))
				}
			}
			want := "[n a b c n]"
			if tc.compacted {
				want = "[a b c n]" // n's live conversation began last
			}
			if fmt.Sprint(order) != want {
				t.Errorf("conversations in the order %v, want %s", order, want)
			}
			conv, err := open(t, dir, nil).Load("b", "l")
			if err != nil || len(conv.Messages) != 2 || conv.Messages[1].Content != "more" {
				t.Errorf("b after the write: %v %+v", err, conv.Messages)
			}
		})
	}
}

// Lines are as long as a model's turn makes them (a whole table in one
// call's arguments): a line of 100 KiB is read, and a torn one of that
// size is dropped and cut off before the next write, like a short one.
func TestLongLines(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 100<<10)
	l := open(t, dir, nil)
	w, err := l.Create(Header{Node: "n", Level: "l"})
	if err != nil {
		t.Fatal(err)
	}
	call := []llm.ToolCall{{ID: "c1", Name: "add_table", Arguments: `{"rows":"` + long + `"}`}}
	if err := w.Append(llm.Message{Role: llm.RoleAssistant, ToolCalls: call}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	f, err := os.OpenFile(logPath(dir), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"node":"n","level":"l","role":"tool","tool_call_id":"c1","content":"` + long) // a kill mid-write
	f.Close()
	l = open(t, dir, nil)
	conv, err := l.Load("n", "l")
	if err != nil || len(conv.Messages) != 2 || conv.Messages[0].ToolCalls[0].Arguments != call[0].Arguments || conv.Messages[1].Content != Interrupted {
		t.Fatalf("Load: %v, %d messages; want the long call and an interrupted result", err, len(conv.Messages))
	}
	w, err = l.Reopen("n", "l")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(llm.Message{Role: llm.RoleTool, ToolCallID: "c1", Content: "ok"}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	conv, err = open(t, dir, nil).Load("n", "l")
	if err != nil || len(conv.Messages) != 2 || conv.Messages[1].Content != "ok" {
		t.Fatalf("after the next write: %v %+v", err, conv.Messages)
	}
}

// A compaction killed before its rename leaves history.jsonl.tmp-PID as
// big as the live log; the next run that writes the log removes it
// under the log's lock, and nothing else: not a link of that name (nor
// what it points to), not another file's temporary file, not a name that
// only starts the same.
func TestLeftoversOfAKilledCompactionAreRemoved(t *testing.T) {
	dir := t.TempDir()
	superseded(t, dir, 10<<10, 3<<10)
	live, _ := os.ReadFile(logPath(dir))
	leftover := logPath(dir) + ".tmp-4242"
	if err := os.WriteFile(leftover, live, 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "precious")
	os.WriteFile(outside, []byte("keep"), 0o644)
	keep := []string{logPath(dir) + ".tmp-77", logPath(dir) + ".tmp-4x", filepath.Join(dir, "notes.jsonl.tmp-4242")}
	if err := os.Symlink(outside, keep[0]); err != nil {
		t.Fatal(err)
	}
	for _, p := range keep[1:] {
		os.WriteFile(p, []byte("x"), 0o644)
	}
	appendOne(t, dir)
	if _, err := os.Lstat(leftover); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the leftover %s is still there (%v)", leftover, err)
	}
	for _, p := range append(keep, outside) {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
}
