package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/fakellm"
)

// A lesson whose two slides keep their whiteboards in their own files, so
// what a refinement may change (slides/b.yaml) is one file and everything
// else can be compared byte for byte.
const refineLesson = `version: 1
metadata:
  title: Magnets
  subject: science
  grade: "4"
slides:
  - id: a
    title: Attract
    notes: Opposite poles attract.
    whiteboard: {file: slides/a.yaml}
  - id: b
    title: Poles
    notes: Poles come in pairs.
    whiteboard: {file: slides/b.yaml}
`

const refineGenerate = `{"rules": [
  {"match": ["whiteboard.metadata"], "turns": [
    {"tool_calls": [{"name": "set_layout", "args": {"layout": "one row"}}]},
    {"content": "Planned."}
  ]},
  {"match": ["slides/a/whiteboard", "whiteboard.node"], "turns": [
    {"tool_calls": [{"name": "add_text", "args": {"x": 40, "y": 200, "w": 600, "h": 60, "text": "N attracts S"}}]},
    {"content": "Done."}
  ]},
  {"match": ["slides/b/whiteboard", "whiteboard.node"], "turns": [
    {"content": "Let me look first.", "tool_calls": [{"name": "describe_whiteboard", "args": {}}]},
    {"tool_calls": [
      {"name": "add_text", "args": {"x": 40, "y": 200, "w": 500, "h": 60, "text": "North \"N\" — and south\nS"}},
      {"name": "add_shape", "args": {"x": 600, "y": 200, "w": 200, "h": 100, "shape": "rect", "label": "a magnet"}}
    ]},
    {"content": "Done: text and a magnet."}
  ]}
]}`

// The fake answers turn i of a conversation by the number of assistant
// messages in it. The continued conversation holds three, or two when the
// agent ends a subagent as soon as nothing is left pending (then it also
// ends the refinement after its tool turn): the caption is turn 2 or 3.
const refineFill = `{"rules": [
  {"match": ["slides/b/whiteboard", "whiteboard.node"], "turns": [
    {"content": "unused"}, {"content": "unused"},
    {"tool_calls": [{"name": "add_text", "args": {"x": 40, "y": 400, "w": 500, "h": 60, "text": "Magnets pull"}}]},
    {"tool_calls": [{"name": "add_text", "args": {"x": 40, "y": 400, "w": 500, "h": 60, "text": "Magnets pull"}}]},
    {"content": "Caption added."}
  ]}
]}`

