// Package conformance_test is the modality contract's test: every
// registered modality, and a toy one defined in the test, is driven through
// each step a lesson goes through (load, plan, generate against the fake
// model, save, resume after an interruption, validate, render, schema), and
// the test fails when a step leaves a modality out. The folder holds tests
// only.
package conformance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/cmd"
	"github.com/lessongen/lessongen/internal/fakellm"
	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// registry is the program's registry with the toy worksheet registered
// beside the real kinds: its one line outside its own file.
func registry(t *testing.T) *modality.Registry {
	t.Helper()
	base, err := cmd.Registry()
	if err != nil {
		t.Fatal(err)
	}
	reg, err := base.With(worksheetModality())
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// drawn is what the child kinds' render hooks returned, by kind: render
// must have asked every kind to draw itself, and written what it drew.
type drawn struct {
	mu   sync.Mutex
	html map[string][]modality.Rendered
	pptx map[string][]modality.PPTXRendered
}

func (d *drawn) reset() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.html, d.pptx = map[string][]modality.Rendered{}, map[string][]modality.PPTXRendered{}
}

// watched is reg with each child kind's render hooks recording what they
// drew; they draw exactly as before.
func watched(t *testing.T, reg *modality.Registry) (*modality.Registry, *drawn) {
	t.Helper()
	d := &drawn{}
	d.reset()
	var kids []modality.Descriptor
	for _, k := range reg.Children() {
		c, render, deck := *k, k.Render, k.PPTX
		c.Render = func(st session.State, b map[string]string) modality.Rendered {
			r := render(st, b)
			d.mu.Lock()
			d.html[c.Name] = append(d.html[c.Name], r)
			d.mu.Unlock()
			return r
		}
		c.PPTX = func(st session.State, b map[string]string, f pptx.Box) modality.PPTXRendered {
			r := deck(st, b, f)
			d.mu.Lock()
			d.pptx[c.Name] = append(d.pptx[c.Name], r)
			d.mu.Unlock()
			return r
		}
		kids = append(kids, c)
	}
	out, err := modality.New(*reg.Root(), kids...)
	if err != nil {
		t.Fatal(err)
	}
	return out, d
}

func run(t *testing.T, ctx context.Context, reg *modality.Registry, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = cmd.RunWith(ctx, args, &cmd.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, reg)
	return out.String(), errOut.String(), code
}

func hint(kind string) string { return "conformance brief for the " + kind }

// placements are the two ways a slide places a child: inline in the
// lesson, and in a file of its own. Each kind is placed both ways.
var placements = []struct {
	prefix string
	field  func(kind string) string
}{
	{"s-", func(kind string) string { return fmt.Sprintf("%s: !pending %q", kind, hint(kind)) }},
	{"f-", func(kind string) string { return fmt.Sprintf("%s: {file: %[1]s.yaml}", kind) }},
}

// nodes are kind's nodes, one per placement ("slides/s-quiz/quiz").
func nodes(kind string) []string {
	var out []string
	for _, p := range placements {
		out = append(out, "slides/"+p.prefix+kind+"/"+kind)
	}
	return out
}

