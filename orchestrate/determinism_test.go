package orchestrate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/event"
	"github.com/lessongen/lessongen/internal/fakellm"
	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/llm"
	"github.com/lessongen/lessongen/templates"
)

// digestScript fills every level in one turn with text that is a hash of
// the conversation so far ("{{digest}}"): a model that answers the same
// prompt the same way, and any other prompt differently. Whatever a
// subagent's prompt or results depend on shows in the lesson.
func digestScript() fakellm.Script {
	// A look first, so the writes depend on the tool results too.
	calls := func(cs ...fakellm.FakeCall) []fakellm.Turn {
		return []fakellm.Turn{{ToolCalls: []fakellm.FakeCall{{Name: "list_pending", Arguments: `{}`}}}, {ToolCalls: cs}, {Content: "Done."}}
	}
	return fakellm.Script{Created: 1, Rules: []fakellm.Rule{
		{Match: []string{"(lesson.metadata)"}, Turns: calls(
			fakellm.FakeCall{Name: "set_objectives", Arguments: `{"objectives":["Explain {{digest}}"]}`})},
		{Match: []string{"(lesson.node)"}, Turns: calls(
			fakellm.FakeCall{Name: "add_slide", Arguments: `{"title":"New {{digest}}","section":"Explore","duration_minutes":5,"notes":"N {{digest}}","whiteboard":"a board","quiz":"a quiz"}`})},
		{Match: []string{"(whiteboard.metadata)"}, Turns: calls(
			fakellm.FakeCall{Name: "set_heading", Arguments: `{"heading":"H {{digest}}"}`},
			fakellm.FakeCall{Name: "set_layout", Arguments: `{"layout":"L {{digest}}"}`})},
		{Match: []string{"(whiteboard.node)"}, Turns: calls(
			fakellm.FakeCall{Name: "add_text", Arguments: `{"x":40,"y":140,"w":600,"h":40,"text":"T {{digest}}"}`})},
		{Match: []string{"(quiz.metadata)"}, Turns: calls(
			fakellm.FakeCall{Name: "set_kind", Arguments: `{"kind":"check"}`},
			fakellm.FakeCall{Name: "set_instructions", Arguments: `{"instructions":"I {{digest}}"}`})},
		{Match: []string{"(quiz.node)"}, Turns: calls(
			fakellm.FakeCall{Name: "add_question", Arguments: `{"prompt":"Q {{digest}}?","options":[{"text":"yes {{digest}}","correct":true},{"text":"no","correct":false}]}`})},
	}}
}

// digestLesson has every level pending on several slides, each with a
// whiteboard and a quiz, and slides for the lesson's node to add.
func digestLesson(slides int) string {
	var b strings.Builder
	b.WriteString("version: 1\nmetadata:\n  title: Fractions\n  objectives: !pending \"one objective\"\nslides:\n")
	for i := range slides {
		fmt.Fprintf(&b, "  - id: s%d\n    title: Slide %d\n    whiteboard: !pending \"board %d\"\n    quiz: !pending \"two questions\"\n", i, i, i)
	}
	b.WriteString("  - !pending \"one more slide\"\n")
	return b.String()
}

// TestSameAnswersSameLesson: the same answers give the same lesson at any
// concurrency. What a subagent is shown (its prompt, its tool results) is
// fixed by the tree, never by which sibling happened to finish first.
func TestSameAnswersSameLesson(t *testing.T) {
	srv := fakellm.Start(t, digestScript())
	model, err := llm.New(llm.Config{BaseURL: srv.URL(), APIKey: fakellm.DummyAPIKey, Model: "fake", Limiter: llm.NewLimiter(0, 8)})
	if err != nil {
		t.Fatal(err)
	}
	reg := goldenRegistry(t)
	tmpl, err := templates.Load("", templates.LevelsOf(reg))
	if err != nil {
		t.Fatal(err)
	}
	br, err := bridge.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	runs := 5
	if testing.Short() {
		runs = 2
	}
	for _, budget := range []Budget{{}, {MaxRequests: 10_000, MaxTokens: 100_000_000}} {
		sameLessons(t, model, br, tmpl, budget, runs)
	}
}

