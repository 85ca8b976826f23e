package cmd

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/fakellm"
	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

// poll is a modality defined only here: a question with options. Registered
// beside the real ones, it must show up in tools, plan and generate with no
// change anywhere else: that is what a registry is for.
type poll struct {
	Src      *yaml.Node              `yaml:"-"`
	Question yamlsrc.Field[string]   `yaml:"question"`
	Options  yamlsrc.Field[[]string] `yaml:"options"`
	closed   bool
}

const (
	pollRead session.Capability = "poll.read"
	pollMeta session.Capability = "poll.metadata"
	pollNode session.Capability = "poll.node"
)

type (
	SetQuestion struct {
		Question string `json:"question" jsonschema:"the question put to the class"`
	}
	AddOption struct {
		Text string `json:"text" jsonschema:"one answer option"`
	}
	DescribePoll    struct{}
	ListPollPending struct{}
	ClosePoll       struct{}
)

func (SetQuestion) Spec() session.Spec {
	return session.Spec{Capability: pollMeta, Doc: "Set the poll's question."}
}
func (AddOption) Spec() session.Spec {
	return session.Spec{Capability: pollNode, Doc: "Add an option to the poll."}
}
func (DescribePoll) Spec() session.Spec {
	return session.Spec{Capability: pollRead, ReadOnly: true, Doc: "Describe the poll."}
}
func (ListPollPending) Spec() session.Spec {
	return session.Spec{Capability: pollRead, ReadOnly: true, Doc: "List what is pending in the poll."}
}
func (ClosePoll) Spec() session.Spec {
	return session.Spec{Capability: pollNode, Hidden: true, Doc: "Close the poll's options."}
}

func (p *poll) Reduce(rc *session.Context, in session.Intent) (func(), error) {
	old := *p
	switch in := in.(type) {
	case SetQuestion:
		p.Question = yamlsrc.Val(in.Question)
	case AddOption:
		p.Options = yamlsrc.Val(append(append([]string(nil), p.Options.Value...), in.Text))
	case DescribePoll:
		rc.Report(p.Describe())
		return nil, nil
	case ListPollPending:
		rc.Report(p.Pending())
		return nil, nil
	case ClosePoll:
		p.closed = true
	default:
		return nil, session.Reject(session.KindInvalidArgs, "", "", "a poll cannot apply %T", in)
	}
	rc.Report("ok")
	return func() { *p = old }, nil
}

func (p *poll) Recompile(*session.Context, session.Intent) {}

func (p *poll) Describe() string {
	if q, ok := p.Question.Get(); ok {
		return fmt.Sprintf("A poll asking %q with %d options.", q, len(p.Options.Value))
	}
	return "A poll, question not written yet."
}

func (p *poll) Pending() []session.Pending {
	var ps []session.Pending
	if p.Question.Pending {
		ps = append(ps, session.Pending{Level: session.LevelMetadata, Path: "question", Hint: p.Question.Hint})
	}
	if p.Options.Pending {
		ps = append(ps, session.Pending{Level: session.LevelNode, Path: "options", Hint: p.Options.Hint})
	}
	return ps
}

func pollModality() modality.Descriptor {
	return modality.Descriptor{
		Name: "poll", Doc: "a quick class poll",
		Intents: []session.Intent{SetQuestion{}, AddOption{}, DescribePoll{}, ListPollPending{}, ClosePoll{}},
		Read:    pollRead, Metadata: pollMeta, Node: pollNode,
		Close: ClosePoll{},
		Prompts: map[session.Level]string{
			session.LevelMetadata: "Poll question.\nNode: {{ .Node }} ({{ .Level }})\n{{ template \"context\" . }}\n{{ template \"pending\" . }}\n{{ template \"rules\" . }}",
			session.LevelNode:     "Poll options.\nNode: {{ .Node }} ({{ .Level }})\n{{ template \"context\" . }}\n{{ template \"pending\" . }}\n{{ template \"rules\" . }}",
		},
		Codec: modality.NewCodec(
			func(n *yaml.Node, r *yamlsrc.Reporter, path string) *poll {
				p := &poll{}
				yamlsrc.Decode(n, p, r, path)
				return p
			},
			func(hint string) *poll {
				return &poll{Question: yamlsrc.Todo[string](""), Options: yamlsrc.Todo[[]string](hint)}
			},
			func(p *poll) *yaml.Node { return yamlsrc.Encode(*p) },
			nil),
		Render: modality.NewRender(func(p *poll, _ map[string]string) modality.Rendered {
			return modality.Rendered{Body: "<p>" + html.EscapeString(p.Describe()) + "</p>\n"}
		}),
		PPTX: modality.NewPPTX(func(p *poll, _ map[string]string, f pptx.Box) modality.PPTXRendered {
			return modality.PPTXRendered{Shapes: []pptx.Shape{&pptx.Sp{Name: "poll", Box: f, Paras: []pptx.Para{pptx.Text(p.Describe(), 0, false, pptx.Color{})}}}}
		}),
		Content: modality.NewContent((*poll).Describe),
	}
}

