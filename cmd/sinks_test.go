package cmd

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lessongen/lessongen/internal/fakellm"
)

// The secrets of the run in TestSecretsReachNoSink: an API key, and the
// user and password of the base URL, which Go also sends as HTTP Basic
// credentials when no key is set.
const (
	sinkKey  = "sk-live-Sinks0123456789abcdefXYZ"
	sinkUser = "ann"
	sinkPass = "pw/Sinks+hunter2=9876"
)

// secretForms is every spelling of every secret that the fake server puts
// in front of the run, by name.
func secretForms() map[string]string {
	forms := map[string]string{}
	pctAll := func(s string) string {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			fmt.Fprintf(&b, "%%%02X", s[i])
		}
		return b.String()
	}
	zw := func(s string) string { return s[:5] + "\u200b" + s[5:11] + "\u200d" + s[11:] }
	for name, s := range map[string]string{"key": sinkKey, "password": sinkPass, "user:password": sinkUser + ":" + sinkPass} {
		forms[name] = s
		forms[name+" base64"] = base64.StdEncoding.EncodeToString([]byte(s))
		forms[name+" base64url"] = base64.RawURLEncoding.EncodeToString([]byte(s))
		forms[name+" hex"] = hex.EncodeToString([]byte(s))
		forms[name+" url-encoded"] = url.QueryEscape(s)
		forms[name+" percent-encoded"] = pctAll(s)
		forms[name+" zero-width split"] = zw(s)
	}
	forms["Basic"] = "Basic " + base64.StdEncoding.EncodeToString([]byte(sinkUser+":"+sinkPass))
	return forms
}

// leaks names the forms (and raw secrets, found again after dropping
// zero-width characters) that text holds.
func leaks(text string) []string {
	var found []string
	for name, f := range secretForms() {
		if name == "user:password" {
			// "ann:" is shown before a masked password by design; the
			// password itself is checked on its own.
			continue
		}
		if strings.Contains(text, f) {
			found = append(found, name)
		}
	}
	plain := strings.NewReplacer("\u200b", "", "\u200d", "", `\u200b`, "", `\u200d`, "").Replace(text)
	for _, s := range []string{sinkKey, sinkPass, "Sinks0123456789", "Sinks+hunter2"} {
		if strings.Contains(plain, s) {
			found = append(found, "raw "+s)
		}
	}
	return found
}

// sinkScript is a model that echoes every form of every secret: in its
// text, in tool-call arguments, in error bodies (a 500 that is retried and
// a 400 that fails a node), and through a source it reads, in a tool
// result.
func sinkScript() fakellm.Script {
	forms := secretForms()
	var all []string
	for name, f := range forms {
		all = append(all, name+"="+f)
	}
	allText := strings.Join(all, " | ")
	errBody, _ := json.Marshal(map[string]any{"error": map[string]string{"message": "bad request: " + allText, "type": "invalid_request_error"}})
	var bad []fakellm.FakeCall
	for _, f := range forms {
		args, _ := json.Marshal(map[string]string{"heading": "heading " + f})
		bad = append(bad, fakellm.FakeCall{Name: "set_heading", Arguments: string(args)})
	}
	var badText []fakellm.FakeCall
	for _, f := range forms {
		args, _ := json.Marshal(map[string]any{"x": 40, "y": 30, "w": 600, "h": 80, "text": f})
		badText = append(badText, fakellm.FakeCall{Name: "add_text", Arguments: string(args)})
	}
	return fakellm.Script{Rules: []fakellm.Rule{
		{Match: []string{"FAILNODE"}, Turns: []fakellm.Turn{{Status: 400, Times: -1, ErrorBody: string(errBody)}}},
		{Match: []string{"whiteboard.metadata"}, Turns: []fakellm.Turn{
			{Status: 500, Times: 1, ErrorBody: string(errBody), Content: "echo: " + allText, ToolCalls: bad},
			{Content: "clean now", ToolCalls: []fakellm.FakeCall{
				{Name: "set_heading", Arguments: `{"heading":"Safe heading"}`},
				{Name: "note_for_author", Arguments: `{"text":"a clean note","about":"heading"}`},
			}},
			{Content: "Done."},
		}},
		{Match: []string{"whiteboard.node"}, Turns: []fakellm.Turn{
			{Content: "reading", ToolCalls: []fakellm.FakeCall{{Name: "read_source", Arguments: `{"path":"secret.md"}`}}},
			{Content: "writing " + allText, ToolCalls: badText},
			{ToolCalls: []fakellm.FakeCall{{Name: "add_text", Arguments: `{"x":40,"y":300,"w":600,"h":80,"text":"A safe label"}`}}},
			{Content: "Done."},
		}},
	}}
}

