package cmd

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/lessongen/lessongen/internal/fakellm"
	"github.com/lessongen/lessongen/llm"
)

// The tests here call a command's run function with an options struct
// and no cobra, and check through runF what a command's flags fill in.

const shapeLesson = `version: 1
metadata:
  title: Adding fractions
  subject: mathematics
  grade: "5"
  duration_minutes: 15
  objectives: !pending "two objectives"
slides:
  - id: worked
    title: Worked example
    section: Explain
    duration_minutes: 15
    notes: Model 1/4 + 2/4 on the board.
`

// shapeSettings are a run's settings against the fake server, as the
// flags' defaults would give them.
func shapeSettings(url string) *settings {
	return &settings{
		Model: "m", BaseURL: url, APIKey: fakellm.DummyAPIKey, Concurrency: 1, MaxSteps: 4,
		Timeout: 30 * time.Second, Approve: "auto", ToolSchema: "strict", Retries: 1,
		TokenField: "auto", ParallelToolCalls: true, MaxAnswerBytes: llm.DefaultMaxAnswerBytes,
	}
}

func shapeRun(t *testing.T, script fakellm.Script) (file, stdout, stderr string, err error) {
	t.Helper()
	srv := fakellm.Start(t, script)
	file = filepath.Join(t.TempDir(), "lesson.yaml")
	if err := os.WriteFile(file, []byte(shapeLesson), 0o644); err != nil {
		t.Fatal(err)
	}
	reg, rerr := Registry()
	if rerr != nil {
		t.Fatal(rerr)
	}
	var out, errOut bytes.Buffer
	opts := &generateOptions{
		io: &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, reg: reg, file: file,
		settings: func() (*settings, error) { return shapeSettings(srv.URL()), nil },
	}
	err = runGenerate(context.Background(), opts)
	return file, out.String(), errOut.String(), err
}

// runGenerate, called with options alone, runs the lesson's subagent
// against the fake server, saves the result and says so; done is no error.
func TestRunGenerateWithoutCobra(t *testing.T) {
	file, stdout, stderr, err := shapeRun(t, fakellm.Script{Rules: []fakellm.Rule{{Match: []string{"lesson.metadata"}, Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.FakeCall{{Name: "set_objectives", Arguments: `{"objectives":["Add quarters","Add fifths"]}`}}},
		{Content: "Done."},
	}}}})
	if err != nil {
		t.Fatalf("err = %v (exit %d)\nstderr:\n%s", err, exitCode(err), stderr)
	}
	if stdout != "wrote "+file+"\n" {
		t.Errorf("stdout = %q, want the file written", stdout)
	}
	if !strings.Contains(stderr, "summary: 1 done, 0 failed, 0 still pending") {
		t.Errorf("stderr lacks the summary:\n%s", stderr)
	}
	data, _ := os.ReadFile(file)
	if !strings.Contains(string(data), "- Add fifths") || strings.Contains(string(data), "!pending") {
		t.Errorf("the lesson as saved:\n%s", data)
	}
}

// A run that leaves work pending is saved and ends with ErrPartial,
// reported already (the summary names it) and exit 3 through exitCode.
func TestRunGeneratePartialIsReported(t *testing.T) {
	file, _, stderr, err := shapeRun(t, fakellm.Script{Rules: []fakellm.Rule{{Match: []string{"lesson.metadata"}, Turns: []fakellm.Turn{
		{Content: "I would rather not."},
	}, Repeat: true}}})
	var silent *silentError
	if !errors.As(err, &silent) || exitCode(err) != ExitPartial || !errors.Is(err, ErrPartial) {
		t.Fatalf("err = %v (exit %d), want a reported ErrPartial (exit 3)", err, exitCode(err))
	}
	if !strings.Contains(stderr, "1 still pending") || !strings.Contains(stderr, "still pending: metadata.objectives") {
		t.Errorf("stderr lacks what is left:\n%s", stderr)
	}
	if data, _ := os.ReadFile(file); string(data) != shapeLesson {
		t.Errorf("nothing changed, yet the lesson was rewritten:\n%s", data)
	}
}

