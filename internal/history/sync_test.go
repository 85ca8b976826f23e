package history

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lessongen/lessongen/internal/statedir"
	"github.com/lessongen/lessongen/llm"
)

// A turn is made durable once, when the model's next turn is appended
// (with the results before it) and at the end; every record is in the
// file as soon as Append returns, so a killed process loses none.
func TestOneSyncPerTurn(t *testing.T) {
	dir := t.TempDir()
	l := open(t, dir, nil)
	w, err := l.Create(Header{Node: "n", Level: "whiteboard.node"})
	if err != nil {
		t.Fatal(err)
	}
	call := []llm.ToolCall{{ID: "c1", Name: "f", Arguments: "{}"}, {ID: "c2", Name: "f", Arguments: "{}"}}
	for _, m := range []llm.Message{
		{Role: llm.RoleSystem, Content: "task"},
		{Role: llm.RoleUser, Content: "go"},
		{Role: llm.RoleAssistant, ToolCalls: call},
		{Role: llm.RoleTool, ToolCallID: "c1", Content: `{"ok":true}`},
		{Role: llm.RoleTool, ToolCallID: "c2", Content: `{"ok":true}`},
		{Role: llm.RoleAssistant, Content: "done"},
	} {
		if err := w.Append(m); err != nil {
			t.Fatal(err)
		}
	}
	if l.syncs != 2 { // two model turns, the header with the first
		t.Errorf("%d fsyncs for two turns, want 2 (one per turn)", l.syncs)
	}
	// Written though not yet synced: another reader sees it all.
	if err := w.Append(llm.Message{Role: llm.RoleUser, Content: "more"}); err != nil {
		t.Fatal(err)
	}
	conv, err := open(t, dir, nil).Load("n", "whiteboard.node")
	if err != nil || len(conv.Messages) != 7 {
		t.Fatalf("load before close: %d messages, %v; want all 7", len(conv.Messages), err)
	}
	if err := l.Close(); err != nil || l.syncs != 3 {
		t.Errorf("close: %v, %d fsyncs; want the rest made durable (3)", err, l.syncs)
	}
}

// With SyncEvery (the run's checkpoint interval) a turn inside the
// interval waits for the next fsync, however many conversations wrote;
// Sync (a checkpoint) and Close make it all durable.
func TestSyncEveryInterval(t *testing.T) {
	dir := t.TempDir()
	l := open(t, dir, nil)
	l.SyncEvery(time.Hour)
	call := []llm.ToolCall{{ID: "c1", Name: "f", Arguments: "{}"}}
	for _, node := range []string{"a", "b", "c"} {
		w, err := l.Create(Header{Node: node, Level: "whiteboard.node"})
		if err != nil {
			t.Fatal(err)
		}
		for range 5 {
			for _, m := range []llm.Message{{Role: llm.RoleAssistant, ToolCalls: call}, {Role: llm.RoleTool, ToolCallID: "c1", Content: `{"ok":true}`}} {
				if err := w.Append(m); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := w.SetContentHash("h"); err != nil {
			t.Fatal(err)
		}
	}
	if l.syncs != 0 {
		t.Errorf("%d fsyncs for three conversations inside the interval, want 0", l.syncs)
	}
	if err := l.Sync(); err != nil || l.syncs != 1 {
		t.Errorf("sync: %v, %d fsyncs; want one (1)", err, l.syncs)
	}
	if err := l.Close(); err != nil || l.syncs != 1 {
		t.Errorf("close: %v, %d fsyncs; want none more, nothing was written (1)", err, l.syncs)
	}
	l = open(t, dir, nil)
	w, err := l.Reopen("b", "whiteboard.node")
	if err != nil {
		t.Fatal(err)
	}
	l.SyncEvery(time.Nanosecond)
	if err := w.Append(llm.Message{Role: llm.RoleAssistant, Content: "again"}); err != nil || l.syncs != 1 {
		t.Errorf("a turn after the interval: %v, %d fsyncs; want 1", err, l.syncs)
	}
}

// Load says "none" with no log and no file of the earlier layout, a
// dangling link where the log would be is refused when the run writes,
// and its target is never made.
func TestLoadNoneAndDanglingLink(t *testing.T) {
	dir := t.TempDir()
	l := open(t, dir, nil)
	if _, err := l.Load("slides/a/whiteboard", "whiteboard.node"); !errors.Is(err, ErrNone) {
		t.Fatalf("missing: %v, want ErrNone", err)
	}
	outside := filepath.Join(t.TempDir(), "never")
	if err := os.Symlink(outside, filepath.Join(dir, statedir.HistoryLog)); err != nil {
		t.Fatal(err)
	}
	l = open(t, dir, nil)
	if _, err := l.Load("slides/a/whiteboard", "whiteboard.node"); !errors.Is(err, ErrNone) {
		t.Fatalf("dangling link: %v, want ErrNone", err)
	}
	var le *statedir.LinkError
	if _, err := l.Create(Header{Node: "slides/a/whiteboard", Level: "whiteboard.node"}); !errors.As(err, &le) {
		t.Fatalf("create through a dangling link: %v, want a LinkError", err)
	}
	if _, err := os.Lstat(outside); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the link's target was created: %v", err)
	}
	// A link to a real log elsewhere is refused as the run opens it.
	if err := os.WriteFile(outside, []byte(`{"format":2,"node":"n","level":"l"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, nil); !errors.As(err, &le) {
		t.Fatalf("open through a link: %v, want a LinkError", err)
	}
}

// The interval counts from the last fsync, not from the log's opening: a
// turn that made the log durable starts a new interval, and the turn
// right after it waits.
func TestSyncEveryCountsFromLastSync(t *testing.T) {
	l := open(t, t.TempDir(), nil)
	w, err := l.Create(Header{Node: "n", Level: "whiteboard.node"})
	if err != nil {
		t.Fatal(err)
	}
	l.SyncEvery(time.Hour)
	l.synced = time.Now().Add(-2 * time.Hour) // opened two hours ago
	before := Syncs()
	for i := range 3 {
		if err := w.Append(llm.Message{Role: llm.RoleAssistant, Content: "turn"}); err != nil {
			t.Fatal(err)
		}
		if l.syncs != 1 {
			t.Fatalf("after turn %d: %d fsyncs, want 1 (the first turn, past the interval; the next inside the new one)", i+1, l.syncs)
		}
	}
	if got := Syncs() - before; got != 1 {
		t.Errorf("Syncs counted %d, want 1", got)
	}
}
