package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/cmd"
	"github.com/lessongen/lessongen/internal/fakellm"
)

var update = flag.Bool("update", false, "re-record "+exampleRecording+" from "+exampleScript)

// The example's offline run: a recording made from a scripted model whose
// answers are written by hand, replayed by the README's first command.
const (
	exampleDir       = "examples/photosynthesis"
	exampleRecording = exampleDir + "/recording.jsonl"
	exampleScript    = exampleDir + "/scripted-model.json"
	exampleNote      = "made by `go test -run TestExampleRecording -update .` from scripted-model.json: a scripted fake model whose answers are written by hand, not a real model's; replay with --replay"
)

// TestExampleRecording records the example's run against the scripted
// model and checks the shipped recording holds the same requests; with
// -update it replaces the shipped recording. A change to a prompt, a tool
// or a default setting makes it fail until the recording is made again.
func TestExampleRecording(t *testing.T) {
	repo, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exampleScript)
	if err != nil {
		t.Fatal(err)
	}
	script, err := fakellm.ParseScript(data)
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.Start(t, script)
	cleanEnv(t)
	t.Setenv("LESSONGEN_BASE_URL", srv.URL())
	t.Setenv("LESSONGEN_API_KEY", fakellm.DummyAPIKey)
	inExampleTree(t, repo)
	before := treeFiles(t, exampleDir)

	code, stdout, stderr := runLessongen(t, "generate", exampleDir+"/lesson.yaml", "--record", "rec.jsonl", "-o", "out/lesson.yaml", "--concurrency", "1")
	if code != 0 {
		t.Fatalf("recording run: exit %d\n%s%s", code, stdout, stderr)
	}
	// A run of the example elsewhere (the README's) saves its
	// conversations with its output, not in the repository, where the
	// next recording run would continue them.
	if got := treeFiles(t, exampleDir); !slices.Equal(got, before) {
		t.Errorf("the run changed the example's folder:\n%v\nwant:\n%v", got, before)
	}
	if _, err := os.Stat("out/.lessongen/lesson.yaml/history.jsonl"); err != nil {
		t.Errorf("the run's conversations are not beside its output: %v", err)
	}
	if code, stdout, stderr := runLessongen(t, "validate", "--strict", "out/lesson.yaml"); code != 0 || !strings.Contains(stdout, ", 0 pending spots)") {
		t.Fatalf("the recorded run's lesson does not pass validate --strict with nothing left pending: exit %d\n%s%s", code, stdout, stderr)
	}
	rec, err := os.ReadFile("rec.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	// The header names the fake server's port; the note says what made it.
	head, _ := json.Marshal(map[string]any{"format": 1, "note": exampleNote})
	// Lines in key order (answers to one key keep theirs), so a
	// re-recording differs only where a request or answer did.
	lines := bytes.Split(bytes.TrimSpace(rec), []byte("\n"))[1:]
	key := func(l []byte) []byte { k, _, _ := bytes.Cut(l, []byte(",")); return k }
	slices.SortStableFunc(lines, func(a, b []byte) int { return bytes.Compare(key(a), key(b)) })
	rec = append(append(head, '\n'), append(bytes.Join(lines, []byte("\n")), '\n')...)
	if bytes.Contains(rec, []byte(fakellm.DummyAPIKey)) {
		t.Fatal("the recording holds the API key")
	}

	shipped := filepath.Join(repo, exampleRecording)
	if *update {
		if err := os.WriteFile(shipped, rec, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d answers)", exampleRecording, len(recordedKeys(t, rec)))
		return
	}
	old, err := os.ReadFile(shipped)
	if err != nil {
		t.Fatalf("%v\nfix: go test -run TestExampleRecording -update .", err)
	}
	if got, want := recordedKeys(t, rec), recordedKeys(t, old); !slices.Equal(got, want) {
		t.Fatalf("%s is stale: the run now makes other requests than it holds (%d now, %d recorded)\nfix: go test -run TestExampleRecording -update . (then review the diff)", exampleRecording, len(got), len(want))
	}
}

