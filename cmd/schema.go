package cmd

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/modality"
)

type schemaOptions struct {
	io  *IOStreams
	reg *modality.Registry
	// kind is the file whose schema is printed: the root (lesson), a
	// child kind, or the config file (configKind).
	kind string
}

// newCmdSchema builds schema; runF, when set, runs in place of runSchema
// with the options the arguments filled (tests).
func newCmdSchema(f *factory, runF func(*schemaOptions) error) *cobra.Command {
	reg := f.registry
	opts := &schemaOptions{io: f.io, reg: reg}
	kinds := append(compose.Kinds(reg), configKind)
	return &cobra.Command{
		Use:   "schema [" + strings.Join(kinds, "|") + "]",
		Short: "Print the JSON Schema (draft 2020-12) of a " + joinKinds(reg.All(), "or") + " file, or of lessongen.yaml, for editors",
		Long: fmt.Sprintf(`Print the JSON Schema (draft 2020-12) of a %s file (the default) or of the
file of a kind a slide places, in its own file or inline, named by its kind:
%s
It is derived from the same declarations validate reads, so every file
validate accepts passes it; a !pending value is read by editors as its
hint string (or null), and is allowed wherever validate allows pending.
Rules a schema cannot state (unique ids, arrow ends, layout) are
validate's. "schema config" prints the config file's (lessongen.yaml),
from the same table as the flags.

Point an editor at it with a first line such as
  # yaml-language-server: $schema=.lessongen/schema/%[1]s.json`, reg.Root().Name, kindTable(reg.Children())),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("too many arguments (%d, want at most 1)\nusage: %s", len(args), cmd.UseLine())
			}
			return nil
		},
		ValidArgs: kinds,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.kind = reg.Root().Name
			if len(args) == 1 {
				opts.kind = args[0]
			}
			if runF != nil {
				return runF(opts)
			}
			return runSchema(opts)
		},
	}
}

// runSchema prints the JSON Schema of opts.kind's files.
func runSchema(opts *schemaOptions) error {
	var s any = configSchema()
	if opts.kind != configKind {
		var err error
		if s, err = compose.Schema(opts.reg, opts.kind); err != nil {
			return usagef("%v, or %s (lessongen.yaml)", err, configKind)
		}
	}
	out, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	_, err = opts.io.Out.Write(append(out, '\n'))
	return err
}
