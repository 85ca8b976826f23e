package cmd

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/tool"
)

type toolsOptions struct {
	io         *IOStreams
	reg        *modality.Registry
	level      string
	json       bool
	compatible bool
	sources    bool
}

// newCmdTools builds tools; runF, when set, runs in place of runTools
// with the options the flags filled (tests).
func newCmdTools(f *factory, runF func(*toolsOptions) error) *cobra.Command {
	opts := &toolsOptions{io: f.io, reg: f.registry}
	levels := strings.Join(f.registry.LevelNames(), ", ")
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "Print the tools models are offered, exactly as they receive them",
		Long: `Print the tool catalog: one tool per intent a model may use, grouped by the
subagent level that is offered it. Names, descriptions and JSON Schemas are
derived from the intent types, so this is exactly what a model receives.

Levels: ` + levels + `.

--json prints the raw definitions in the OpenAI "tools" format: with --level,
the array a request for that level carries; without, an object keyed by level.
Schemas are in strict form unless --compatible is given (for servers without
strict function calling; set tool_schema: compatible for such servers).`,
		Example: "  lessongen tools\n  lessongen tools --level whiteboard.node --json\n  lessongen tools --json --compatible",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runTools(opts)
		},
	}
	cmd.Flags().StringVar(&opts.level, "level", "", "one level only: "+levels)
	cmd.Flags().BoolVar(&opts.json, "json", false, "print raw tool definitions as JSON")
	cmd.Flags().BoolVar(&opts.compatible, "compatible", false, "print the non-strict (plain JSON Schema) form")
	cmd.Flags().BoolVar(&opts.sources, "sources", false, "include the tools a run with --sources adds (list_sources, read_source, search_sources, list_images)")
	_ = cmd.RegisterFlagCompletionFunc("level", completeFixed(f.registry.LevelNames()...))
	return cmd
}

// wireTool is a tool in the shape of the Chat Completions "tools" array.
type wireTool struct {
	Type     string   `json:"type"`
	Function tool.Def `json:"function"`
}

func wireTools(tools []tool.Def) []wireTool {
	out := make([]wireTool, len(tools))
	for i, t := range tools {
		out[i] = wireTool{Type: "function", Function: t}
	}
	return out
}

func runTools(opts *toolsOptions) error {
	form := bridge.Strict
	if opts.compatible {
		form = bridge.Compatible
	}
	br, err := bridge.New(opts.reg)
	if err != nil {
		return err
	}
	levels := br.Levels()
	if opts.level != "" {
		l, ok := br.Level(opts.level)
		if !ok {
			return usagef("no level %q; levels: %s", opts.level, strings.Join(opts.reg.LevelNames(), ", "))
		}
		levels = []modality.Level{l}
	}
	byLevel := map[string][]tool.Def{}
	for _, l := range levels {
		c, err := br.Catalog(l.Modality)
		if err != nil {
			return err
		}
		byLevel[l.Name] = append(c.Tools(bridge.WithPictures(l, opts.sources), form), br.LocalTools(l, form, opts.sources)...)
	}
	if opts.json {
		enc := json.NewEncoder(opts.io.Out)
		enc.SetIndent("", "  ")
		if opts.level != "" {
			return enc.Encode(wireTools(byLevel[opts.level]))
		}
		all := map[string][]wireTool{}
		for name, tools := range byLevel {
			all[name] = wireTools(tools)
		}
		return enc.Encode(all)
	}
	for i, l := range levels {
		if i > 0 {
			fmt.Fprintln(opts.io.Out)
		}
		c, err := br.Catalog(l.Modality)
		if err != nil {
			return err
		}
		tools := byLevel[l.Name]
		fmt.Fprintf(opts.io.Out, "%s (%s)\n", l.Name, plural(len(tools), "tool"))
		for _, t := range tools {
			sig := c.Signature(t.Name)
			if _, own := c.Spec(t.Name); !own {
				sig = br.LocalSignature(t.Name)
			}
			fmt.Fprintf(opts.io.Out, "  %s(%s)\n      %s\n", t.Name, sig, t.Description)
		}
	}
	return nil
}