const sinkLesson = `version: 1
metadata:
  title: Sinks
slides:
  - id: s
    title: S
    whiteboard: {file: slides/board.yaml}
  - id: f
    title: F
    whiteboard:
      heading: !pending "FAILNODE"
      elements: []
`

const sinkBoard = `heading: !pending
elements: !pending "one label"
`

// TestSecretsReachNoSink runs the real command against a model that echoes
// every form of every secret everywhere it can, then reads every place the
// program writes to — one table of sinks — and finds none of them.
func TestSecretsReachNoSink(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	writeFiles(t, src, map[string]string{
		"lesson.yaml":       sinkLesson,
		"slides/board.yaml": sinkBoard,
	})
	var lines []string
	for name, f := range secretForms() {
		lines = append(lines, name+": "+f)
	}
	writeFiles(t, filepath.Join(dir, "sources"), map[string]string{"secret.md": strings.Join(lines, "\n") + "\n"})

	srv := fakellm.Start(t, sinkScript())
	base, err := url.Parse(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	base.User = url.UserPassword(sinkUser, sinkPass)
	t.Setenv("LESSONGEN_API_KEY", sinkKey)
	t.Setenv("LESSONGEN_BASE_URL", base.String())
	t.Setenv("LESSONGEN_MODEL", "m")
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))

	out := filepath.Join(dir, "out")
	streams := map[string]*bytes.Buffer{}
	runCmd := func(name string, wantCode int, args ...string) {
		t.Helper()
		var o, e bytes.Buffer
		code := Run(context.Background(), args, &IOStreams{In: strings.NewReader(""), Out: &o, ErrOut: &e})
		if code != wantCode {
			t.Fatalf("%s: exit %d, want %d\nstderr:\n%s", name, code, wantCode, e.String())
		}
		streams[name+" stdout"], streams[name+" stderr"] = &o, &e
	}
	// The full run: exit 3, as the FAILNODE slide fails.
	runCmd("generate", ExitPartial, "generate", filepath.Join(src, "lesson.yaml"), "-o", filepath.Join(out, "lesson.yaml"),
		"--sources", filepath.Join(dir, "sources"), "--events", filepath.Join(dir, "events.jsonl"),
		"--record", filepath.Join(dir, "recording.jsonl"), "--json")
	runCmd("render html", ExitOK, "render", filepath.Join(out, "lesson.yaml"), "-o", filepath.Join(out, "lesson.html"))
	runCmd("render md", ExitOK, "render", filepath.Join(out, "lesson.yaml"), "--format", "md", "-o", filepath.Join(out, "lesson.md"))

	// A run the server refuses (401, the whole run stops): the final error
	// message quotes the body.
	refuse := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{{Turns: []fakellm.Turn{{Status: 401, Times: -1, ErrorBody: sinkScript().Rules[0].Turns[0].ErrorBody}}}}})
	rbase, _ := url.Parse(refuse.URL())
	rbase.User = url.UserPassword(sinkUser, sinkPass)
	t.Setenv("LESSONGEN_BASE_URL", rbase.String())
	writeFiles(t, filepath.Join(dir, "src2"), map[string]string{"lesson.yaml": sinkLesson, "slides/board.yaml": sinkBoard})
	runCmd("refused", ExitFailure, "generate", filepath.Join(dir, "src2", "lesson.yaml"),
		"--events", filepath.Join(dir, "events-refused.jsonl"), "--record", filepath.Join(dir, "recording-refused.jsonl"))
	if !strings.Contains(streams["refused stderr"].String(), "401") {
		t.Fatalf("the refused run did not report the 401: %s", streams["refused stderr"])
	}

	// A run in place whose author fills, during the run, the spot the run
	// fills: the run's version is saved beside the file as a conflict copy.
	script := sinkScript()
	script.Rules = script.Rules[1:] // no failing slide
	echo := script.Rules[0].Turns[0]
	script.Rules[0].Turns = []fakellm.Turn{
		{Hold: true, Content: echo.Content, ToolCalls: append(echo.ToolCalls, fakellm.FakeCall{Name: "set_heading", Arguments: `{"heading":"Safe heading"}`})},
		{Content: "Done."},
	}
	held := fakellm.Start(t, script)
	hbase, _ := url.Parse(held.URL())
	hbase.User = url.UserPassword(sinkUser, sinkPass)
	t.Setenv("LESSONGEN_BASE_URL", hbase.String())
	src3 := filepath.Join(dir, "src3")
	writeFiles(t, src3, map[string]string{"lesson.yaml": strings.Split(sinkLesson, "  - id: f")[0], "slides/board.yaml": sinkBoard})
	var o3, e3 bytes.Buffer
	code3 := make(chan int)
	go func() {
		code3 <- Run(context.Background(), []string{"generate", filepath.Join(src3, "lesson.yaml"), "--concurrency", "1",
			"--sources", filepath.Join(dir, "sources")}, &IOStreams{In: strings.NewReader(""), Out: &o3, ErrOut: &e3})
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := held.WaitForRequests(ctx, 1); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, src3, map[string]string{"slides/board.yaml": "heading: The author's own\nelements: !pending \"one label\"\n"})
	held.Release()
	if code := <-code3; code != ExitPartial || !strings.Contains(e3.String(), "conflict") {
		t.Fatalf("conflict run: exit %d, want %d and a conflict\n%s", code, ExitPartial, e3.String())
	}
	streams["conflict stdout"], streams["conflict stderr"] = &o3, &e3

	// The sinks. Each must exist (and hold something) so that finding no
	// secret in it means something; then every other file written under
	// dir is read too (history and notes wherever the state folder is,
	// conflict copies, temporary files).
	sinks := []struct {
		name string
		text func() string
	}{
		{"lesson file", file(t, out, "lesson.yaml")},
		{"child file", file(t, out, "slides/board.yaml")},
		{"events", file(t, dir, "events.jsonl")},
		{"events of the refused run", file(t, dir, "events-refused.jsonl")},
		{"recording", file(t, dir, "recording.jsonl")},
		{"recording of the refused run", file(t, dir, "recording-refused.jsonl")},
		{"rendered HTML", file(t, out, "lesson.html")},
		{"rendered Markdown", file(t, out, "lesson.md")},
		{"history", found(t, dir, ".lessongen", "history")},
		{"notes", found(t, dir, ".lessongen", "notes.jsonl")},
		{"conflict copy", found(t, src3, "slides", "lessongen-conflict")},
	}
	for name, b := range streams {
		sinks = append(sinks, struct {
			name string
			text func() string
		}{name, b.String})
	}
	for _, s := range sinks {
		text := s.text()
		if strings.TrimSpace(text) == "" && !strings.HasSuffix(s.name, "stdout") {
			t.Errorf("%s: empty; the test must see something written there", s.name)
		}
		if l := leaks(text); len(l) > 0 {
			t.Errorf("%s holds %s", s.name, strings.Join(l, ", "))
		}
	}
	// Every file written, wherever it is.
	planted := map[string]bool{filepath.Join(dir, "sources", "secret.md"): true}
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || planted[p] {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if l := leaks(string(data)); len(l) > 0 {
			rel, _ := filepath.Rel(dir, p)
			t.Errorf("%s holds %s", rel, strings.Join(l, ", "))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The run did see the secrets: the model was refused and the source read.
	if ev := file(t, dir, "events.jsonl")(); !strings.Contains(ev, "hold a secret") || !strings.Contains(ev, "[redacted]") {
		t.Errorf("the events show no refused call or redaction; the scenario did not happen")
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// file reads a sink that must exist.
func file(t *testing.T, dir, name string) func() string {
	return func() string {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("sink %s: %v", name, err)
		}
		return string(data)
	}
}

// found reads every file under a folder named folder anywhere below dir
// whose path holds part: the state folder's place and layout are not
// this test's business, only that what is there was found.
func found(t *testing.T, dir, folder, part string) func() string {
	return func() string {
		var b strings.Builder
		n := 0
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			if strings.Contains(rel, folder+string(filepath.Separator)) && strings.Contains(rel, part) {
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				b.Write(data)
				n++
			}
			return nil
		})
		if n == 0 {
			t.Errorf("no %s file under any %s folder", part, folder)
		}
		return b.String()
	}
}