// TestReadmeFirstCommand runs the first command of the README exactly as
// written, on a copy of the example with its shipped recording, with no key
// and no server: it must replay the whole run. A /tmp/ path in it is taken
// inside the test's own temporary folder.
func TestReadmeFirstCommand(t *testing.T) {
	repo, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	line := firstCommand(t, readme)
	args := strings.Fields(strings.TrimPrefix(line, "go run . "))
	if !slices.Contains(args, "--replay") {
		t.Fatalf("the README's first command is not a replay: %s", line)
	}
	cleanEnv(t)
	dir := inExampleTree(t, repo)
	before := treeFiles(t, filepath.Join(dir, exampleDir))
	out := ""
	for i, a := range args {
		if strings.HasPrefix(a, "/tmp/") {
			args[i] = filepath.Join(dir, a)
			if i > 0 && (args[i-1] == "-o" || args[i-1] == "--output") {
				out = args[i]
			}
		}
	}
	code, stdout, stderr := runLessongen(t, args...)
	if code != 0 {
		t.Fatalf("%s\nexit %d\n%s%s\nfix: if a prompt changed on purpose, go test -run TestExampleRecording -update .", line, code, stdout, stderr)
	}
	if out == "" {
		t.Fatalf("the README's first command names no -o /tmp/... output: %s", line)
	}
	if !strings.Contains(stdout, "wrote "+out) {
		t.Errorf("it does not say where the lesson went:\n%s", stdout)
	}
	for _, want := range []string{"this was a replay of " + exampleRecording, "lessongen render " + out} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	if code, stdout, stderr := runLessongen(t, "validate", "--strict", out); code != 0 {
		t.Fatalf("the replayed lesson does not pass validate --strict: exit %d\n%s%s", code, stdout, stderr)
	}
	// The run's state goes with its output: nothing appears in the
	// example's folder (the repository's), where it would change what
	// the repository's own tests read.
	if got := treeFiles(t, filepath.Join(dir, exampleDir)); !slices.Equal(got, before) {
		t.Errorf("the run changed the example's folder:\n%v\nwant:\n%v", got, before)
	}
}

// treeFiles lists every file under dir with its size and hash.
func treeFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files = append(files, fmt.Sprintf("%s %x", rel, sha256.Sum256(data)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// firstCommand is the first "go run ." line of the README's first sh block.
func firstCommand(t *testing.T, readme []byte) string {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(readme))
	in := false
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		switch {
		case l == "```sh":
			in = true
		case l == "```" && in:
			t.Fatal("the README's first sh block has no go run . command")
		case in && strings.HasPrefix(l, "go run . "):
			if strings.ContainsAny(l, `"'$\|;&<>`+"`") {
				t.Fatalf("the README's first command uses shell syntax this test does not run: %s", l)
			}
			return l
		}
	}
	t.Fatal("the README has no sh block")
	return ""
}

// cleanEnv keeps the developer's key, server and config out of the run.
func cleanEnv(t *testing.T) {
	for _, k := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "LESSONGEN_API_KEY", "LESSONGEN_BASE_URL", "LESSONGEN_MODEL", "LESSONGEN_CONFIG", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID"} {
		t.Setenv(k, "")
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
}

// inExampleTree makes a temporary folder holding a copy of the repository's
// example at the same relative path, and makes it the working directory.
func inExampleTree(t *testing.T, repo string) string {
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, exampleDir), os.DirFS(filepath.Join(repo, exampleDir))); err != nil {
		t.Fatal(err)
	}
	// Without the state an in-place run of the example left, if any: the
	// tests start from the example as shipped.
	if err := os.RemoveAll(filepath.Join(dir, exampleDir, ".lessongen")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	return dir
}

func runLessongen(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := cmd.Run(context.Background(), args, &cmd.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	return code, out.String(), errOut.String()
}

// recordedKeys are a recording's request keys, sorted: the requests it
// holds, whatever order concurrent requests were answered in.
func recordedKeys(t *testing.T, rec []byte) []string {
	t.Helper()
	var keys []string
	for i, line := range bytes.Split(bytes.TrimSpace(rec), []byte("\n"))[1:] {
		var e struct {
			Key string `json:"key"`
		}
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatalf("recording line %d: %v", i+2, err)
		}
		keys = append(keys, e.Key)
	}
	slices.Sort(keys)
	return keys
}
