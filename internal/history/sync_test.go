package history

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"testing"

	"github.com/lessongen/lessongen/internal/statedir"
	"github.com/lessongen/lessongen/llm"
)

// A turn is made durable once, when the model's next turn is appended
// (with the results before it) and at the end; every record is in the
// file as soon as Append returns, so a killed process loses none.
func TestOneSyncPerTurn(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, Header{Node: "n", Level: "whiteboard.node"}, nil)
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
	if w.syncs != 2 { // two model turns, the header with the first
		t.Errorf("%d fsyncs for two turns, want 2 (one per turn)", w.syncs)
	}
	// Written though not yet synced: another reader sees it all.
	if err := w.Append(llm.Message{Role: llm.RoleUser, Content: "more"}); err != nil {
		t.Fatal(err)
	}
	conv, err := Load(dir, "n", "whiteboard.node")
	if err != nil || len(conv.Messages) != 7 {
		t.Fatalf("load before close: %d messages, %v; want all 7", len(conv.Messages), err)
	}
	if err := w.Close(); err != nil || w.syncs != 3 {
		t.Errorf("close: %v, %d fsyncs; want the rest made durable (3)", err, w.syncs)
	}
}

// With SyncEvery (the run's checkpoint interval) a turn inside the
// interval waits for the next fsync; the end still makes it all durable.
func TestSyncEveryInterval(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, Header{Node: "n", Level: "whiteboard.node"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.SyncEvery(time.Hour)
	call := []llm.ToolCall{{ID: "c1", Name: "f", Arguments: "{}"}}
	for range 5 {
		for _, m := range []llm.Message{{Role: llm.RoleAssistant, ToolCalls: call}, {Role: llm.RoleTool, ToolCallID: "c1", Content: `{"ok":true}`}} {
			if err := w.Append(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if w.syncs != 0 {
		t.Errorf("%d fsyncs for five turns inside the interval, want 0", w.syncs)
	}
	if err := w.SetContentHash("h"); err != nil || w.syncs != 1 {
		t.Errorf("content hash: %v, %d fsyncs; want the end made durable (1)", err, w.syncs)
	}
	if err := w.Close(); err != nil || w.syncs != 1 {
		t.Errorf("close: %v, %d fsyncs; want none more (1)", err, w.syncs)
	}
	w2, err := Reopen(dir, "n", "whiteboard.node", nil)
	if err != nil {
		t.Fatal(err)
	}
	w2.SyncEvery(time.Nanosecond)
	if err := w2.Append(llm.Message{Role: llm.RoleAssistant, Content: "again"}); err != nil || w2.syncs != 1 {
		t.Errorf("a turn after the interval: %v, %d fsyncs; want 1", err, w2.syncs)
	}
	w2.Close()
}

// Load says "none" for a missing file without the walk, and a dangling
// link where the file would be is still refused when Create writes.
func TestLoadNoneAndDanglingLink(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir, "slides/a/whiteboard", "whiteboard.node"); !errors.Is(err, ErrNone) {
		t.Fatalf("missing: %v, want ErrNone", err)
	}
	folder := filepath.Join(dir, "history", "slides", "a", "whiteboard")
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "never")
	if err := os.Symlink(outside, filepath.Join(folder, "whiteboard.node.jsonl")); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir, "slides/a/whiteboard", "whiteboard.node"); !errors.Is(err, ErrNone) {
		t.Fatalf("dangling link: %v, want ErrNone", err)
	}
	var le *statedir.LinkError
	if _, err := Create(dir, Header{Node: "slides/a/whiteboard", Level: "whiteboard.node"}, nil); !errors.As(err, &le) {
		t.Fatalf("create through a dangling link: %v, want a LinkError", err)
	}
	if _, err := os.Lstat(outside); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the link's target was created: %v", err)
	}
}

// The interval counts from the last fsync, not from the file's opening: a
// turn that made the file durable starts a new interval, and the turn
// right after it waits.
func TestSyncEveryCountsFromLastSync(t *testing.T) {
	w, err := Create(t.TempDir(), Header{Node: "n", Level: "whiteboard.node"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SyncEvery(time.Hour)
	w.synced = time.Now().Add(-2 * time.Hour) // opened two hours ago
	before := Syncs()
	for i := range 3 {
		if err := w.Append(llm.Message{Role: llm.RoleAssistant, Content: "turn"}); err != nil {
			t.Fatal(err)
		}
		if w.syncs != 1 {
			t.Fatalf("after turn %d: %d fsyncs, want 1 (the first turn, past the interval; the next inside the new one)", i+1, w.syncs)
		}
	}
	if got := Syncs() - before; got != 1 {
		t.Errorf("Syncs counted %d, want 1", got)
	}
}
