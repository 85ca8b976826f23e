package conformance_test

import (
	"fmt"
	"html"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// worksheet is a toy modality that lives only in this test: a title and
// instructions (its metadata level) and a list of tasks (its node level).
// Everything the program needs of it is declared here; it registers in one
// line (see registry).
type worksheet struct {
	Src          *yaml.Node              `yaml:"-"`
	Title        yamlsrc.Field[string]   `yaml:"title" jsonschema:"the worksheet's title"`
	Instructions yamlsrc.Field[string]   `yaml:"instructions" jsonschema:"what students are told to do"`
	Tasks        yamlsrc.Field[[]string] `yaml:"tasks" jsonschema:"the tasks, one sentence each"`
	// brief is the author's hint for a worksheet given whole as pending.
	// Like a whiteboard's, it is kept in memory only: the saved file drops
	// it, so Describe changes across a reload and Content must not.
	brief string
}

const (
	wsRead session.Capability = "worksheet.read"
	wsMeta session.Capability = "worksheet.metadata"
	wsNode session.Capability = "worksheet.node"
)

type (
	SetTitle struct {
		Title string `json:"title" jsonschema:"the worksheet's title"`
	}
	SetInstructions struct {
		Instructions string `json:"instructions" jsonschema:"what students are told to do"`
	}
	AddTask struct {
		Text string `json:"text" jsonschema:"one task, a sentence"`
	}
	DescribeWorksheet struct{}
	ListPending       struct{}
	CloseWorksheet    struct{}
)

func (SetTitle) Spec() session.Spec {
	return session.Spec{Capability: wsMeta, Fills: []string{"title"}, Doc: "Set the worksheet's title."}
}
func (SetInstructions) Spec() session.Spec {
	return session.Spec{Capability: wsMeta, Fills: []string{"instructions"}, Doc: "Set what students are told to do."}
}
func (AddTask) Spec() session.Spec {
	return session.Spec{Capability: wsNode, Adds: true, Doc: "Add a task to the worksheet."}
}
func (DescribeWorksheet) Spec() session.Spec {
	return session.Spec{Capability: wsRead, ReadOnly: true, Doc: "Describe the worksheet."}
}
func (ListPending) Spec() session.Spec {
	return session.Spec{Capability: wsRead, ReadOnly: true, Doc: "List what is still to be written on the worksheet."}
}
func (CloseWorksheet) Spec() session.Spec {
	return session.Spec{Capability: wsNode, Hidden: true, Doc: "Close the worksheet's placeholders."}
}

func (w *worksheet) Reduce(rc *session.Context, in session.Intent) (func(), error) {
	old := *w
	switch in := in.(type) {
	case SetTitle:
		w.Title = yamlsrc.Val(in.Title)
	case SetInstructions:
		w.Instructions = yamlsrc.Val(in.Instructions)
	case AddTask:
		if strings.TrimSpace(in.Text) == "" {
			return nil, session.Reject(session.KindInvalidArgs, "text", "write the task as a sentence", "a task needs text")
		}
		w.Tasks = yamlsrc.Val(append(append([]string(nil), w.Tasks.Value...), in.Text))
	case DescribeWorksheet:
		rc.Report(w.Describe())
		return nil, nil
	case ListPending:
		rc.Report(w.Pending())
		return nil, nil
	case CloseWorksheet:
		return func() {}, nil // nothing placeholder-like to close
	default:
		return nil, session.Reject(session.KindInvalidArgs, "", "", "a worksheet cannot apply %T", in)
	}
	rc.Report("ok")
	return func() { *w = old }, nil
}

func (w *worksheet) Recompile(*session.Context, session.Intent) {}

// Describe is Content, then the author's brief while it is kept.
func (w *worksheet) Describe() string {
	if w.brief == "" {
		return w.Content()
	}
	return w.Content() + "\nBrief for this worksheet: " + w.brief + "."
}

// Content is what resume compares: what the saved file keeps.
func (w *worksheet) Content() string {
	s := "A worksheet, title not written yet."
	if t, ok := w.Title.Get(); ok {
		s = fmt.Sprintf("A worksheet titled %q.", t)
	}
	if in, ok := w.Instructions.Get(); ok {
		s += fmt.Sprintf(" Students are told: %q.", in)
	}
	for _, task := range w.Tasks.Value {
		s += "\n- " + task
	}
	return s
}

func (w *worksheet) Pending() []session.Pending {
	var ps []session.Pending
	for _, f := range []struct {
		level      session.Level
		path, hint string
		pending    bool
	}{
		{session.LevelMetadata, "title", w.Title.Hint, w.Title.Pending},
		{session.LevelMetadata, "instructions", w.Instructions.Hint, w.Instructions.Pending},
		{session.LevelNode, "tasks", w.Tasks.Hint, w.Tasks.Pending},
	} {
		if f.pending {
			ps = append(ps, session.Pending{Level: f.level, Path: f.path, Hint: f.hint})
		}
	}
	return ps
}

// decodeWorksheet reads a worksheet and checks it: a task needs text.
func decodeWorksheet(n *yaml.Node, r *yamlsrc.Reporter, path string) *worksheet {
	w := &worksheet{Src: n}
	yamlsrc.Decode(n, w, r, path)
	for i := 0; n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != "tasks" || n.Content[i+1].Kind != yaml.SequenceNode {
			continue
		}
		for j, item := range n.Content[i+1].Content {
			if strings.TrimSpace(item.Value) == "" {
				r.At(item, "%s.tasks[%d]: a task needs text", path, j)
			}
		}
	}
	return w
}

