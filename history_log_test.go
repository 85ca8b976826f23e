package main

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

// historyLog is the saved conversations of lesson.yaml in the working
// folder (docs/history.md).
const historyLog = ".lessongen/lesson.yaml/history.jsonl"

// logLine is what a line of the history log says of itself.
type logLine struct {
	Format int    `json:"format"`
	Node   string `json:"node"`
	Level  string `json:"level"`
}

// conversationLines is node at level's conversation in the history log at
// path: its last header and the records after it, one line each.
func conversationLines(t *testing.T, path, node, level string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, ln := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		var l logLine
		if err := json.Unmarshal(ln, &l); err != nil {
			t.Fatalf("%s: %v: %s", path, err, ln)
		}
		if l.Node != node || l.Level != level {
			continue
		}
		if l.Format != 0 {
			out = nil
		}
		out = append(out, ln)
	}
	if len(out) == 0 {
		t.Fatalf("%s holds no conversation of %s (%s):\n%s", path, node, level, data)
	}
	return out
}

// replaceConversation writes the history log at path with node at
// level's lines replaced by lines, every other line as it was.
func replaceConversation(t *testing.T, path, node, level string, lines [][]byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, ln := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		var l logLine
		if json.Unmarshal(ln, &l) == nil && l.Node == node && l.Level == level {
			continue
		}
		b.Write(ln)
		b.WriteByte('\n')
	}
	for _, ln := range lines {
		b.Write(ln)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