func sameLessons(t *testing.T, model llm.Model, br *bridge.Bridge, tmpl *templates.Set, budget Budget, runs int) {
	t.Helper()
	reg := br.Registry()
	var want string
	for _, conc := range []int{1, 4, 8} {
		for run := range runs {
			path := filepath.Join(t.TempDir(), "lesson.yaml")
			if err := os.WriteFile(path, []byte(digestLesson(6)), 0o644); err != nil {
				t.Fatal(err)
			}
			doc, err := compose.Load(path, reg)
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{Bridge: br, Model: model, Templates: tmpl, Form: bridge.Strict, Approval: bridge.ApproveAuto, MaxSteps: 6, Concurrency: conc, Budget: budget}
			report, err := Run(context.Background(), doc, Scope{}, opts)
			if err != nil || len(report.Incomplete()) > 0 {
				t.Fatalf("budget %+v concurrency %d run %d: %v %+v", budget, conc, run, err, report.Incomplete())
			}
			files, err := doc.Render("")
			if err != nil {
				t.Fatal(err)
			}
			var got strings.Builder
			for _, f := range files {
				fmt.Fprintf(&got, "=== %s\n%s", filepath.Base(f.Path), f.Data)
			}
			if want == "" {
				want = got.String()
				continue
			}
			if got.String() != want {
				t.Fatalf("budget %+v concurrency %d run %d: another lesson than at concurrency 1:\n%s", budget, conc, run, lineDiff(want, got.String()))
			}
		}
	}
}

// lineDiff lists the lines that differ, by position.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out []string
	for i := range max(len(al), len(bl)) {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			out = append(out, fmt.Sprintf("%d:\n- %s\n+ %s", i+1, x, y))
		}
	}
	return strings.Join(out, "\n")
}

