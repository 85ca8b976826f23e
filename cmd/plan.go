package cmd

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lessongen/lessongen/course"
	"github.com/lessongen/lessongen/internal/termsafe"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/orchestrate"
)

type planOptions struct {
	io    *IOStreams
	reg   *modality.Registry
	file  string
	slide string
	json  bool
	cost  bool
}

// newCmdPlan builds plan; runF, when set, runs in place of runPlan with
// the options the flags filled (tests).
func newCmdPlan(f *factory, runF func(*planOptions) error) *cobra.Command {
	opts := &planOptions{io: f.io, reg: f.registry}
	cmd := &cobra.Command{
		Use:   "plan FILE",
		Short: "Show what generation would do, without calling a model",
		Long: `Show the subagents 'lessongen generate' would run, in the order it would run
them: for each, the node and level (metadata or node), what is pending there
with their briefs (the author's or an earlier assistant's), and the context it would receive (the chain of
descriptions from the lesson down to the node).

A complete lesson reports nothing to do.

With --cost, estimate instead what the run would spend: requests, prompt
and completion tokens per level, and money at the model's price (the
prices setting over a built-in table of OpenAI's); for a course, its own
levels and each lesson's. Prompt tokens come from the requests the run
would send (templates, describe chains, tools, source lines) at 4 bytes a
token; turns, what each adds (the turns spent reading --sources, the
--review turn and its --review-images board) and completion tokens as
measured on a capable model's recorded run. No request is made.`,
		Example: "  lessongen plan examples/photosynthesis/lesson.yaml\n  lessongen plan lesson.yaml --slide light --json\n  lessongen plan lesson.yaml --cost --model gpt-6-sol --sources sources --review-images\n  lessongen plan course.yaml --cost",
		Args:    exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.file = args[0]
			if runF != nil {
				return runF(opts)
			}
			if opts.cost {
				return runPlanCost(cmd, opts)
			}
			return runPlan(opts)
		},
	}
	cmd.Flags().StringVar(&opts.slide, "slide", "", "plan only this slide (id or 1-based position), as 'fill --slide' would")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the plan as JSON")
	addCostFlags(cmd, opts)
	completeSlide(cmd, f.registry)
	return cmd
}

func runPlan(opts *planOptions) error {
	if course.Sniff(opts.file) {
		return runCoursePlan(opts)
	}
	doc, err := loadLesson(opts.file, opts.reg)
	if err != nil {
		return err
	}
	steps, err := orchestrate.Plan(doc, opts.reg, orchestrate.Scope{Slide: opts.slide})
	if err != nil {
		return &usageError{err}
	}
	if opts.json {
		if steps == nil {
			steps = []orchestrate.Step{}
		}
		data, err := json.MarshalIndent(map[string]any{"file": opts.file, "steps": steps}, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(opts.io.Out, "%s\n", termsafe.JSON(data))
		return err
	}
	// The plan quotes what authors and models wrote: built whole, then
	// printed with control characters and bidi overrides made visible.
	var out strings.Builder
	defer func() { fmt.Fprint(opts.io.Out, termsafe.String(out.String())) }()
	if len(steps) == 0 {
		fmt.Fprintf(&out, "%s: nothing to do; nothing is pending.\n", opts.file)
		return nil
	}
	fmt.Fprintf(&out, "%s: %s\n", opts.file, countSubagents(steps))
	for i, st := range steps {
		writeStep(&out, i, st)
	}
	return nil
}

// writeStep writes one step of the plan: its node and level, note,
// bindings, what is pending and the context it would receive.
func writeStep(out *strings.Builder, i int, st orchestrate.Step) {
	fmt.Fprintf(out, "\n%d. %s\n", i+1, partLabel(st.Node, string(st.Level)))
	if st.Note != "" {
		fmt.Fprintf(out, "   note: %s\n", st.Note)
	}
	for name, v := range st.Bindings {
		fmt.Fprintf(out, "   bound: %s = %q\n", name, v)
	}
	for j, p := range st.Pending {
		label := "   pending:"
		if j > 0 {
			label = "           "
		}
		line := p.Name()
		if p.ID != "" {
			line += " [" + p.ID + "]"
		}
		if p.Hint != "" {
			line += fmt.Sprintf(" - %q", p.Hint)
		}
		fmt.Fprintf(out, "%s %s\n", label, line)
	}
	for j, c := range st.Context {
		label := "   context:"
		if j > 0 {
			label = "           "
		}
		fmt.Fprintf(out, "%s %s\n", label, indentRest(c, "            "))
	}
}

// countSubagents says how many subagents the steps run; the children of
// slides a model will add are counted only once it has added them.
func countSubagents(steps []orchestrate.Step) string {
	n := 0
	for _, st := range steps {
		if st.Node != orchestrate.NewSlidesNode {
			n++
		}
	}
	if n < len(steps) {
		return plural(n, "subagent") + ", and those of the slides the lesson node adds"
	}
	return plural(n, "subagent")
}

func indentRest(s, pad string) string {
	return strings.ReplaceAll(s, "\n", "\n"+pad)
}