// writeLesson writes a lesson with nothing pending but two slides per
// child kind, each placing that kind pending as a whole: inline, and in
// the kind's own file.
func writeLesson(t *testing.T, reg *modality.Registry, dir string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("version: 1\nmetadata:\n  title: Plants\n  subject: science\n  grade: \"4\"\n  objectives:\n    - Name the parts of a plant\nslides:\n")
	for _, k := range reg.Children() {
		for _, p := range placements {
			fmt.Fprintf(&b, "  - id: %s%s\n    title: The %[2]s\n    notes: Say what the %[2]s is for.\n    %s\n", p.prefix, k.Name, p.field(k.Name))
		}
		file := fmt.Sprintf("!pending %q\n", hint(k.Name))
		if err := os.WriteFile(filepath.Join(dir, k.Name+".yaml"), []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "lesson.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestEveryModalityGoesThroughEveryStep drives each registered child kind
// and the toy worksheet through the life of a lesson; each step fails the
// test for the kind it leaves out.
func TestEveryModalityGoesThroughEveryStep(t *testing.T) { everyStep(t, registry(t)) }

// TestEveryStepWithAnotherKind: one kind more than today's (a copy of the
// toy under another name) goes through every step too; a run sized for
// today's kinds (--concurrency 8) would wait forever for its subagents.
func TestEveryStepWithAnotherKind(t *testing.T) {
	base, err := cmd.Registry()
	if err != nil {
		t.Fatal(err)
	}
	another := worksheetModality()
	another.Name = "another" + toyName
	// The toy stays last: resume scripts its second turn.
	reg, err := base.With(another, worksheetModality())
	if err != nil {
		t.Fatal(err)
	}
	everyStep(t, reg)
}

func everyStep(t *testing.T, reg *modality.Registry) {
	reg, draws := watched(t, reg)
	path := writeLesson(t, reg, t.TempDir())
	t.Setenv("LESSONGEN_API_KEY", fakellm.DummyAPIKey)
	t.Setenv("LESSONGEN_STATE_DIR", "")
	if !t.Run("load and plan", func(t *testing.T) { loadAndPlan(t, reg, path) }) {
		t.FailNow()
	}
	if !t.Run("generate, interrupted", func(t *testing.T) { generateInterrupted(t, reg, path) }) {
		t.FailNow()
	}
	if !t.Run("resume", func(t *testing.T) { resume(t, reg, path) }) {
		t.FailNow()
	}
	t.Run("validate", func(t *testing.T) { validate(t, reg, path) })
	t.Run("render", func(t *testing.T) { render(t, reg, draws, path) })
	t.Run("schema", func(t *testing.T) { schema(t, reg) })
}

// loadAndPlan: the file loads with every kind registered, and not without
// it; plan lists both levels of each kind; tools lists them.
func loadAndPlan(t *testing.T, reg *modality.Registry, path string) {
	ctx := context.Background()
	if out, errOut, code := run(t, ctx, reg, "validate", path); code != cmd.ExitOK {
		t.Fatalf("validate (exit %d):\n%s%s", code, out, errOut)
	}
	plan, errOut, code := run(t, ctx, reg, "plan", path)
	if code != cmd.ExitOK {
		t.Fatalf("plan (exit %d):\n%s%s", code, plan, errOut)
	}
	tools, _, _ := run(t, ctx, reg, "tools")
	for _, k := range reg.Children() {
		for _, part := range modality.Parts() {
			for _, p := range placements {
				if want := fmt.Sprintf("slide %q · %s · %s", p.prefix+k.Name, k.Name, part); !strings.Contains(plan, want) {
					t.Errorf("plan does not list %q:\n%s", want, plan)
				}
			}
			if level := k.Name + "." + string(part); !strings.Contains(tools, level) {
				t.Errorf("tools does not list %s:\n%s", level, tools)
			}
		}
		if !strings.Contains(plan, hint(k.Name)) {
			t.Errorf("plan does not show the %s's brief:\n%s", k.Name, plan)
		}
		without := withoutKind(t, reg, k.Name)
		if _, errOut, code := run(t, ctx, without, "validate", path); code != cmd.ExitUsage || !strings.Contains(errOut, fmt.Sprintf("unknown key %q", k.Name)) {
			t.Errorf("validate without %s registered (exit %d): %s", k.Name, code, errOut)
		}
	}
}

func withoutKind(t *testing.T, reg *modality.Registry, name string) *modality.Registry {
	t.Helper()
	var kids []modality.Descriptor
	for _, k := range reg.Children() {
		if k.Name != name {
			kids = append(kids, *k)
		}
	}
	out, err := modality.New(*reg.Root(), kids...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// concurrency lets every child node's subagent run at once, as
// generateInterrupted needs: each hangs on its second request until the
// run is interrupted, so a node left waiting for a free slot would never
// make its first call. Sized from the registry, so another kind fits.
func concurrency(reg *modality.Registry) string {
	return strconv.Itoa(len(placements) * len(reg.Children()))
}

// firstCall is the call each kind's metadata subagent makes before the
// run is interrupted: the toy sets its title; a real kind makes a
// read-only call that takes no arguments (every kind has one: describe
// or list what is pending).
func firstCall(t *testing.T, k *modality.Descriptor) fakellm.FakeCall {
	t.Helper()
	if k.Name == toyName {
		return fakellm.FakeCall{Name: "set_title", Arguments: `{"title":"Parts of a plant"}`}
	}
	for _, in := range k.Intents {
		s, typ := in.Spec(), reflect.TypeOf(in)
		if s.ReadOnly && !s.Hidden && s.Capability == k.Read && typ.Kind() == reflect.Struct && typ.NumField() == 0 {
			return fakellm.FakeCall{Name: bridge.ToolName(typ), Arguments: "{}"}
		}
	}
	t.Fatalf("%s has no read-only intent without arguments", k.Name)
	return fakellm.FakeCall{}
}

// generateInterrupted: every kind's metadata subagent makes its first call,
// then the model hangs and the run is interrupted (as by Ctrl-C). What was
// committed is saved.
func generateInterrupted(t *testing.T, reg *modality.Registry, path string) {
	var rules []fakellm.Rule
	for _, k := range reg.Children() {
		rules = append(rules, fakellm.Rule{Match: []string{k.Name + ".metadata"}, Turns: []fakellm.Turn{
			{ToolCalls: []fakellm.FakeCall{firstCall(t, k)}}, {Hang: true, Times: -1}}})
	}
	srv := fakellm.Start(t, fakellm.Script{Rules: rules})
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan int)
	var out, errOut string
	go func() {
		var code int
		out, errOut, code = run(t, ctx, reg, "generate", path, "--base-url", srv.URL(), "--model", "m", "--concurrency", concurrency(reg))
		done <- code
	}()
	wait, stop := context.WithTimeout(context.Background(), time.Minute)
	defer stop()
	// Two requests per node: the first call's, then the one that hangs.
	err := srv.WaitForRequests(wait, 2*len(placements)*len(reg.Children()))
	cancel(cmd.ErrInterrupted)
	code := <-done
	if err != nil || code != cmd.ExitInterrupted {
		t.Fatalf("generate (exit %d, wait %v):\n%s%s", code, err, out, errOut)
	}
	for _, k := range reg.Children() {
		for _, node := range nodes(k.Name) {
			if got := sentTools(t, srv, node, k.Name+".metadata"); !strings.Contains(got, `"`+firstCall(t, k).Name+`"`) {
				t.Errorf("%s (%s.metadata) was not offered %s: %s", node, k.Name, firstCall(t, k).Name, got)
			}
		}
	}
	wantSaved(t, path, "title: Parts of a plant")
}

// wantSaved checks that the lesson and the worksheet's own file hold each
// of want.
func wantSaved(t *testing.T, path string, want ...string) {
	t.Helper()
	for _, file := range []string{path, filepath.Join(filepath.Dir(path), toyName+".yaml")} {
		data, _ := os.ReadFile(file)
		for _, w := range want {
			if !strings.Contains(string(data), w) {
				t.Errorf("%s lacks %q:\n%s", filepath.Base(file), w, data)
			}
		}
	}
}

// chatRequest is what the tests read of a request the fake model got.
type chatRequest struct {
	Messages []struct {
		Role      string `json:"role"`
		Content   any    `json:"content"`
		ToolCalls []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools json.RawMessage `json:"tools"`
}

// requestsFor are the requests made for node at level, in order.
func requestsFor(t *testing.T, srv *fakellm.Server, node, level string) []chatRequest {
	t.Helper()
	var out []chatRequest
	for _, r := range srv.Requests() {
		var req chatRequest
		if err := json.Unmarshal(r.Body, &req); err != nil {
			t.Fatal(err)
		}
		// The node's line is in the system message or, after the kickoff,
		// in the first user message.
		if len(req.Messages) > 1 && strings.Contains(fmt.Sprint(req.Messages[0].Content, req.Messages[1].Content), "Node: "+node+" ("+level+")") {
			out = append(out, req)
		}
	}
	return out
}

// sentTools is the tools offered with the first request for node at
// level.
func sentTools(t *testing.T, srv *fakellm.Server, node, level string) string {
	t.Helper()
	reqs := requestsFor(t, srv, node, level)
	if len(reqs) == 0 {
		t.Errorf("no request for %s at %s", node, level)
		return ""
	}
	return string(reqs[0].Tools)
}

// resume: a second run continues each kind's interrupted conversation (the
// model sees its own first call), and the toy is filled.
func resume(t *testing.T, reg *modality.Registry, path string) {
	var rules []fakellm.Rule
	for _, k := range reg.Children() {
		rules = append(rules, fakellm.Rule{Match: []string{k.Name + ".metadata"}, Turns: []fakellm.Turn{{Content: "starting afresh"}}})
	}
	// A continued conversation is at its second turn.
	rules[len(rules)-1].Turns = append(rules[len(rules)-1].Turns, fakellm.Turn{ToolCalls: []fakellm.FakeCall{
		{Name: "set_instructions", Arguments: `{"instructions":"Label the drawing."}`}}})
	rules = append(rules, fakellm.Rule{Match: []string{toyName + ".node"}, Turns: []fakellm.Turn{{ToolCalls: []fakellm.FakeCall{
		{Name: "add_task", Arguments: `{"text":"Label the leaf."}`}, {Name: "add_task", Arguments: `{"text":"Label the root."}`}}}}},
		fakellm.Rule{}) // every other level: "done"
	srv := fakellm.Start(t, fakellm.Script{Rules: rules})
	out, errOut, code := run(t, context.Background(), reg, "generate", path, "--base-url", srv.URL(), "--model", "m", "--concurrency", concurrency(reg))
	if code != cmd.ExitPartial { // the real kinds are left pending
		t.Errorf("generate (exit %d):\n%s%s", code, out, errOut)
	}
	for _, k := range reg.Children() {
		for _, node := range nodes(k.Name) {
			reqs := requestsFor(t, srv, node, k.Name+".metadata")
			if len(reqs) == 0 {
				t.Errorf("the resumed run made no request for %s at %s.metadata", node, k.Name)
			} else if !madeCall(reqs[0], firstCall(t, k).Name) {
				t.Errorf("%s (%s.metadata) started afresh: its saved conversation was not continued", node, k.Name)
			}
		}
	}
	wantSaved(t, path, "instructions: Label the drawing.", "- Label the leaf.", "- Label the root.")
}

func madeCall(req chatRequest, name string) bool {
	for _, m := range req.Messages {
		for _, c := range m.ToolCalls {
			if m.Role == "assistant" && c.Function.Name == name {
				return true
			}
		}
	}
	return false
}

// validate: the generated file is valid, and the toy's own check (a task
// needs text) reports at the task's line and column.
func validate(t *testing.T, reg *modality.Registry, path string) {
	ctx := context.Background()
	if out, errOut, code := run(t, ctx, reg, "validate", path); code != cmd.ExitOK {
		t.Errorf("validate after generate (exit %d):\n%s%s", code, out, errOut)
	}
	data, _ := os.ReadFile(path)
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, bytes.Replace(data, []byte("- Label the root."), []byte(`- ""`), 1), 0o644)
	_, errOut, code := run(t, ctx, reg, "validate", bad)
	if code != cmd.ExitUsage || !regexp.MustCompile(`bad\.yaml:\d+:\d+: .*tasks\[1\]: a task needs text`).MatchString(errOut) {
		t.Errorf("validate with an empty task (exit %d): %s", code, errOut)
	}
}