// Rendered HTML and Markdown hold no control character or bidi override
// from lesson text, piped or saved: each is a character reference, which
// the page shows the same and a terminal (cat, -o -) shows as text.
func TestRenderWritesNoControls(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"lesson.yaml": "version: 1\nmetadata:\n  title: \"T \\e]0;pwned\\a \\u202eevil\"\nslides:\n  - id: s\n    title: \"S \\e[31;1mred\"\n    notes: \"N \\e[2J\\r\"\n    whiteboard:\n      heading: \"H \\u2066x\\u2069\"\n      elements: []\n"})
	lesson := filepath.Join(dir, "lesson.yaml")
	for _, format := range []string{"html", "md"} {
		stdout, stderr, code := run(t, "render", lesson, "--format", format, "-o", "-")
		saved := filepath.Join(dir, "lesson."+format)
		if _, _, c := run(t, "render", lesson, "--format", format, "-o", saved); c != 0 || code != 0 {
			t.Fatalf("%s: exit %d, %d: %s", format, code, c, stderr)
		}
		for name, text := range map[string]string{"stdout": stdout, "file": file(t, dir, "lesson."+format)()} {
			if i := strings.IndexAny(text, "\x1b\x07\r\u202e\u2066\u2069"); i >= 0 {
				t.Errorf("%s %s: a raw control at %d: %q", format, name, i, text[max(0, i-20):min(len(text), i+20)])
			}
			for _, ref := range []string{"&#x1b;]0;pwned&#x7;", "&#x202e;evil", "&#x1b;[31;1mred", "&#x2066;x&#x2069;"} {
				if !strings.Contains(text, ref) {
					t.Errorf("%s %s: no %q", format, name, ref)
				}
			}
		}
	}
}

// A PowerPoint deck is binary: to a terminal it is refused (exit 2), to a
// pipe it is written as made, a zip.
func TestRenderPPTXToTerminalRefused(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"lesson.yaml": "version: 1\nmetadata:\n  title: T\nslides:\n  - id: s\n    title: S\n"})
	lesson := filepath.Join(dir, "lesson.yaml")
	var out, errOut bytes.Buffer
	code := Run(context.Background(), []string{"render", lesson, "--format", "pptx", "-o", "-"}, &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut, OutTTY: true})
	if code != ExitUsage || out.Len() != 0 || !strings.Contains(errOut.String(), "name a file (-o lesson.pptx)") {
		t.Errorf("to a terminal: exit %d, %d bytes out, stderr %q", code, out.Len(), errOut.String())
	}
	stdout, stderr, code := run(t, "render", lesson, "--format", "pptx", "-o", "-")
	if code != 0 || !strings.HasPrefix(stdout, "PK\x03\x04") {
		t.Errorf("to a pipe: exit %d, starts %q, stderr %q", code, stdout[:min(len(stdout), 8)], stderr)
	}
}