// TestResultsFlatPendingOnce: a tool result holds its output itself, not
// in a list of one ("result":[[…]]), and the pending list only when the
// call changed it: the prompt has it, and reads or failed calls would
// only repeat it.
func TestResultsFlatPendingOnce(t *testing.T) {
	script := fakellm.Script{Rules: []fakellm.Rule{
		{Match: []string{"(whiteboard.metadata)"}, Turns: []fakellm.Turn{{ToolCalls: []fakellm.FakeCall{
			{Name: "list_pending", Arguments: `{}`},
			{Name: "set_heading", Arguments: `{"heading":"Fractions"}`},
			{Name: "set_heading", Arguments: `{"heading":" "}`},
			{Name: "describe_whiteboard", Arguments: `{}`},
		}}, {ToolCalls: []fakellm.FakeCall{{Name: "set_layout", Arguments: `{"layout":"one column"}`}}}}},
		{Match: []string{"(whiteboard.node)"}, Turns: []fakellm.Turn{{ToolCalls: []fakellm.FakeCall{
			{Name: "add_text", Arguments: `{"x":40,"y":140,"w":300,"h":40,"text":"T"}`}}}}},
	}}
	srv := fakellm.Start(t, script)
	model, err := llm.New(llm.Config{BaseURL: srv.URL(), APIKey: fakellm.DummyAPIKey, Model: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := compose.Load(writeLesson(t, 1, ""), testRegistry())
	if err != nil {
		t.Fatal(err)
	}
	opts := options(t, model, 1)
	results := map[string]string{}
	opts.Events = func(e event.Event) {
		if e.Kind == event.ToolResult && e.Level == "whiteboard.metadata" && e.Step == 1 {
			results[e.CallID] = string(e.Result)
		}
	}
	if _, err := Run(context.Background(), doc, Scope{}, opts); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]struct{ pending, result string }{
		"call_t0_0": {"", `"result":[{"level":"metadata","path":"heading"`}, // the read: its list, flat
		"call_t0_1": {`"pending":[{"level":"metadata","path":"layout"`, `"result":{`},
		"call_t0_2": {"", `"error":{"kind":"invalid_args"`}, // failed: nothing changed
		"call_t0_3": {"", `"result":"`},
	} {
		got := results[id]
		if !strings.Contains(got, want.result) || strings.Contains(got, `"result":[[`) {
			t.Errorf("%s: %s\nwant a flat result with %s", id, got, want.result)
		}
		if has := strings.Contains(got, `"pending"`); has != (want.pending != "") || !strings.Contains(got, want.pending) {
			t.Errorf("%s: %s\nwant pending %q", id, got, want.pending)
		}
	}
}

// TestDescribeSlide: the lesson's node subagent, writing notes for an
// author's slide, reads the slide whole (describe_slide): its board's
// brief and elements and its quiz, which the outline leaves out.
func TestDescribeSlide(t *testing.T) {
	script := fakellm.Script{Rules: []fakellm.Rule{
		{Match: []string{"(lesson.node)"}, Turns: []fakellm.Turn{
			{ToolCalls: []fakellm.FakeCall{{Name: "describe_slide", Arguments: `{"id":"2"}`}}},
			{ToolCalls: []fakellm.FakeCall{{Name: "update_slide", Arguments: `{"id":"halves","notes":"Point at the shaded half."}`}}}}},
		{Match: []string{"(quiz.node)"}, Turns: []fakellm.Turn{{ToolCalls: []fakellm.FakeCall{
			{Name: "add_question", Arguments: `{"prompt":"Which is half?","options":[{"text":"1/2","correct":true},{"text":"1/3","correct":false}]}`}}}}},
	}}
	srv := fakellm.Start(t, script)
	model, err := llm.New(llm.Config{BaseURL: srv.URL(), APIKey: fakellm.DummyAPIKey, Model: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "lesson.yaml")
	src := `version: 1
metadata:
  title: Fractions
slides:
  - id: intro
    title: Intro
    notes: Welcome.
  - id: halves
    title: Halves
    notes: !pending
    whiteboard:
      heading: One half
      elements:
        - {id: shaded, type: shape, shape: rect, label: the shaded half, x: 100, y: 200, w: 300, h: 200}
    quiz:
      kind: check
      questions: !pending "one question on halves"
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := goldenRegistry(t)
	doc, err := compose.Load(path, reg)
	if err != nil {
		t.Fatal(err)
	}
	opts := options(t, model, 1)
	if opts.Bridge, err = bridge.New(reg); err != nil {
		t.Fatal(err)
	}
	if opts.Templates, err = templates.Load("", templates.LevelsOf(reg)); err != nil {
		t.Fatal(err)
	}
	var described string
	opts.Events = func(e event.Event) {
		if e.Kind == event.ToolResult && e.Tool == "describe_slide" {
			described = string(e.Result)
		}
	}
	report, err := Run(context.Background(), doc, Scope{}, opts)
	if err != nil || len(report.Incomplete()) > 0 {
		t.Fatalf("run: %v %+v", err, report.Incomplete())
	}
	for _, want := range []string{`"ok":true`, `(2) of 2`, "One half", "the shaded half", "Its quiz:", "one question on halves"} {
		if !strings.Contains(described, want) {
			t.Errorf("describe_slide lacks %q: %s", want, described)
		}
	}
}

// TestReviewTurn: with Review, a whiteboard's drawing subagent that is
// done gets one more turn showing the board as drawn, and a model that
// acts on it fixes what it sees, then sees the fix in one more look;
// without it, the subagent ends at once.
func TestReviewTurn(t *testing.T) {
	script := fakellm.Script{Rules: []fakellm.Rule{
		{Match: []string{"(whiteboard.metadata)"}, Turns: []fakellm.Turn{{ToolCalls: []fakellm.FakeCall{
			{Name: "set_heading", Arguments: `{"heading":"H"}`}, {Name: "set_layout", Arguments: `{"layout":"L"}`}}}}},
		{Match: []string{"(whiteboard.node)"}, Turns: []fakellm.Turn{
			{ToolCalls: []fakellm.FakeCall{{Name: "add_text", Arguments: `{"id":"t","x":40,"y":140,"w":300,"h":40,"text":"Halfs"}`}}},
			{ToolCalls: []fakellm.FakeCall{{Name: "update_element", Arguments: `{"id":"t","text":"Halves"}`}}},
			{Content: "Looks right."}}},
	}}
	for _, review := range []bool{false, true} {
		srv := fakellm.Start(t, script)
		model, err := llm.New(llm.Config{BaseURL: srv.URL(), APIKey: fakellm.DummyAPIKey, Model: "fake"})
		if err != nil {
			t.Fatal(err)
		}
		doc, err := compose.Load(writeLesson(t, 1, ""), testRegistry())
		if err != nil {
			t.Fatal(err)
		}
		opts := options(t, model, 1)
		opts.Review = review
		report, err := Run(context.Background(), doc, Scope{}, opts)
		if err != nil || len(report.Incomplete()) > 0 {
			t.Fatalf("review %v: %v %+v", review, err, report.Incomplete())
		}
		files, err := doc.Render("")
		if err != nil {
			t.Fatal(err)
		}
		saved := string(files[len(files)-1].Data)
		var reqs []fakellm.Recorded
		for _, r := range srv.Requests() {
			if strings.Contains(string(r.Body), "(whiteboard.node)") {
				reqs = append(reqs, r)
			}
		}
		switch {
		case !review && (len(reqs) != 1 || !strings.Contains(saved, "text: Halfs")):
			t.Errorf("without review: %d requests, lesson:\n%s", len(reqs), saved)
		case review && (len(reqs) != 3 || !strings.Contains(saved, "text: Halves")):
			t.Errorf("with review: %d requests (want 3: the review's fix is looked at again), lesson:\n%s", len(reqs), saved)
		case review:
			first := string(reqs[1].Body)
			for _, want := range []string{"Review what you made", `\"Halfs\"`, "(40,140)"} {
				if !strings.Contains(first, want) {
					t.Errorf("the review turn lacks %q: %.2000s", want, first)
				}
			}
			if again := string(reqs[2].Body); !strings.Contains(again, "Look again") || !strings.Contains(again, `\"Halves\"`) {
				t.Errorf("the second look does not show the fix: %.3000s", again)
			}
		}
	}
}

