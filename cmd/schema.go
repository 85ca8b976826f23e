package cmd

import (
	"encoding/json"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/modality"
)

func newSchemaCmd(streams *IOStreams, reg *modality.Registry) *cobra.Command {
	kinds := compose.Kinds(reg)
	return &cobra.Command{
		Use:   "schema [" + strings.Join(kinds, "|") + "]",
		Short: "Print the JSON Schema (draft 2020-12) of a lesson, whiteboard or quiz file, for editors",
		Long: `Print the JSON Schema (draft 2020-12) of a lesson file (the default) or of a
child file given by path (whiteboard, quiz). It is derived from the same
declarations validate reads, so every file validate accepts passes it; a
!pending value is read by editors as its hint string (or null), and is
allowed wherever validate allows pending. Rules a schema cannot state
(unique ids, arrow ends, layout) are validate's.

Point an editor at it with a first line such as
  # yaml-language-server: $schema=.lessongen/schema/lesson.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("too many arguments (%d, want at most 1)\nusage: %s", len(args), cmd.UseLine())
			}
			return nil
		},
		ValidArgs: kinds,
		RunE: func(cmd *cobra.Command, args []string) error {
			kind := reg.Root().Name
			if len(args) == 1 {
				kind = args[0]
			}
			s, err := compose.Schema(reg, kind)
			if err != nil {
				return usagef("%v", err)
			}
			out, err := json.MarshalIndent(s, "", "  ")
			if err != nil {
				return err
			}
			_, err = streams.Out.Write(append(out, '\n'))
			return err
		},
	}
}