// TestRefineOnTheWire generates a lesson, then refines one slide with an
// instruction, and checks on the fake server what was sent: the slide's
// saved conversation comes back byte for byte as the generate run last
// sent it, then the model's last answer, then the instruction. And only
// that slide's file changes: every other file, and the other slide's saved
// conversation, stay byte for byte.
func TestRefineOnTheWire(t *testing.T) {
	cleanEnv(t)
	dir := t.TempDir()
	t.Chdir(dir)
	write(t, "lesson.yaml", refineLesson)
	write(t, "slides/a.yaml", "# slide a\nelements: !pending \"one line of text\"\n")
	write(t, "slides/b.yaml", "# slide b\nheading: Poles\nelements: !pending \"the two poles\"\n")

	gen := startScript(t, refineGenerate)
	if code, out, errOut := runLessongen(t, "generate", "lesson.yaml", "--concurrency", "1"); code != 0 {
		t.Fatalf("generate: exit %d\n%s%s", code, out, errOut)
	}
	last := lastRequestOf(t, gen.Requests(), "slides/b/whiteboard", "whiteboard.node")
	before := snapshot(t, dir)

	fill := startScript(t, refineFill)
	if code, out, errOut := runLessongen(t, "fill", "lesson.yaml", "--slide", "b", "--instruction", "Add a caption: Magnets pull"); code != 0 {
		t.Fatalf("fill: exit %d\n%s%s", code, out, errOut)
	}
	reqs := fill.Requests()
	if len(reqs) == 0 {
		t.Fatal("fill made no request")
	}
	// The refinement's first request: every message the generate run last
	// sent, byte for byte, then the answer to it (and its tool results),
	// then the instruction.
	first := messages(t, reqs[0].Body)
	if len(first) < len(last)+2 {
		t.Fatalf("the refinement sent %d messages; want the %d the generate run last sent, its answer and the instruction", len(first), len(last))
	}
	for i := range last {
		if !bytes.Equal(first[i], last[i]) {
			t.Errorf("message %d is not byte-identical on the wire:\ngenerate: %s\nfill:     %s", i, last[i], first[i])
		}
	}
	if role := string(first[len(last)]); !strings.Contains(role, `"role":"assistant"`) {
		t.Errorf("message %d = %s, want the generate run's last answer", len(last), role)
	}
	// The instruction, then what is locked and what may change.
	if got, want := string(first[len(first)-1]), `{"content":"Add a caption: Magnets pull\n\nLocked, written by the author`; !strings.HasPrefix(got, want) {
		t.Errorf("last message = %s, want the instruction first: %s", got, want)
	}
	if n := bytes.Count(reqs[0].Body, []byte(`"role":"user"`)); n != 2 {
		t.Errorf("the refinement's request holds %d user messages, want the kickoff and the instruction", n)
	}

	after := snapshot(t, dir)
	for name, data := range before {
		switch {
		case name == "slides/b.yaml" || strings.HasPrefix(name, ".lessongen/history/slides/b/whiteboard/whiteboard.node") ||
			name == ".lessongen/provenance.json": // slide b's new caption is the run's
			if bytes.Equal(after[name], data) {
				t.Errorf("%s did not change", name)
			}
		case !bytes.Equal(after[name], data):
			t.Errorf("%s changed, though only slide b was refined:\nbefore:\n%s\nafter:\n%s", name, data, after[name])
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok && !strings.HasSuffix(name, ".lock") {
			t.Errorf("%s appeared", name)
		}
	}
	if !bytes.Contains(after["slides/b.yaml"], []byte("Magnets pull")) {
		t.Errorf("slides/b.yaml lacks the refinement:\n%s", after["slides/b.yaml"])
	}
}

func write(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func startScript(t *testing.T, script string) *fakellm.Server {
	t.Helper()
	s, err := fakellm.ParseScript([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.Start(t, s)
	t.Setenv("LESSONGEN_BASE_URL", srv.URL())
	t.Setenv("LESSONGEN_API_KEY", fakellm.DummyAPIKey)
	return srv
}

// messages are a request's messages exactly as they came over the wire.
func messages(t *testing.T, body []byte) []json.RawMessage {
	t.Helper()
	var req struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	return req.Messages
}

// lastRequestOf is the messages of the last request whose system message
// holds every one of match.
func lastRequestOf(t *testing.T, reqs []fakellm.Recorded, match ...string) []json.RawMessage {
	t.Helper()
	var last []json.RawMessage
	for _, r := range reqs {
		msgs := messages(t, r.Body)
		ok := len(msgs) > 0
		for _, m := range match {
			ok = ok && bytes.Contains(msgs[0], []byte(m))
		}
		if ok {
			last = msgs
		}
	}
	if last == nil {
		t.Fatalf("no request for %v", match)
	}
	return last
}

// snapshot reads every file under dir, by slash path.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestReplayOfARefinement records a refinement, which continues a saved
// conversation, then puts the folder back as it was before it and replays
// it offline: the same files, and the saved conversations left as they
// were (a replay reads them, saves nothing).
func TestReplayOfARefinement(t *testing.T) {
	cleanEnv(t)
	dir := t.TempDir()
	t.Chdir(dir)
	write(t, "lesson.yaml", refineLesson)
	write(t, "slides/a.yaml", "# slide a\nelements: !pending \"one line of text\"\n")
	write(t, "slides/b.yaml", "# slide b\nheading: Poles\nelements: !pending \"the two poles\"\n")
	startScript(t, refineGenerate)
	if code, out, errOut := runLessongen(t, "generate", "lesson.yaml"); code != 0 {
		t.Fatalf("generate: exit %d\n%s%s", code, out, errOut)
	}
	before := snapshot(t, dir)

	fill := startScript(t, refineFill)
	refine := []string{"fill", "lesson.yaml", "--slide", "b", "--instruction", "Add a caption: Magnets pull"}
	rec := filepath.Join(t.TempDir(), "run.jsonl")
	if code, out, errOut := runLessongen(t, append(refine, "--record", rec)...); code != 0 {
		t.Fatalf("fill --record: exit %d\n%s%s", code, out, errOut)
	}
	recorded := snapshot(t, dir)
	if !bytes.Contains(recorded["slides/b.yaml"], []byte("Magnets pull")) {
		t.Fatalf("the recorded refinement did not refine:\n%s", recorded["slides/b.yaml"])
	}

	// Back to the state before the refinement; the server is gone.
	for name := range recorded {
		if _, ok := before[name]; !ok {
			os.Remove(name)
		}
	}
	for name, data := range before {
		write(t, name, string(data))
	}
	fill.Close()
	t.Setenv("LESSONGEN_API_KEY", "")
	if code, out, errOut := runLessongen(t, append(refine, "--replay", rec)...); code != 0 {
		t.Fatalf("fill --replay: exit %d\n%s%s", code, out, errOut)
	}
	replayed := snapshot(t, dir)
	for name, data := range before {
		want := recorded[name]
		if strings.HasPrefix(name, ".lessongen/") {
			want = data // a replay saves no conversation
		}
		if !bytes.Equal(replayed[name], want) {
			t.Errorf("%s after the replay:\n%s\nwant:\n%s", name, replayed[name], want)
		}
	}
}