// TestSourceLinesCarried: lines the lesson's subagent read reach every
// later subagent's prompt as citable context; lines a slide's whiteboard
// read reach that slide's quiz, never another slide's children, so the
// prompts stay fixed by the tree.
func TestSourceLinesCarried(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "scheme.md"), []byte("Fractions\nA half is one of two equal parts.\nA quarter is one of four.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srcs, err := sources.Open([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	script := digestScript()
	read := func(lines string) fakellm.FakeCall {
		return fakellm.FakeCall{Name: "read_source", Arguments: `{"path":"scheme.md",` + lines + `}`}
	}
	for i, r := range script.Rules {
		switch r.Match[0] {
		case "(lesson.metadata)":
			script.Rules[i].Turns[0].ToolCalls = []fakellm.FakeCall{read(`"start_line":2,"end_line":2`)}
		case "(whiteboard.node)":
			script.Rules[i].Turns[0].ToolCalls = []fakellm.FakeCall{read(`"start_line":3,"end_line":3`)}
		}
	}
	srv := fakellm.Start(t, script)
	model, err := llm.New(llm.Config{BaseURL: srv.URL(), APIKey: fakellm.DummyAPIKey, Model: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "lesson.yaml")
	if err := os.WriteFile(path, []byte(digestLesson(2)), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := goldenRegistry(t)
	doc, err := compose.Load(path, reg)
	if err != nil {
		t.Fatal(err)
	}
	opts := options(t, model, 1) // s1 after s0: a leak from s0 would show
	if opts.Bridge, err = bridge.New(reg); err != nil {
		t.Fatal(err)
	}
	if opts.Templates, err = templates.Load("", templates.LevelsOf(reg)); err != nil {
		t.Fatal(err)
	}
	opts.Sources = srcs
	if _, err := Run(context.Background(), doc, Scope{}, opts); err != nil {
		t.Fatal(err)
	}
	system := map[string]string{}
	for _, r := range srv.Requests() {
		task := bodyTask(t, r.Body)
		if m := nodeRE.FindStringSubmatch(task); m != nil {
			system[m[1]+" "+m[2]] = task
		}
	}
	half, quarter := "2: A half is one of two equal parts.", "3: A quarter is one of four."
	for node, want := range map[string][2]bool{ // carries the half, the quarter
		"lesson lesson.metadata":                   {false, false},
		"lesson lesson.node":                       {true, false},
		"slides/s0/whiteboard whiteboard.node":     {true, false},
		"slides/s0/quiz quiz.node":                 {true, true},
		"slides/s1/whiteboard whiteboard.metadata": {true, false},
	} {
		p, ok := system[node]
		if !ok {
			t.Errorf("%s: no request", node)
			continue
		}
		if strings.Contains(p, half) != want[0] || strings.Contains(p, quarter) != want[1] {
			t.Errorf("%s: carries the half %v, the quarter %v; want %v", node, strings.Contains(p, half), strings.Contains(p, quarter), want)
		}
	}
}