// parse runs a command built with runF on args and returns what runF saw
// (nil when the command refused the arguments first) and the error.
func parse[O any](t *testing.T, build func(*factory, func(*O) error) *cobra.Command, args ...string) (*O, error) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no config file of the machine's
	reg, err := Registry()
	if err != nil {
		t.Fatal(err)
	}
	var got *O
	c := build(newFactory(&IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard}, reg),
		func(o *O) error { got = o; return nil })
	c.SetArgs(args)
	c.SetOut(io.Discard)
	c.SetErr(io.Discard)
	c.SilenceErrors, c.SilenceUsage = true, true
	return got, c.Execute()
}

// fill's flags fill its options; the settings read through the factory
// see the model flags, and --approve given on the line is told apart.
func TestFillFlagsFillOptions(t *testing.T) {
	o, err := parse(t, newCmdFill, "lesson.yaml", "--slide", "light", "--whiteboard", "--instruction", "bigger",
		"-o", "out.yaml", "--dry-run", "--approve", "auto", "--model", "m2", "--concurrency", "2")
	if err != nil || o == nil {
		t.Fatalf("err = %v", err)
	}
	if o.file != "lesson.yaml" || o.slide != "light" || o.instruction != "bigger" || o.out != "out.yaml" || !o.dryRun || !o.approveGiven {
		t.Errorf("options = %+v", *o)
	}
	if kinds := o.kindNames(); len(kinds) != 1 || kinds[0] != "whiteboard" {
		t.Errorf("kinds = %v, want [whiteboard]", kinds)
	}
	cfg, err := o.settings()
	if err != nil || cfg.Model != "m2" || cfg.Concurrency != 2 || cfg.Approve != "auto" {
		t.Errorf("settings = %+v, %v", cfg, err)
	}
	// fill checks that it names one node before its run is called.
	if o, err := parse(t, newCmdFill, "lesson.yaml", "--metadata", "--slide", "x"); o != nil || exitCode(err) != ExitUsage {
		t.Errorf("--metadata with --slide: ran %v, err %v", o != nil, err)
	}
}

func TestGenerateFlagsFillOptions(t *testing.T) {
	o, err := parse(t, newCmdGenerate, "lesson.yaml", "--quiet", "--json", "--interactive")
	if err != nil || o == nil {
		t.Fatalf("err = %v", err)
	}
	if o.file != "lesson.yaml" || !o.quiet || !o.json || !o.interactive || o.approveGiven || o.slide != "" {
		t.Errorf("options = %+v", *o)
	}
}

// render picks the format from -o's extension unless --format is given.
func TestRenderFlagsFillOptions(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		format string
	}{
		{[]string{"l.yaml"}, "html"},
		{[]string{"l.yaml", "-o", "deck.PPTX"}, "pptx"},
		{[]string{"l.yaml", "-o", "l.md"}, "md"},
		{[]string{"l.yaml", "-o", "l.md", "--format", "html"}, "html"},
	} {
		o, err := parse(t, newCmdRender, tc.args...)
		if err != nil || o == nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if o.file != "l.yaml" || o.format != tc.format {
			t.Errorf("%v: format %q; want %q", tc.args, o.format, tc.format)
		}
	}
}

func TestValidatePlanDoctorFlagsFillOptions(t *testing.T) {
	v, err := parse(t, newCmdValidate, "--strict", "--sources", "src", "a.yaml", "b.yaml")
	if err != nil || v == nil {
		t.Fatalf("validate: %v", err)
	}
	if !v.strict || len(v.files) != 2 || len(v.sourceDirs) != 1 {
		t.Errorf("validate: %+v, %v", v, err)
	}
	p, err := parse(t, newCmdPlan, "a.yaml", "--slide", "2", "--json")
	if err != nil || p.file != "a.yaml" || p.slide != "2" || !p.json {
		t.Errorf("plan: %+v, %v", p, err)
	}
	d, err := parse(t, newCmdDoctor, "--json", "--model", "m3")
	if err != nil || !d.asJSON {
		t.Fatalf("doctor: %+v, %v", d, err)
	}
	if cfg, err := d.settings(); err != nil || cfg.Model != "m3" {
		t.Errorf("doctor settings: %+v, %v", cfg, err)
	}
	s, err := parse(t, newCmdSchema, "quiz")
	if err != nil || s.kind != "quiz" {
		t.Errorf("schema: %+v, %v", s, err)
	}
}