func renderWorksheet(w *worksheet, _ map[string]string) modality.Rendered {
	var b strings.Builder
	b.WriteString("<section class=\"worksheet\">\n")
	for _, l := range w.lines() {
		fmt.Fprintf(&b, "<p>%s</p>\n", html.EscapeString(l))
	}
	b.WriteString("</section>\n")
	return modality.Rendered{Body: b.String(), Notes: fmt.Sprintf("<p>Worksheet: %d tasks</p>\n", len(w.Tasks.Value))}
}

func worksheetPPTX(w *worksheet, _ map[string]string, frame pptx.Box) modality.PPTXRendered {
	var ps []pptx.Para
	for _, l := range w.lines() {
		ps = append(ps, pptx.Text(l, 0, false, pptx.Color{}))
	}
	return modality.PPTXRendered{Shapes: []pptx.Shape{&pptx.Sp{Name: "worksheet", Box: frame, Paras: ps, Shrink: true}}}
}

// lines are what both renders show: each field, or what is pending.
func (w *worksheet) lines() []string {
	var out []string
	for _, f := range []struct {
		name string
		f    yamlsrc.Field[string]
	}{{"title", w.Title}, {"instructions", w.Instructions}} {
		if v, ok := f.f.Get(); ok {
			out = append(out, v)
		} else if f.f.Pending {
			out = append(out, "pending "+f.name+" "+f.f.Hint)
		}
	}
	if w.Tasks.Pending {
		out = append(out, "pending tasks: "+w.Tasks.Hint)
	}
	for i, t := range w.Tasks.Value {
		out = append(out, fmt.Sprintf("%d. %s", i+1, t))
	}
	return out
}

const worksheetPrompt = "Worksheet %s.\nNode: {{ .Node }} ({{ .Level }})\n{{ template \"context\" . }}\n{{ template \"pending\" . }}\n{{ template \"rules\" . }}"

// worksheetModality is the toy's descriptor: its one place.
func worksheetModality() modality.Descriptor {
	return modality.Descriptor{
		Name: "worksheet", Doc: "a title, instructions and tasks for students",
		Intents: []session.Intent{SetTitle{}, SetInstructions{}, AddTask{}, DescribeWorksheet{}, ListPending{}, CloseWorksheet{}},
		Read:    wsRead, Metadata: wsMeta, Node: wsNode,
		MaxNew: 10, NewItems: "tasks",
		Close: CloseWorksheet{},
		Prompts: map[session.Level]string{
			session.LevelMetadata: fmt.Sprintf(worksheetPrompt, "title and instructions"),
			session.LevelNode:     fmt.Sprintf(worksheetPrompt, "tasks"),
		},
		Codec: modality.NewCodec(decodeWorksheet,
			func(hint string) *worksheet {
				return &worksheet{Title: yamlsrc.Todo[string](""), Instructions: yamlsrc.Todo[string](""), Tasks: yamlsrc.Todo[[]string](hint), brief: hint}
			},
			func(w *worksheet) *yaml.Node { return yamlsrc.Encode(*w) },
			nil),
		Render:  modality.NewRender(renderWorksheet),
		PPTX:    modality.NewPPTX(worksheetPPTX),
		Content: modality.NewContent((*worksheet).Content),
	}
}