func pollRegistry(t *testing.T) *modality.Registry {
	t.Helper()
	reg, err := modality.New(lesson.Modality(), whiteboard.Modality(), pollModality())
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func runWith(t *testing.T, reg *modality.Registry, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = RunWith(context.Background(), args, &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, reg)
	return out.String(), errOut.String(), code
}

const pollLesson = `version: 1
metadata:
  title: Romans
slides:
  - id: leave
    title: Why did the Romans leave?
    whiteboard:
      heading: The end of Roman Britain
      elements: []
    poll: !pending "three reasons to vote on"
`

func TestRegisteredModalityNeedsNoOtherChange(t *testing.T) {
	reg := pollRegistry(t)

	out, _, code := runWith(t, reg, "tools", "--level", "poll.node")
	if code != 0 || !strings.Contains(out, "poll.node (5 tools)") || !strings.Contains(out, "add_option(text)") {
		t.Errorf("tools --level poll.node (exit %d):\n%s", code, out)
	}
	out, _, _ = runWith(t, reg, "tools", "--help")
	if !strings.Contains(out, "poll.metadata, poll.node") {
		t.Errorf("tools --help does not list the poll's levels:\n%s", out)
	}

	dir := t.TempDir()
	path := filepath.Join(dir, "lesson.yaml")
	if err := os.WriteFile(path, []byte(pollLesson), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runWith(t, reg, "plan", path)
	if code != 0 || !strings.Contains(out, `slide "leave" · poll · metadata`) || !strings.Contains(out, `slide "leave" · poll · node`) ||
		!strings.Contains(out, `pending: options - "three reasons to vote on"`) || !strings.Contains(out, `A poll, question not written yet.`) {
		t.Errorf("plan (exit %d):\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "The slide holds a whiteboard and a poll.") {
		t.Errorf("the slide's context does not say it holds both:\n%s", out)
	}
	// Without the poll registered, the same file is an error naming the key.
	_, errOut, code = run(t, "validate", path)
	if code != ExitUsage || !strings.Contains(errOut, `unknown key "poll" in slide "leave" (1)`) {
		t.Errorf("validate without the poll (exit %d): %s", code, errOut)
	}

	srv := fakellm.Start(t, fakellm.Script{Rules: []fakellm.Rule{
		{Match: []string{"poll.metadata"}, Turns: []fakellm.Turn{{ToolCalls: []fakellm.FakeCall{{Name: "set_question", Arguments: `{"question":"Why did they leave?"}`}}}}},
		{Match: []string{"poll.node"}, Turns: []fakellm.Turn{{ToolCalls: []fakellm.FakeCall{
			{Name: "add_option", Arguments: `{"text":"Attacks on Rome"}`},
			{Name: "add_option", Arguments: `{"text":"No money for soldiers"}`},
		}}}},
	}})
	t.Setenv("LESSONGEN_API_KEY", fakellm.DummyAPIKey)
	out, errOut, code = runWith(t, reg, "generate", path, "--base-url", srv.URL(), "--model", "m", "--events", filepath.Join(dir, "ev.jsonl"))
	if code != 0 {
		ev, _ := os.ReadFile(filepath.Join(dir, "ev.jsonl"))
		t.Fatalf("generate (exit %d):\n%s%s\n%s", code, out, errOut, ev)
	}
	data, _ := os.ReadFile(path)
	for _, want := range []string{"    poll:\n      question: Why did they leave?\n      options:\n        - Attacks on Rome\n        - No money for soldiers\n",
		"    whiteboard:\n      heading: The end of Roman Britain\n"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("saved lesson lacks %q:\n%s", want, data)
		}
	}
	out, _, _ = runWith(t, reg, "plan", path)
	if !strings.Contains(out, "nothing to do") {
		t.Errorf("after generate:\n%s", out)
	}
}
